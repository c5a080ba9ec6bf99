import { kendallTauAP, kendallTauB } from './kendall.js';
import { isPairMeasure } from './measure-names.js';
import { MEAN_TIE_TOLERANCE, type EvaluationContext, type SystemEvaluation } from './evaluate.js';
import {
  bootstrapMeans,
  holm,
  meanOf,
  pairedTTest,
  percentileInterval,
  randomizationTests,
  type Interval,
  type TTestResult,
} from './statistics.js';

/**
 * Significance and intervals for an evaluation (pure; the statistics are in
 * statistics.ts):
 * - for every measure and qrels, every pair of systems (a before b in the order given):
 *   the paired t-test and the paired randomization test over the qrels' queries, and the
 *   t-test's p adjusted by Holm over the pairs of that measure and qrels;
 * - bootstrap 95% percentile intervals of every system's mean per measure and qrels, of
 *   the change of each mean (new − base), and of Kendall's τ-b and τ_AP between the base
 *   and new orders of the systems. The bootstrap resamples the queries of both qrels
 *   together (paired), so one resample gives every statistic.
 * Every random draw is seeded from `seed`, so the output is reproducible.
 */

export type QrelsSide = 'base' | 'new';

export interface SignificanceOptions {
  /** Randomization test trials per pair (0: skip the test, p null). */
  trials: number;
  /** Bootstrap samples (0: no intervals). */
  samples: number;
  seed: number;
}

export const DEFAULT_SIGNIFICANCE: SignificanceOptions = { trials: 10_000, samples: 1_000, seed: 1 };

export interface PairSignificance {
  measure: string;
  qrels: QrelsSide;
  a: string;
  b: string;
  /** mean(a) − mean(b) over the qrels' queries. */
  meanDifference: number;
  tTest: TTestResult;
  randomization: { p: number | null };
  /** Holm-adjusted t-test p over the pairs of this measure and qrels. */
  pHolm: number | null;
}

export interface MeanInterval {
  system: string;
  measure: string;
  qrels: QrelsSide;
  mean: number;
  /** 95% bootstrap percentile interval; null without samples. */
  low: number | null;
  high: number | null;
}

export interface ChangeInterval {
  system: string;
  measure: string;
  /** new − base of the system's mean. */
  difference: number;
  interval: Interval | null;
}

export interface RankCorrelationIntervals {
  measure: string;
  kendallTau: Interval | null;
  kendallTauAP: Interval | null;
}

export interface SignificanceReport {
  significance: PairSignificance[];
  intervals: MeanInterval[];
  changes: ChangeInterval[];
  rankCorrelation: RankCorrelationIntervals[];
}

/** A seed per test, so that each test's draws do not depend on the others. */
const subSeed = (seed: number, index: number) => (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;

function definedRows(values: Float64Array): number[] {
  const rows: number[] = [];
  values.forEach((v, i) => {
    if (!Number.isNaN(v)) rows.push(i);
  });
  return rows;
}

const pick = (values: Float64Array, rows: readonly number[]) => Float64Array.from(rows, (r) => values[r]!);

export function pairSignificance(
  ctx: EvaluationContext,
  evaluations: readonly SystemEvaluation[],
  options: SignificanceOptions,
): PairSignificance[] {
  const out: PairSignificance[] = [];
  let index = 0;
  for (const measure of ctx.measures) {
    const sides: QrelsSide[] = isPairMeasure(measure) ? ['new'] : ['base', 'new'];
    for (const qrels of sides) {
      const family: PairSignificance[] = [];
      const first = evaluations[0]?.values[measure.id]?.[qrels];
      const rows = first ? definedRows(first) : [];
      const columns = evaluations.map((e) => pick(e.values[measure.id]![qrels]!, rows));
      const randomization = options.trials > 0 ? randomizationTests(columns, options.trials, subSeed(options.seed, index)) : null;
      index++;
      let pair = 0;
      for (let i = 0; i < evaluations.length; i++) {
        for (let j = i + 1; j < evaluations.length; j++) {
          const a = columns[i]!;
          const b = columns[j]!;
          family.push({
            measure: measure.id,
            qrels,
            a: evaluations[i]!.system,
            b: evaluations[j]!.system,
            meanDifference: meanOf(a) - meanOf(b),
            tTest: pairedTTest(a, b),
            randomization: { p: randomization ? randomization[pair]! : null },
            pHolm: null,
          });
          pair++;
        }
      }
      holm(family.map((f) => f.tTest.p)).forEach((p, k) => (family[k]!.pHolm = p));
      out.push(...family);
    }
  }
  return out;
}

export function bootstrapIntervals(
  ctx: EvaluationContext,
  evaluations: readonly SystemEvaluation[],
  options: SignificanceOptions,
): Omit<SignificanceReport, 'significance'> {
  // columns: per measure, per system, base then new (base NaN everywhere for Hole@k)
  const columns: Float64Array[] = [];
  const empty = new Float64Array(ctx.queryIds.length).fill(NaN);
  const column = (m: number, s: number, side: 0 | 1) => (m * evaluations.length + s) * 2 + side;
  ctx.measures.forEach((measure) => {
    for (const e of evaluations) {
      const v = e.values[measure.id]!;
      columns.push(v.base ?? empty, v.new);
    }
  });
  const replicates =
    options.samples > 0 && ctx.queryIds.length > 0 ? bootstrapMeans(columns, options.samples, subSeed(options.seed, -1)) : [];
  const interval = (statistic: (r: Float64Array) => number) =>
    replicates.length === 0 ? null : percentileInterval(replicates.map(statistic));

  const intervals: MeanInterval[] = [];
  const changes: ChangeInterval[] = [];
  const rankCorrelation: RankCorrelationIntervals[] = [];
  ctx.measures.forEach((measure, m) => {
    const pair = isPairMeasure(measure);
    evaluations.forEach((e, s) => {
      const means = e.means[measure.id]!;
      for (const [side, qrels] of [
        [0, 'base'],
        [1, 'new'],
      ] as const) {
        const mean = side === 0 ? means.base : means.new;
        if (mean === null) continue;
        const ci = interval((r) => r[column(m, s, side)]!);
        intervals.push({ system: e.system, measure: measure.id, qrels, mean, low: ci?.low ?? null, high: ci?.high ?? null });
      }
      if (!pair && means.base !== null) {
        changes.push({
          system: e.system,
          measure: measure.id,
          difference: means.new - means.base,
          interval: interval((r) => r[column(m, s, 1)]! - r[column(m, s, 0)]!),
        });
      }
    });
    if (!pair) {
      const orders = (r: Float64Array) => {
        const base = evaluations.map((_, s) => r[column(m, s, 0)]!);
        const next = evaluations.map((_, s) => r[column(m, s, 1)]!);
        return { base, next, defined: [...base, ...next].every((v) => !Number.isNaN(v)) };
      };
      const tau = (f: typeof kendallTauB) => (r: Float64Array) => {
        const { base, next, defined } = orders(r);
        return defined ? (f(base, next, MEAN_TIE_TOLERANCE) ?? NaN) : NaN;
      };
      rankCorrelation.push({ measure: measure.id, kendallTau: interval(tau(kendallTauB)), kendallTauAP: interval(tau(kendallTauAP)) });
    }
  });
  return { intervals, changes, rankCorrelation };
}

export function significanceReport(
  ctx: EvaluationContext,
  evaluations: readonly SystemEvaluation[],
  options: SignificanceOptions = DEFAULT_SIGNIFICANCE,
): SignificanceReport {
  return { significance: pairSignificance(ctx, evaluations, options), ...bootstrapIntervals(ctx, evaluations, options) };
}
