import { ARM_NAMES, type ArmSummary, type Difference, type Estimate, type ExperimentSummary } from './compare.js';

/**
 * The debate experiment's forecast over simulated replicates (pure): N simulated batches,
 * each compared by compareArms, pooled into what ONE batch of this size is expected to show.
 *
 * - value: the mean over the replicates of each replicate's value.
 * - 95% interval: Rubin's rules for multiple imputation. Each replicate's bootstrap interval
 *   gives its within-batch variance, ((high − low) / (2 · 1.96))²; W is their mean, B the
 *   variance of the replicates' values (N − 1 in the denominator; 0 with one replicate), and
 *   the total variance T = W + (1 + 1/N) · B. The interval is value ± 1.96 · √T, clipped to
 *   the statistic's range. With five replicates a percentile range across them would be too
 *   rough; T counts both the sampling of one batch's workers and the draw of the crowd.
 * - power: per statistic, the share of replicates whose difference test gave p < 0.05.
 * - p of the pooled difference: the median of the replicates' p (what a typical batch shows).
 *
 * A statistic undefined in a replicate is left out of its mean; the interval is null when
 * no replicate defined it, or when one that defined it had no interval.
 */

export const POWER_ALPHA = 0.05;
const Z = 1.959963984540054;
const STATISTICS = ['balancedAccuracy', 'kappa', 'secondsPerItem'] as const;
type Statistic = (typeof STATISTICS)[number];

/** Per statistic: the share of replicates with p < 0.05 (null when no replicate had a test), and how many had one. */
export type Power = Record<Statistic, { share: number | null; tested: number; significant: number }>;
/** Per statistic: in how many replicates the debate arm's value was higher, lower, or not defined. */
export type Directions = Record<Statistic, { higher: number; lower: number; equal: number; undefined: number }>;

export interface PooledExperiment {
  experiment: ExperimentSummary;
  power: Power;
  directions: Directions;
  replicates: number;
}

const ARM_RANGE: Record<Statistic, [number, number]> = {
  balancedAccuracy: [0, 1],
  kappa: [-1, 1],
  secondsPerItem: [0, Number.POSITIVE_INFINITY],
};
const DIFFERENCE_RANGE: Record<Statistic, [number, number]> = {
  balancedAccuracy: [-1, 1],
  kappa: [-2, 2],
  secondsPerItem: [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
};

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Rubin's rules over the replicates' estimates of one statistic (see the module's comment). */
export function poolEstimates(estimates: readonly Estimate[], range: readonly [number, number]): Estimate {
  const defined = estimates.filter((e): e is Estimate & { value: number } => e.value !== null);
  if (defined.length === 0) return { value: null, low: null, high: null };
  const value = mean(defined.map((e) => e.value));
  if (defined.some((e) => e.low === null || e.high === null)) return { value, low: null, high: null };
  const n = defined.length;
  const within = mean(defined.map((e) => ((e.high! - e.low!) / (2 * Z)) ** 2));
  const between = n > 1 ? defined.reduce((s, e) => s + (e.value - value) ** 2, 0) / (n - 1) : 0;
  const half = Z * Math.sqrt(within + (1 + 1 / n) * between);
  return { value, low: Math.max(range[0], value - half), high: Math.min(range[1], value + half) };
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

export function poolExperiments(summaries: readonly ExperimentSummary[]): PooledExperiment {
  const n = summaries.length;
  if (n === 0) throw new RangeError('poolExperiments: no replicate to pool; simulate at least one (--replicates 1 or more)');
  const test =
    `${n} simulated ${n === 1 ? 'batch' : 'batches'}: value the mean, 95% interval for one batch by Rubin's rules ` +
    `(within-batch bootstrap variance + (1 + 1/${n}) x between-batch variance), p the median of the batches' ` +
    `(${summaries[0]!.difference.kappa.test})`;
  const arms: ArmSummary[] = ARM_NAMES.map((arm) => {
    const of = summaries.map((s) => {
      const a = s.arms.find((x) => x.arm === arm);
      if (!a) throw new RangeError(`poolExperiments: a replicate has no ${arm} arm; pool compareArms summaries only`);
      return a;
    });
    const pooled = (s: Statistic) =>
      poolEstimates(
        of.map((a) => a[s]),
        ARM_RANGE[s],
      );
    return {
      arm,
      workers: round1(mean(of.map((a) => a.workers))),
      items: round1(mean(of.map((a) => a.items))),
      balancedAccuracy: pooled('balancedAccuracy'),
      kappa: pooled('kappa'),
      secondsPerItem: pooled('secondsPerItem'),
    };
  });
  const difference = (s: Statistic): Difference => ({
    ...poolEstimates(
      summaries.map((x) => x.difference[s]),
      DIFFERENCE_RANGE[s],
    ),
    p: median(summaries.flatMap((x) => (x.difference[s].p === null ? [] : [x.difference[s].p!]))),
    test,
  });
  const powerOf = (s: Statistic) => {
    const ps = summaries.flatMap((x) => (x.difference[s].p === null ? [] : [x.difference[s].p!]));
    const significant = ps.filter((p) => p < POWER_ALPHA).length;
    return { share: ps.length === 0 ? null : significant / ps.length, tested: ps.length, significant };
  };
  const directionOf = (s: Statistic) => {
    const out = { higher: 0, lower: 0, equal: 0, undefined: 0 };
    for (const x of summaries) {
      const d = x.difference[s].value;
      if (d === null) out.undefined++;
      else if (d > 0) out.higher++;
      else if (d < 0) out.lower++;
      else out.equal++;
    }
    return out;
  };
  return {
    experiment: {
      factor: 'debate',
      design: 'between-subjects',
      arms,
      difference: {
        balancedAccuracy: difference('balancedAccuracy'),
        kappa: difference('kappa'),
        secondsPerItem: difference('secondsPerItem'),
      },
    },
    power: { balancedAccuracy: powerOf('balancedAccuracy'), kappa: powerOf('kappa'), secondsPerItem: powerOf('secondsPerItem') },
    directions: {
      balancedAccuracy: directionOf('balancedAccuracy'),
      kappa: directionOf('kappa'),
      secondsPerItem: directionOf('secondsPerItem'),
    },
    replicates: n,
  };
}

const NAMES: Record<Statistic, string> = { balancedAccuracy: 'balanced accuracy', kappa: 'Fleiss κ', secondsPerItem: 'seconds per item' };

/** Two lines: the power per statistic and the directions over the replicates. */
export function renderPower(p: PooledExperiment): string {
  const power = STATISTICS.map((s) => {
    const { tested, significant } = p.power[s];
    return `${NAMES[s]} ${significant}/${tested}`;
  }).join(', ');
  const directions = STATISTICS.map((s) => {
    const d = p.directions[s];
    return `${NAMES[s]} ${d.higher} higher, ${d.lower} lower${d.equal > 0 ? `, ${d.equal} equal` : ''}${d.undefined > 0 ? `, ${d.undefined} n/a` : ''}`;
  }).join('; ');
  return [
    `power: of ${p.replicates} simulated batches, the test found the difference (p < ${POWER_ALPHA}) in ${power}`,
    `direction (debate vs no-debate, per simulated batch): ${directions}`,
    '',
  ].join('\n');
}
