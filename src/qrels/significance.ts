import { kendallTauAP, kendallTauB } from './kendall.js';
import { isPairMeasure } from './measure-names.js';
import { MEAN_TIE_TOLERANCE, type EvaluationContext, type SystemEvaluation } from './evaluate.js';
import type { LabelShift } from './label-draws.js';
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

/** The level below which a (Holm-adjusted) p says a difference is significant. */
export const SIGNIFICANCE_LEVEL = 0.05;

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
  /** New qrels with `--posterior`: the share of label draws (queries as they are) that give the difference the other sign. */
  pFlip?: number;
}

export interface MeanInterval {
  system: string;
  measure: string;
  qrels: QrelsSide;
  mean: number;
  /** 95% bootstrap percentile interval; null without samples. */
  low: number | null;
  high: number | null;
  /** New qrels with `--posterior`: 95% interval carrying the queries' sampling and the labels' doubt (docs/evaluation.md). */
  withLabels?: Interval | null;
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
  /** With `--posterior`: the same, the new means also under the label draws. */
  withLabels?: { kendallTau: Interval | null; kendallTauAP: Interval | null };
}

export interface SignificanceReport {
  significance: PairSignificance[];
  intervals: MeanInterval[];
  changes: ChangeInterval[];
  rankCorrelation: RankCorrelationIntervals[];
}

/** A seed per test, so that each test's draws do not depend on the others. */
export const subSeed = (seed: number, index: number) => (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;

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
      const shifts = qrels === 'new' ? evaluations.map((e) => e.labelShifts?.[measure.id]) : [];
      for (let i = 0; i < evaluations.length; i++) {
        for (let j = i + 1; j < evaluations.length; j++) {
          const a = columns[i]!;
          const b = columns[j]!;
          const meanDifference = meanOf(a) - meanOf(b);
          const [sa, sb] = [shifts[i], shifts[j]];
          family.push({
            measure: measure.id,
            qrels,
            a: evaluations[i]!.system,
            b: evaluations[j]!.system,
            meanDifference,
            tTest: pairedTTest(a, b),
            randomization: { p: randomization ? randomization[pair]! : null },
            pHolm: null,
            ...(sa && sb && { pFlip: flipShare(meanDifference, sa.fixed, sb.fixed, rows.length) }),
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

const signOf = (v: number) => (Math.abs(v) <= MEAN_TIE_TOLERANCE ? 0 : Math.sign(v));

/** The share of label draws in which a − b has another sign than `difference` (ties are a sign of their own). */
export function flipShare(difference: number, a: Float64Array, b: Float64Array, queries: number): number {
  if (a.length === 0 || queries === 0) return 0;
  const sign = signOf(difference);
  let flips = 0;
  for (let d = 0; d < a.length; d++) if (signOf(difference + (a[d]! - b[d]!) / queries) !== sign) flips++;
  return flips / a.length;
}

/**
 * The interval that carries both doubts: the query-only interval widened on each side by
 * how far the labels alone can move the mean: the farther end of the 95% interval of the
 * label draws (queries as they are) from the measured mean; and never narrower than the joint bootstrap of queries and labels. It contains the
 * query-only interval, so it never covers less; the widening is symmetric because label
 * errors correlate with system quality in a direction the draws cannot see: a strong
 * system's draws centre below its measured mean while its true mean lies above
 * (docs/evaluation.md, "The labels' doubt").
 */
export function labelInterval(mean: number, query: Interval, joint: Interval | null, labelsAlone: Interval | null): Interval {
  // the far end of the draws from the measured mean: their half-width plus their centre's shift
  const reach = labelsAlone ? Math.max(0, mean - labelsAlone.low, labelsAlone.high - mean) : 0;
  return {
    low: Math.min(query.low - reach, joint?.low ?? Infinity),
    high: Math.max(query.high + reach, joint?.high ?? -Infinity),
  };
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
  const interval = (statistic: (r: Float64Array, b: number) => number) =>
    replicates.length === 0 ? null : percentileInterval(replicates.map(statistic));
  const labels = ctx.labels;
  const withLabels = (mean: number, ci: Interval, joint: (r: Float64Array, b: number) => number, shift: LabelShift) =>
    labelInterval(mean, ci, interval(joint), percentileInterval(Float64Array.from(shift.fixed, (v) => mean + v / labels!.newQueries)));

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
        const shift = side === 1 ? e.labelShifts?.[measure.id] : undefined;
        intervals.push({
          system: e.system,
          measure: measure.id,
          qrels,
          mean,
          low: ci?.low ?? null,
          high: ci?.high ?? null,
          ...(shift &&
            labels && {
              withLabels: ci && withLabels(mean, ci, (r, b) => r[column(m, s, 1)]! + shift.resampled[b]! / labels.newRows[b]!, shift),
            }),
        });
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
      const shifts = evaluations.map((e) => e.labelShifts?.[measure.id]);
      const orders = (r: Float64Array, b: number, drawn: boolean) => {
        const base = evaluations.map((_, s) => r[column(m, s, 0)]!);
        const next = evaluations.map((_, s) => r[column(m, s, 1)]! + (drawn ? shifts[s]!.resampled[b]! / labels!.newRows[b]! : 0));
        return { base, next, defined: [...base, ...next].every((v) => !Number.isNaN(v)) };
      };
      const tau =
        (f: typeof kendallTauB, drawn = false) =>
        (r: Float64Array, b: number) => {
          const { base, next, defined } = orders(r, b, drawn);
          return defined ? (f(base, next, MEAN_TIE_TOLERANCE) ?? NaN) : NaN;
        };
      const kendallTau = interval(tau(kendallTauB));
      const kendallTauAPInterval = interval(tau(kendallTauAP));
      // τ has no label-only spread to add: its joint interval is joined with the query-only one, so it is never narrower
      const joined = (query: Interval | null, joint: Interval | null) =>
        query && joint ? { low: Math.min(query.low, joint.low), high: Math.max(query.high, joint.high) } : query;
      rankCorrelation.push({
        measure: measure.id,
        kendallTau,
        kendallTauAP: kendallTauAPInterval,
        ...(labels &&
          shifts.every((x) => x !== undefined) && {
            withLabels: {
              kendallTau: joined(kendallTau, interval(tau(kendallTauB, true))),
              kendallTauAP: joined(kendallTauAPInterval, interval(tau(kendallTauAP, true))),
            },
          }),
      });
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
