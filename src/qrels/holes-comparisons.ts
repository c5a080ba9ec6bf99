import { MEAN_TIE_TOLERANCE, type EvaluationContext, type SystemEvaluation } from './evaluate.js';
import { labelsToSettle, SETTLED_BELOW, type SettleLabel } from './settle.js';
import {
  labelInterval,
  SIGNIFICANCE_LEVEL,
  subSeed,
  type PairSignificance,
  type SignificanceOptions,
  type SignificanceReport,
} from './significance.js';
import { bootstrapMeans, percentileInterval, type Interval } from './statistics.js';

/**
 * The comparisons the holes changed, and whether the labels' doubt settles them (pure;
 * the report's "Did the holes matter?", docs/evaluation.md, "Which comparisons the holes changed"): every pair of runs whose order
 * or significance (Holm p < 0.05) differs between the base and the adjudicated qrels, with
 * the difference after, its 95% interval over queries and with the labels' doubt (the
 * construction of `evaluate --posterior`'s `withLabels`, docs/evaluation.md), its pFlip,
 * a verdict, and for those that depend on the labels, how many labels re-judged would
 * settle them (src/qrels/settle.ts) and what that costs at the batch's cost per label.
 */

export type LabelVerdict = 'settled' | 'depends on the labels';

/** At most this many of the labels to re-judge are named per comparison (the count is whole). */
export const NAMED_LABELS = 10;

export interface LabelToRejudge {
  query: string;
  doc: string;
  /** p_relevant of the label, and its grade in the adjudicated qrels. */
  p: number;
  grade: number;
}

export interface SettleEstimate {
  /** Labels to re-judge so that the expected remaining doubt is below 5%. */
  labels: number;
  /** labels × the batch's cost per label, in cents; null when the batch has no cost per label. */
  cost: number | null;
  remainingDoubt: number;
  /** The first-order model's doubt before any re-judgment (beside the draws' pFlip). */
  doubtNow: number;
  /** The most influential of them, first. */
  first: LabelToRejudge[];
}

export interface ChangedComparison {
  /** Ahead after the adjudication, and the run it is compared with. */
  above: string;
  below: string;
  orderChanged: boolean;
  significantBefore: boolean;
  significantAfter: boolean;
  /** mean(above) − mean(below) under the base and the adjudicated qrels. */
  differenceBefore: number;
  difference: number;
  /** 95% bootstrap interval of `difference` over queries; null without samples. */
  interval: Interval | null;
  /** The same carrying the labels' doubt too; null without label posteriors. */
  withLabels: Interval | null;
  /** Share of label draws that turn the sign of `difference`; null without label posteriors. */
  pFlip: number | null;
  /** `settled` when pFlip is below 5%; null without label posteriors. */
  verdict: LabelVerdict | null;
  /** With the verdict `depends on the labels` only. */
  settle: SettleEstimate | null;
}

export interface ComparisonsInput {
  ctx: EvaluationContext;
  evaluations: readonly SystemEvaluation[];
  significance: SignificanceReport;
  options: SignificanceOptions;
  measure: string;
  /** The batch's cost per adjudicated label, in cents; null when unknown. */
  costPerLabel: number | null;
}

const signOf = (v: number) => (Math.abs(v) <= MEAN_TIE_TOLERANCE ? 0 : Math.sign(v));
const significant = (p: PairSignificance) => p.pHolm !== null && p.pHolm < SIGNIFICANCE_LEVEL;

/** The difference's intervals: over queries, and with the labels' doubt (when both runs carry label shifts). */
function differenceIntervals(
  input: ComparisonsInput,
  a: SystemEvaluation,
  b: SystemEvaluation,
  difference: number,
): { interval: Interval | null; withLabels: Interval | null } {
  const { ctx, options, measure } = input;
  const va = a.values[measure]!.new;
  const vb = b.values[measure]!.new;
  const column = Float64Array.from(va, (v, i) => v - vb[i]!);
  // the evaluation's own bootstrap resamples (same seed): the intervals go with the runs' own
  const replicates = options.samples > 0 && column.length > 0 ? bootstrapMeans([column], options.samples, subSeed(options.seed, -1)) : [];
  const interval = replicates.length === 0 ? null : percentileInterval(replicates.map((r) => r[0]!));
  const [sa, sb] = [a.labelShifts?.[measure], b.labelShifts?.[measure]];
  const labels = ctx.labels;
  if (!interval || !sa || !sb || !labels) return { interval, withLabels: null };
  const joint = percentileInterval(replicates.map((r, s) => r[0]! + (sa.resampled[s]! - sb.resampled[s]!) / labels.newRows[s]!));
  const alone = percentileInterval(Float64Array.from(sa.fixed, (v, d) => difference + (v - sb.fixed[d]!) / labels.newQueries));
  return { interval, withLabels: labelInterval(difference, interval, joint, alone) };
}

