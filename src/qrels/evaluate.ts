import { compareIds } from './ids.js';
import { labelEffects, labelShifts, type DoubtfulQuery, type LabelDraws, type LabelShift } from './label-draws.js';
import { competitionRanks, kendallTauAP, kendallTauB } from './kendall.js';
import {
  isPairMeasure,
  lexicalOrder,
  measureQuery,
  prepareQrels,
  type Measure,
  type PreparedQrels,
  type QueryContext,
  type QueryJudgments,
} from './measures.js';
import type { Qrels, RankedDoc, Run } from './types.js';

/**
 * Evaluating systems under the base and the new qrels (pure).
 *
 * Queries averaged, as ir_measures does (and trec_eval -c): every query of the qrels
 * evaluated, i.e. with at least one judgment of any grade (−1 included). A query the
 * run lacks scores 0 on every measure; a query without relevant documents scores 0 on
 * every measure but Judged@k; run queries without judgments are ignored. Hole@k averages
 * over the queries of the new qrels. Plain trec_eval (without -c) would average only over
 * the queries both in the run and in the qrels.
 *
 * Per measure, systems are ranked by mean, best first, tied means sharing a rank
 * (competition ranking); `rankChange` = base rank − new rank (positive: moved up);
 * Kendall's τ-b and τ_AP compare the two orders of the systems' means. Means closer
 * than {@link MEAN_TIE_TOLERANCE} count as tied: summing per-query values in floating
 * point makes mathematically equal means differ in the last bits (0.1 + 0.2 ≠ 0.3).
 *
 * Per-query values are kept in Float64Arrays over one sorted list of query ids (the
 * union of both qrels), NaN where a query is not in that qrels: a few bytes per value,
 * where objects keyed by query id would cost ten times more for large runs.
 */

export const MEAN_TIE_TOLERANCE = 1e-10;

export interface SystemInput {
  name: string;
  run: Run;
}

export interface EvaluationInput {
  base: Qrels;
  next: Qrels;
  systems: readonly SystemInput[];
  measures: readonly Measure[];
  /** Relevance level of the binary measures without rel=N (`--rel-level`); default 1. */
  relLevel?: number;
}

export interface SystemScore {
  system: string;
  /** Mean under the base qrels; null for measures of the pair (Hole@k). */
  base: number | null;
  /** Mean under the new qrels (for Hole@k, its one value). */
  new: number;
  rankBase: number | null;
  rankNew: number;
  /** rankBase − rankNew: positive when the system moved up; null without a base rank. */
  rankChange: number | null;
}

export interface MeasureResult {
  measure: string;
  /** Number of queries averaged under each qrels. */
  queries: { base: number | null; new: number };
  systems: SystemScore[];
  /** τ-b between the base and the new order of the systems; null when undefined. */
  kendallTau: number | null;
  /** τ_AP of the base order against the new (adjudicated) one; null when undefined. */
  kendallTauAP: number | null;
}

export type PerQuery = Record<string, number>;

export interface SystemPerQuery {
  system: string;
  /** measure -> qrels -> query id -> value; `base` is null for Hole@k. */
  measures: Record<string, { base: PerQuery | null; new: PerQuery }>;
}

export interface EvaluationReport {
  measures: MeasureResult[];
  /** Built from the evaluations' arrays on first read. */
  readonly perQuery: SystemPerQuery[];
}

const NO_RANKING: readonly RankedDoc[] = [];

/** The qrels, prepared once, and the measures: what evaluating each system needs. */
export interface EvaluationContext {
  base: PreparedQrels;
  next: PreparedQrels;
  /** Every query id of either qrels, sorted: the index of the per-query arrays. */
  queryIds: string[];
  measures: readonly Measure[];
  relLevel: number;
  /** Draws of the new qrels' labels in doubt (`--posterior`); absent: labels taken as given. */
  labels?: LabelDraws;
  /** With `labels`: also each label's effect alone, per run (the report's labels to settle a comparison). */
  labelEffects?: boolean;
}

/** Per-query values over `EvaluationContext.queryIds`, NaN for queries not in that qrels. */
export interface MeasureValues {
  base: Float64Array | null;
  new: Float64Array;
}

/** One system's per-query values and means, for every measure. */
export interface SystemEvaluation {
  system: string;
  means: Record<string, { base: number | null; new: number }>;
  values: Record<string, MeasureValues>;
  /** Per measure, what the label draws change in the sum of the new values (with `ctx.labels` only). */
  labelShifts?: Record<string, LabelShift>;
  /** Per measure, per pair in doubt, the value change on its query when that label alone flips (with `ctx.labelEffects`). */
  labelEffects?: Record<string, Float64Array>;
}

export function evaluationContext(base: Qrels, next: Qrels, measures: readonly Measure[], relLevel = 1): EvaluationContext {
  const queryIds = [...new Set([...base.keys(), ...next.keys()])].sort(compareIds);
  return { base: prepareQrels(base), next: prepareQrels(next), queryIds, measures, relLevel };
}

/** Mean of the defined (non-NaN) values, in query id order so that the sum is reproducible. */
export function definedMean(values: Float64Array): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (Number.isNaN(v)) continue;
    sum += v;
    n++;
  }
  return n === 0 ? 0 : sum / n;
}

/**
 * Evaluates one system, query by query (each ranking is put in ir_measures' own order
 * at most once); the run can be dropped afterwards, so the CLI holds one run at a time.
 */
