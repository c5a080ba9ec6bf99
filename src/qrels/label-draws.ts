import { UserError } from '../errors.js';
import { quote } from './ids.js';
import { InputLineError } from './input-error.js';
import type { QueryJudgments } from './measures.js';
import { resampleRows, seededRandom } from './statistics.js';
import type { Qrels } from './types.js';

/**
 * The labels' doubt in an evaluation (`qrelay evaluate --posterior FILE`, pure; the
 * construction and its assumptions are in docs/evaluation.md, "The labels' doubt").
 *
 * Each pair of the new qrels whose `p_relevant` (export-qrels --posterior) leaves its
 * label in doubt is drawn relevant with probability p, once per draw, the same draws for
 * every run, so a draw is one plausible qrels. Per run and measure only the sum of the
 * value changes the draw makes is kept, twice: over the queries as they are (for pFlip
 * and the spread of the labels alone) and weighted by how often each query was drawn in
 * the bootstrap sample of the same index (for intervals that carry both).
 */

/** A JSON value as the file wrote it (undefined: the field is missing). */
const shownValue = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)));

/** Query id -> document id -> P(relevant), with the line that gave it. */
export type Posterior = Map<string, Map<string, { p: number; line: number }>>;

/** Reads `{"query_id", "doc_id", "p_relevant"}` lines (other fields ignored); errors name file, line and field. */
export class PosteriorParser {
  private readonly posterior: Posterior = new Map();

  constructor(private readonly file: string) {}

  addLine(text: string, line: number): void {
    if (text.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new InputLineError(this.file, line, 'not a JSON object; expected a JSONL record of export-qrels --posterior');
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record))
      throw new InputLineError(this.file, line, 'not a JSON object; expected a JSONL record of export-qrels --posterior');
    const r = record as Record<string, unknown>;
    for (const field of ['query_id', 'doc_id'] as const) {
      if (typeof r[field] !== 'string' || r[field] === '')
        throw new InputLineError(this.file, line, `${field}: expected a non-empty string, got ${shownValue(r[field])}`);
    }
    const p = r.p_relevant;
    if (typeof p !== 'number' || !(p >= 0 && p <= 1))
      throw new InputLineError(
        this.file,
        line,
        `p_relevant: expected a number from 0 to 1, got ${shownValue(p)} (export the qrels with --format jsonl --posterior)`,
      );
    const qid = r.query_id as string;
    const doc = r.doc_id as string;
    let docs = this.posterior.get(qid);
    if (!docs) this.posterior.set(qid, (docs = new Map()));
    const before = docs.get(doc);
    if (before && before.p !== p)
      throw new InputLineError(
        this.file,
        line,
        `p_relevant: query ${quote(qid)} document ${quote(doc)} has ${p} here and ${before.p} at line ${before.line}`,
      );
    if (!before) docs.set(doc, { p, line });
  }

  result(): Posterior {
    return this.posterior;
  }
}

/** A query with labels in doubt: its pairs, their probabilities and grades either way. */
export interface DoubtfulQuery {
  /** Index in the evaluation's query ids. */
  index: number;
  /** The new qrels' own map of the query's grades (changed only for the length of a measurement, {@link underDraw}). */
  grades: Map<string, number>;
  docs: string[];
  /** The grades the new qrels give its pairs. */
  given: Int32Array;
  p: Float64Array;
  /** The grade a pair takes when drawn relevant, and when drawn not relevant. */
  relevantGrade: Int32Array;
  notRelevantGrade: Int32Array;
  /** Offset of its pairs in a draw's row of {@link LabelDraws.relevant}. */
  offset: number;
}

export interface LabelDraws {
  draws: number;
  queries: DoubtfulQuery[];
  /** Pairs in doubt over all queries: a draw's row length. */
  pairs: number;
  /** 1 where pair j is relevant in draw d: `relevant[d * pairs + j]`. */
  relevant: Uint8Array;
  /** How often doubtful query u is in bootstrap sample d (`counts[d * queries + u]`); empty without samples. */
  counts: Uint32Array;
  /** Queries of the new qrels in bootstrap sample d, with multiplicity (a replicate mean's denominator). */
  newRows: Uint32Array;
  /** Queries of the new qrels. */
  newQueries: number;
}

export interface LabelDrawOptions {
  draws: number;
  seed: number;
  /** The bootstrap's samples and seed, so that label draw d goes with bootstrap sample d. */
  samples: number;
  resampleSeed: number;
}

