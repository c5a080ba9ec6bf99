import { agreementInterval, fleissKappa, krippendorffAlpha, type AgreementMeasureName, type Vote } from '../aggregate/index.js';
import { seededRng } from '../hits/random.js';

/**
 * Agreement with an interval for the console: the aggregate module's point value and its
 * percentile bootstrap over items (agreement-interval.ts there), seeded by the batch, so
 * the same votes give the same interval on every page load.
 */

export type IntervalMeasure = AgreementMeasureName;

export interface AgreementInterval {
  measure: IntervalMeasure;
  value: number | null;
  reason: string | null;
  /** Null when the measure is undefined or fewer than 2 items carry votes. */
  low: number | null;
  high: number | null;
  level: number;
  resamples: number;
  items: number;
}

export function bootstrapAgreement<L extends string>(
  measure: IntervalMeasure,
  votes: readonly Vote<L>[],
  categories: readonly L[],
  opts: { seed: string; resamples?: number; level?: number },
): AgreementInterval {
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  const point = (measure === 'fleissKappa' ? fleissKappa : krippendorffAlpha).compute(votes, categories);
  const items = new Set(votes.map((v) => v.item)).size;
  const base = { measure, value: point.value, reason: point.reason ?? null, level, resamples, items };
  if (point.value === null || items < 2) return { ...base, low: null, high: null };
  const rng = seededRng(`agreement-interval|${opts.seed}|${measure}`);
  const interval = agreementInterval(measure, votes, categories, { random: () => rng.next(), replicates: resamples, level });
  return { ...base, low: interval.low, high: interval.high };
}