/** The estimate for one comparison; the labels it names are added to `union` (as JSON [query, doc]). */
function settleEstimate(
  input: ComparisonsInput,
  a: SystemEvaluation,
  b: SystemEvaluation,
  difference: number,
  seed: number,
  union: Set<string>,
): SettleEstimate | null {
  const labels = input.ctx.labels;
  const [ea, eb] = [a.labelEffects?.[input.measure], b.labelEffects?.[input.measure]];
  if (!labels || !ea || !eb) return null;
  const queries = labels.newQueries;
  const pairs: Array<SettleLabel & LabelToRejudge> = [];
  for (const q of labels.queries) {
    q.docs.forEach((doc, j) => {
      const grade = q.grades.get(doc)!;
      pairs.push({
        query: input.ctx.queryIds[q.index]!,
        doc,
        p: q.p[j]!,
        grade,
        relevant: grade >= 1,
        effect: (ea[q.offset + j]! - eb[q.offset + j]!) / queries,
      });
    });
  }
  const result = labelsToSettle({ difference, labels: pairs, seed, atLeastOne: true });
  for (const j of result.labels) union.add(JSON.stringify([pairs[j]!.query, pairs[j]!.doc]));
  return {
    labels: result.labels.length,
    cost: input.costPerLabel === null ? null : result.labels.length * input.costPerLabel,
    remainingDoubt: result.remainingDoubt,
    doubtNow: result.doubtNow,
    first: result.labels.slice(0, NAMED_LABELS).map((j) => {
      const { query, doc, p, grade } = pairs[j]!;
      return { query, doc, p, grade };
    }),
  };
}

export interface ChangedComparisons {
  comparisons: ChangedComparison[];
  /** The labels that settle every comparison that depends on them (each counted once), and their cost in cents (null when unknown). */
  toSettle: { labels: number; cost: number | null };
}

export function changedComparisons(input: ComparisonsInput): ChangedComparisons {
  const { measure, significance } = input;
  const byName = new Map(input.evaluations.map((e) => [e.system, e]));
  const before = new Map(
    significance.significance.filter((p) => p.measure === measure && p.qrels === 'base').map((p) => [`${p.a}\n${p.b}`, p]),
  );
  const out: ChangedComparison[] = [];
  const union = new Set<string>();
  significance.significance.forEach((after, index) => {
    if (after.measure !== measure || after.qrels !== 'new') return;
    const base = before.get(`${after.a}\n${after.b}`);
    if (!base) return;
    const orderChanged = signOf(base.meanDifference) !== signOf(after.meanDifference);
    const [significantBefore, significantAfter] = [significant(base), significant(after)];
    if (!orderChanged && significantBefore === significantAfter) return;
    // oriented so that the difference after is ≥ 0
    const flip = signOf(after.meanDifference) < 0;
    const [above, below] = flip ? [after.b, after.a] : [after.a, after.b];
    const sign = flip ? -1 : 1;
    const difference = sign * after.meanDifference;
    const [ea, eb] = [byName.get(above)!, byName.get(below)!];
    const pFlip = after.pFlip ?? null;
    const verdict: LabelVerdict | null = pFlip === null ? null : pFlip < SETTLED_BELOW ? 'settled' : 'depends on the labels';
    out.push({
      above,
      below,
      orderChanged,
      significantBefore,
      significantAfter,
      differenceBefore: sign * base.meanDifference,
      difference,
      ...differenceIntervals(input, ea, eb, difference),
      pFlip,
      verdict,
      settle:
        verdict === 'depends on the labels'
          ? settleEstimate(input, ea, eb, difference, subSeed(input.options.seed, -3 - index), union)
          : null,
    });
  });
  return {
    comparisons: out,
    toSettle: { labels: union.size, cost: input.costPerLabel === null ? null : union.size * input.costPerLabel },
  };
}
