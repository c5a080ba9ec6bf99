import { compareIds } from './ids.js';
import type { Measure } from './measure-names.js';
import { RELEVANT, type Qrels, type RankedDoc } from './types.js';

export { DEFAULT_MEASURES, isPairMeasure, MEASURE_NAMES, parseMeasure, parseMeasures } from './measure-names.js';
export type { Measure, MeasureName } from './measure-names.js';

/**
 * Per-query IR measures (pure), equal to ir_measures' values (pytrec_eval, i.e.
 * trec_eval's C code, for most; its own providers for Judged@k and RR@k). The relevance
 * level L is the measure's `rel=N`, else the evaluation's `--rel-level`, else 1.
 *
 * Binary measures (relevant: grade ≥ L; judged non-relevant: 0 ≤ grade < L):
 * - `AP` (trec_eval map), `AP@k` (map_cut.k): Σ precision at each relevant rank ≤ k,
 *   divided by the query's relevant count R (not min(R, k)).
 * - `P@k`: relevant in the top k / k, also when fewer than k are ranked.
 * - `R@k`: relevant in the top k / R. `Success@k`: 1 when one is in the top k.
 * - `RR` (recip_rank): 1 / rank of the first relevant document. `RR@k` comes from
 *   ir_measures' MS MARCO provider: the same within the top k, 0 beyond, but ranked in
 *   that provider's order (below).
 * - `R-Prec`: relevant in the top R / R.
 * - `Bpref` (trec_eval bpref): with N judged non-relevant documents,
 *   (1/R) Σ over relevant retrieved of 1 − min(n, R) / min(N, R), n the judged
 *   non-relevant ranked above it (the term is 1 when n = 0). Documents with negative
 *   grades are neither relevant nor non-relevant here: trec_eval reads a grade −1 as
 *   its own "not in the pool" marker.
 * Graded and other measures (no relevance level):
 * - `nDCG`, `nDCG@k` (ndcg, ndcg_cut.k): gain = grade when positive, else 0 (so −1
 *   gains 0), discount log2(rank + 1); the ideal ranks the query's positive grades
 *   descending, truncated at k.
 * - `nDCG_bridge@k`: DCG@k over the ideal DCG of *all* relevant documents (BRIDGE).
 * - `Judged@k` (ir_measures' judged provider): share of the top min(k, ranked) with any
 *   judgment, grade −1 included.
 * - `Hole@k`: share of the top k relevant in the new qrels and unjudged in the base.
 * Every measure is 0 on a query without relevant documents or missing from the run.
 *
 * Orders: trec_eval ranks by score descending with the scores read as 32-bit floats (its
 * `float sim`, so 1.00000002 and 1.00000001 tie), ties by document id descending
 * ({@link rankingOrder} in run-parse.ts). ir_measures' own providers (Judged@k, RR@k)
 * rank by the full double score descending, ties by document id ascending
 * ({@link lexicalOrder}).
 */

/** One query's judgments, with what every measure needs precomputed. */
export interface QueryJudgments {
  grades: Map<string, number>;
  /** Positive grades, descending: the ideal ranking's gains. */
  idealGains: number[];
  /** Every grade, descending: counting relevant and non-relevant at any level. */
  sortedGrades: number[];
}

export type PreparedQrels = Map<string, QueryJudgments>;

export function prepareQrels(qrels: Qrels): PreparedQrels {
  const prepared: PreparedQrels = new Map();
  for (const [qid, grades] of qrels) {
    const sortedGrades = [...grades.values()].sort((a, b) => b - a);
    prepared.set(qid, { grades, sortedGrades, idealGains: sortedGrades.filter((g) => g > 0) });
  }
  return prepared;
}

/** Documents with grade ≥ level. */
export function relevantCount(q: QueryJudgments, level: number): number {
  let n = 0;
  while (n < q.sortedGrades.length && q.sortedGrades[n]! >= level) n++;
  return n;
}

/** Documents judged non-relevant at this level: 0 ≤ grade < level. */
function nonRelevantCount(q: QueryJudgments, level: number): number {
  let n = 0;
  for (const g of q.sortedGrades) if (g >= 0 && g < level) n++;
  return n;
}

/** ir_measures' order for its own providers: score descending, ties by document id ascending. */
export function lexicalOrder(a: RankedDoc, b: RankedDoc): number {
  if (a.score !== b.score) return a.score > b.score ? -1 : 1;
  return compareIds(a.docid, b.docid);
}