export function evaluateSystem(ctx: EvaluationContext, system: SystemInput): SystemEvaluation {
  const n = ctx.queryIds.length;
  const values: Record<string, MeasureValues> = {};
  for (const m of ctx.measures)
    values[m.id] = { base: isPairMeasure(m) ? null : new Float64Array(n).fill(NaN), new: new Float64Array(n).fill(NaN) };
  ctx.queryIds.forEach((qid, i) => {
    const ranking = system.run.get(qid) ?? NO_RANKING;
    let lexical: RankedDoc[] | undefined;
    const baseJudgments = ctx.base.get(qid);
    const nextJudgments = ctx.next.get(qid);
    for (const m of ctx.measures) {
      if ((m.name === 'Judged' || (m.name === 'RR' && m.cutoff !== null)) && !lexical) lexical = [...ranking].sort(lexicalOrder);
      const options = { relLevel: ctx.relLevel, ...(lexical && { lexical }) };
      const target = values[m.id]!;
      if (nextJudgments) target.new[i] = measureQuery(m, ranking, nextJudgments, { ...options, base: baseJudgments });
      if (target.base && baseJudgments) target.base[i] = measureQuery(m, ranking, baseJudgments, options);
    }
  });
  const means: SystemEvaluation['means'] = {};
  for (const m of ctx.measures) {
    const v = values[m.id]!;
    means[m.id] = { base: v.base && definedMean(v.base), new: definedMean(v.new) };
  }
  if (!ctx.labels) return { system: system.name, means, values };
  // a query's draws come one after another: its ranking and lexical order are sorted once for all of them
  let query: { index: number; ranking: readonly RankedDoc[]; options: QueryContext } | undefined;
  const current = (m: number, i: number) => values[ctx.measures[m]!.id]!.new[i]!;
  const valuesUnder = (q: DoubtfulQuery, judgments: QueryJudgments) => {
    if (query?.index !== q.index) {
      const qid = ctx.queryIds[q.index]!;
      const ranking = system.run.get(qid) ?? NO_RANKING;
      query = {
        index: q.index,
        ranking,
        options: { relLevel: ctx.relLevel, lexical: [...ranking].sort(lexicalOrder), base: ctx.base.get(qid) },
      };
    }
    const { ranking, options } = query;
    return ctx.measures.map((m) => measureQuery(m, ranking, judgments, options));
  };
  const byMeasure = <T>(list: readonly T[]) => Object.fromEntries(ctx.measures.map((m, i) => [m.id, list[i]!]));
  const shifts = labelShifts(ctx.labels, ctx.measures.length, current, valuesUnder);
  return {
    system: system.name,
    means,
    values,
    labelShifts: byMeasure(shifts),
    ...(ctx.labelEffects && { labelEffects: byMeasure(labelEffects(ctx.labels, ctx.measures.length, current, valuesUnder)) }),
  };
}

function records(queryIds: readonly string[], values: Float64Array): PerQuery {
  const out: PerQuery = {};
  queryIds.forEach((qid, i) => {
    // defineProperty: a query id such as "__proto__" stays a plain key
    if (!Number.isNaN(values[i]!))
      Object.defineProperty(out, qid, { value: values[i], enumerable: true, writable: true, configurable: true });
  });
  return out;
}

/** The per-query values as objects keyed by query id (the `--json` document's `perQuery`). */
export function perQueryRecords(ctx: EvaluationContext, evaluations: readonly SystemEvaluation[]): SystemPerQuery[] {
  return evaluations.map((e) => ({
    system: e.system,
    measures: Object.fromEntries(
      ctx.measures.map((m) => {
        const v = e.values[m.id]!;
        return [m.id, { base: v.base && records(ctx.queryIds, v.base), new: records(ctx.queryIds, v.new) }];
      }),
    ),
  }));
}

/** Ranks the evaluated systems per measure, before and after, and compares the orders. */
export function compareSystems(ctx: EvaluationContext, evaluations: readonly SystemEvaluation[]): EvaluationReport {
  const measures = ctx.measures.map((measure): MeasureResult => {
    const pair = isPairMeasure(measure);
    const means = evaluations.map((e) => e.means[measure.id]!);
    const rankNew = competitionRanks(
      means.map((m) => m.new),
      MEAN_TIE_TOLERANCE,
    );
    const rankBase = pair
      ? null
      : competitionRanks(
          means.map((m) => m.base!),
          MEAN_TIE_TOLERANCE,
        );
    const baseMeans = means.map((m) => m.base ?? 0);
    const newMeans = means.map((m) => m.new);
    return {
      measure: measure.id,
      queries: { base: pair ? null : ctx.base.size, new: ctx.next.size },
      systems: evaluations.map((e, i) => ({
        system: e.system,
        base: means[i]!.base,
        new: means[i]!.new,
        rankBase: rankBase ? rankBase[i]! : null,
        rankNew: rankNew[i]!,
        rankChange: rankBase ? rankBase[i]! - rankNew[i]! : null,
      })),
      kendallTau: pair ? null : kendallTauB(baseMeans, newMeans, MEAN_TIE_TOLERANCE),
      kendallTauAP: pair ? null : kendallTauAP(baseMeans, newMeans, MEAN_TIE_TOLERANCE),
    };
  });
  let perQuery: SystemPerQuery[] | undefined;
  return {
    measures,
    get perQuery() {
      perQuery ??= perQueryRecords(ctx, evaluations);
      return perQuery;
    },
  };
}

/** Evaluates all systems at once (when the runs are in memory anyway). */
export function evaluateSystems(input: EvaluationInput): EvaluationReport {
  const ctx = evaluationContext(input.base, input.next, input.measures, input.relLevel);
  return compareSystems(
    ctx,
    input.systems.map((s) => evaluateSystem(ctx, s)),
  );
}
