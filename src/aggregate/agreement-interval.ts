import type { AgreementMeasureName } from './agreement.js';
import { fleissKappaOfCounts } from './fleiss-kappa.js';
import { krippendorffAlphaOfCounts } from './krippendorff-alpha.js';
import { indexVotes, type ItemCounts, type Vote } from './votes.js';

/** A percentile bootstrap interval for an agreement measure, resampling items. */
export interface AgreementInterval {
  readonly measure: AgreementMeasureName;
  /** 0.95 for a 95% interval. */
  readonly level: number;
  /** null when too few replicates had a defined value (see `undefinedReplicates`). */
  readonly low: number | null;
  readonly high: number | null;
  readonly replicates: number;
  /** Replicates on which the measure was undefined (for example every resampled rating the same); left out. */
  readonly undefinedReplicates: number;
}

export interface AgreementIntervalOptions {
  /** Uniform on [0, 1): a seeded source, so that the same seed gives the same interval. */
  readonly random: () => number;
  readonly replicates?: number;
  readonly level?: number;
}

const OF_COUNTS: Record<AgreementMeasureName, (counts: Float64Array, items: number, K: number) => number | null> = {
  fleissKappa: fleissKappaOfCounts,
  krippendorffAlpha: krippendorffAlphaOfCounts,
};

/**
 * Bootstrap interval (Efron's percentile method) for Fleiss' κ or Krippendorff's α: items are
 * the unit that is sampled (an item's ratings stay together, as they are not independent),
 * drawn with replacement as many times as there are rated items. Quantiles are interpolated
 * linearly between order statistics (numpy's default). With fewer than 90% of replicates
 * defined, no interval is given: it would describe a different population.
 */
export function agreementInterval<L extends string>(
  measure: AgreementMeasureName,
  votes: readonly Vote<L>[],
  categories: readonly L[],
  options: AgreementIntervalOptions,
): AgreementInterval {
  return agreementIntervalIndexed(measure, indexVotes(votes, categories), options);
}

/**
 * `agreementInterval` of votes indexed already (`indexVotes(votes, categories)`): a caller
 * that computes κ and α and both their intervals over the same votes indexes them once.
 */
export function agreementIntervalIndexed<L extends string>(
  measure: AgreementMeasureName,
  data: ItemCounts<L>,
  options: AgreementIntervalOptions,
): AgreementInterval {
  const replicates = options.replicates ?? 1000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(replicates) || replicates < 1) throw new RangeError(`replicates: ${replicates} is not a whole number of 1 or more`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level: ${level} is not between 0 and 1`);
  const K = data.categories.length;
  const n = data.items.length;
  const empty = { measure, level, low: null, high: null, replicates, undefinedReplicates: replicates };
  if (n === 0) return empty;

  const statistic = OF_COUNTS[measure];
  const sample = new Float64Array(n * K);
  const values: number[] = [];
  for (let r = 0; r < replicates; r++) {
    for (let i = 0; i < n; i++) {
      const from = Math.min(n - 1, Math.floor(options.random() * n));
      // element by element: a subarray per draw (n x replicates of them) cost more than the statistic
      for (let k = 0; k < K; k++) sample[i * K + k] = data.counts[from * K + k]!;
    }
    const value = statistic(sample, n, K);
    if (value !== null) values.push(value);
  }
  const undefinedReplicates = replicates - values.length;
  if (values.length < 0.9 * replicates) return { ...empty, undefinedReplicates };
  values.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { measure, level, low: quantile(values, tail), high: quantile(values, 1 - tail), replicates, undefinedReplicates };
}

/** The q-quantile of sorted values, linear between order statistics (numpy's default, type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}