function dcg(gains: Iterable<number>, k: number): number {
  let sum = 0;
  let i = 0;
  for (const gain of gains) {
    if (i >= k) break;
    if (gain > 0) sum += gain / Math.log2(i + 2);
    i++;
  }
  return sum;
}

function countTop(ranking: readonly RankedDoc[], k: number, test: (docid: string) => boolean): { hits: number; shown: number } {
  const shown = Math.min(k, ranking.length);
  let hits = 0;
  for (let i = 0; i < shown; i++) if (test(ranking[i]!.docid)) hits++;
  return { hits, shown };
}

export interface QueryContext {
  /** The evaluation's relevance level (`--rel-level`); a measure's rel=N wins. Default 1. */
  relLevel?: number;
  /** The base qrels' judgments of the query (Hole@k). */
  base?: QueryJudgments | undefined;
  /** The ranking in {@link lexicalOrder}; computed from `ranking` when not given. */
  lexical?: readonly RankedDoc[];
}

function averagePrecision(ranking: readonly RankedDoc[], q: QueryJudgments, level: number, k: number): number {
  const relevant = relevantCount(q, level);
  if (relevant === 0) return 0;
  let hits = 0;
  let sum = 0;
  const shown = Math.min(k, ranking.length);
  for (let i = 0; i < shown; i++) {
    if ((q.grades.get(ranking[i]!.docid) ?? -Infinity) >= level) sum += ++hits / (i + 1);
  }
  return sum / relevant;
}

function reciprocalRank(ranking: readonly RankedDoc[], q: QueryJudgments, level: number, k: number): number {
  const shown = Math.min(k, ranking.length);
  for (let i = 0; i < shown; i++) if ((q.grades.get(ranking[i]!.docid) ?? -Infinity) >= level) return 1 / (i + 1);
  return 0;
}

function bpref(ranking: readonly RankedDoc[], q: QueryJudgments, level: number): number {
  const relevant = relevantCount(q, level);
  if (relevant === 0) return 0;
  const nonRelevant = nonRelevantCount(q, level);
  let above = 0;
  let sum = 0;
  for (const d of ranking) {
    const g = q.grades.get(d.docid);
    if (g === undefined || g < 0) continue;
    if (g < level) above++;
    else sum += above === 0 ? 1 : 1 - Math.min(above, relevant) / Math.min(nonRelevant, relevant);
  }
  return sum / relevant;
}

/**
 * The value of one measure for one query. `ranking` is the system's ranking for the
 * query in trec_eval order (empty when the run lacks it), `q` the judgments of the qrels
 * evaluated.
 */
export function measureQuery(m: Measure, ranking: readonly RankedDoc[], q: QueryJudgments, ctx: QueryContext = {}): number {
  const level = m.rel ?? ctx.relLevel ?? RELEVANT;
  const k = m.cutoff ?? Infinity;
  const isRelevant = (d: string) => (q.grades.get(d) ?? -Infinity) >= level;
  const lexical = () => ctx.lexical ?? [...ranking].sort(lexicalOrder);
  switch (m.name) {
    case 'AP':
      return averagePrecision(ranking, q, level, k);
    case 'P':
      return countTop(ranking, k, isRelevant).hits / k;
    case 'R': {
      const relevant = relevantCount(q, level);
      return relevant === 0 ? 0 : countTop(ranking, k, isRelevant).hits / relevant;
    }
    case 'RR':
      return reciprocalRank(m.cutoff === null ? ranking : lexical(), q, level, k);
    case 'R-Prec': {
      const relevant = relevantCount(q, level);
      return relevant === 0 ? 0 : countTop(ranking, relevant, isRelevant).hits / relevant;
    }
    case 'Success':
      return countTop(ranking, k, isRelevant).hits > 0 ? 1 : 0;
    case 'Bpref':
      return bpref(ranking, q, level);
    case 'nDCG':
    case 'nDCG_bridge': {
      const ideal = dcg(q.idealGains, m.name === 'nDCG' ? k : Infinity);
      const actual = dcg(
        ranking.slice(0, Math.min(k, ranking.length)).map((d) => q.grades.get(d.docid) ?? 0),
        k,
      );
      return ideal > 0 ? actual / ideal : 0;
    }
    case 'Judged': {
      const { hits, shown } = countTop(lexical(), k, (d) => q.grades.has(d));
      return shown === 0 ? 0 : hits / shown;
    }
    case 'Hole': {
      const { hits, shown } = countTop(ranking, k, (d) => isRelevant(d) && !ctx.base?.grades.has(d));
      return shown === 0 ? 0 : hits / shown;
    }
  }
}