/**
 * The draws of every pair whose label is in doubt: p strictly between 0 and 1, or a p
 * that contradicts the grade (a label the posterior always overturns is drawn so too).
 * A posterior pair that is not in the new qrels is an error naming its line.
 */
export function prepareLabelDraws(
  file: string,
  next: Qrels,
  posterior: Posterior,
  queryIds: readonly string[],
  options: LabelDrawOptions,
): LabelDraws {
  for (const [qid, docs] of posterior) {
    for (const [doc, { line }] of docs) {
      if (next.get(qid)?.get(doc) === undefined)
        throw new InputLineError(
          file,
          line,
          `query ${quote(qid)} document ${quote(doc)} is not in the new qrels; give the qrels it was exported with`,
        );
    }
  }
  const queries: DoubtfulQuery[] = [];
  let pairs = 0;
  queryIds.forEach((qid, index) => {
    const grades = next.get(qid);
    const docs = posterior.get(qid);
    if (!grades || !docs) return;
    const doubtful = [...docs].filter(([doc, { p }]) => (grades.get(doc)! >= 1 ? p < 1 : p > 0));
    if (doubtful.length === 0) return;
    const gradeOf = (doc: string) => grades.get(doc)!;
    queries.push({
      index,
      grades,
      docs: doubtful.map(([doc]) => doc),
      given: Int32Array.from(doubtful, ([doc]) => gradeOf(doc)),
      p: Float64Array.from(doubtful, ([, { p }]) => p),
      relevantGrade: Int32Array.from(doubtful, ([doc]) => Math.max(1, gradeOf(doc))),
      notRelevantGrade: Int32Array.from(doubtful, ([doc]) => Math.min(0, gradeOf(doc))),
      offset: pairs,
    });
    pairs += doubtful.length;
  });
  const relevant = drawLabels(
    queries.flatMap((q) => [...q.p]),
    options.draws,
    options.seed,
  );
  const inNext = Uint8Array.from(queryIds, (qid) => (next.has(qid) ? 1 : 0));
  const { counts, newRows } = resampleCounts(queries, inNext, options.samples, options.resampleSeed);
  return { draws: options.draws, queries, pairs, relevant, counts, newRows, newQueries: next.size };
}

/** Per draw, per pair: 1 (relevant) with probability p. p = 1 is always relevant, p = 0 never. */
export function drawLabels(p: readonly number[], draws: number, seed: number): Uint8Array {
  const random = seededRandom(seed);
  const out = new Uint8Array(draws * p.length);
  for (let d = 0; d < draws; d++) {
    for (let j = 0; j < p.length; j++) out[d * p.length + j] = random.next() < p[j]! ? 1 : 0;
  }
  return out;
}

/** The bootstrap's own resamples (statistics.ts, same seed), counted for the doubtful queries. */
function resampleCounts(
  queries: readonly DoubtfulQuery[],
  inNext: Uint8Array,
  samples: number,
  seed: number,
): { counts: Uint32Array; newRows: Uint32Array } {
  const n = inNext.length;
  const slot = new Int32Array(n).fill(-1);
  queries.forEach((q, u) => (slot[q.index] = u));
  const counts = new Uint32Array(samples * queries.length);
  const newRows = new Uint32Array(samples);
  const random = seededRandom(seed);
  const rows = new Uint32Array(n);
  for (let s = 0; s < samples; s++) {
    resampleRows(random, rows);
    for (let i = 0; i < n; i++) {
      const r = rows[i]!;
      newRows[s]! += inNext[r]!;
      const u = slot[r]!;
      if (u >= 0) counts[s * queries.length + u]!++;
    }
  }
  return { counts, newRows };
}

/** Per draw, the sum over queries of a measure's value change: as they are, and weighted by the bootstrap sample's counts. */
export interface LabelShift {
  fixed: Float64Array;
  resampled: Float64Array;
}

const drawnGrade = (q: DoubtfulQuery, draws: LabelDraws, d: number, j: number) =>
  draws.relevant[d * draws.pairs + q.offset + j] ? q.relevantGrade[j]! : q.notRelevantGrade[j]!;

/**
 * Which of a query's labels draw d changes: a bit mask (a number, allocating nothing, up to
 * 30 pairs in doubt) or the changed pairs' indices; 0 or '' when it changes none.
 */
function changedKey(q: DoubtfulQuery, draws: LabelDraws, d: number): number | string {
  if (q.docs.length <= 30) {
    let mask = 0;
    for (let j = 0; j < q.docs.length; j++) if (drawnGrade(q, draws, d, j) !== q.given[j]) mask |= 1 << j;
    return mask;
  }
  let key = '';
  for (let j = 0; j < q.docs.length; j++) if (drawnGrade(q, draws, d, j) !== q.given[j]) key += `${j},`;
  return key;
}

/** A query's judgments from its grades. */
function judgmentsOf(grades: Map<string, number>): QueryJudgments {
  const sortedGrades = [...grades.values()].sort((a, b) => b - a);
  return { grades, sortedGrades, idealGains: sortedGrades.filter((g) => g > 0) };
}

/**
 * `measure` of a query's judgments under draw d. The qrels' own map of the query's grades
 * is changed for the call and restored after (in `finally`): a copy per distinct draw and
 * run would cost the whole query's grades each time, the change costs its labels in doubt.
 */
function underDraw<T>(q: DoubtfulQuery, draws: LabelDraws, d: number, measure: (judgments: QueryJudgments) => T): T {
  const grades = q.grades;
  try {
    for (let j = 0; j < q.docs.length; j++) grades.set(q.docs[j]!, drawnGrade(q, draws, d, j));
    return measure(judgmentsOf(grades));
  } finally {
    for (let j = 0; j < q.docs.length; j++) grades.set(q.docs[j]!, q.given[j]!);
  }
}

/**
 * One run's label shifts for every measure. `valuesUnder(query, judgments)` gives the
 * run's value of every measure on that query under other judgments, `current(m, index)`
 * its value under the qrels. A query's drawn labels repeat across draws (most draws
 * change none or one), so each distinct draw of a query is measured once.
 */
export function labelShifts(
  draws: LabelDraws,
  measures: number,
  current: (measure: number, index: number) => number,
  valuesUnder: (query: DoubtfulQuery, judgments: QueryJudgments) => ArrayLike<number>,
): LabelShift[] {
  const shifts = Array.from({ length: measures }, () => ({
    fixed: new Float64Array(draws.draws),
    resampled: new Float64Array(draws.draws),
  }));
  const samples = draws.counts.length / Math.max(1, draws.queries.length);
  draws.queries.forEach((q, u) => {
    const seen = new Map<number | string, Float64Array>();
    for (let d = 0; d < draws.draws; d++) {
      const key = changedKey(q, draws, d);
      if (key === 0 || key === '') continue;
      let change = seen.get(key);
      if (!change) {
        const values = underDraw(q, draws, d, (judgments) => valuesUnder(q, judgments));
        change = Float64Array.from({ length: measures }, (_, m) => values[m]! - current(m, q.index));
        seen.set(key, change);
      }
      const weight = d < samples ? draws.counts[d * draws.queries.length + u]! : 0;
      for (let m = 0; m < measures; m++) {
        shifts[m]!.fixed[d]! += change[m]!;
        shifts[m]!.resampled[d]! += weight * change[m]!;
      }
    }
  });
  return shifts;
}

/**
 * One run's effect of each label in doubt alone: per measure, per pair j (a row of
 * {@link LabelDraws.relevant}), the run's value change on j's query when j alone takes the
 * other side of its grade (relevant when given not relevant, and the reverse). What the
 * report's "how many labels would settle it" ranks by (src/qrels/settle.ts).
 */
export function labelEffects(
  draws: LabelDraws,
  measures: number,
  current: (measure: number, index: number) => number,
  valuesUnder: (query: DoubtfulQuery, judgments: QueryJudgments) => ArrayLike<number>,
): Float64Array[] {
  const effects = Array.from({ length: measures }, () => new Float64Array(draws.pairs));
  for (const q of draws.queries) {
    for (let j = 0; j < q.docs.length; j++) {
      const doc = q.docs[j]!;
      const given = q.grades.get(doc)!;
      const grades = new Map(q.grades);
      grades.set(doc, given >= 1 ? q.notRelevantGrade[j]! : q.relevantGrade[j]!);
      const values = valuesUnder(q, judgmentsOf(grades));
      for (let m = 0; m < measures; m++) effects[m]![q.offset + j] = values[m]! - current(m, q.index);
    }
  }
  return effects;
}

/** Reading a posterior that does not belong to the evaluation's new qrels. */
export function emptyPosteriorError(file: string): UserError {
  return new UserError(`${file}: no p_relevant records found; export the qrels with --format jsonl --posterior`);
}
