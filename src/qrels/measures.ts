import type { Measure } from './measure-names.js';
import { measureDefinition } from './measures/registry.js';
import { lexicalOrder, type QueryJudgments } from './measures/shared.js';
import { RELEVANT, type Qrels, type RankedDoc } from './types.js';

export { DEFAULT_MEASURES, isPairMeasure, MEASURE_NAMES, parseMeasure, parseMeasures } from './measure-names.js';
export type { Measure, MeasureName } from './measure-names.js';
export { lexicalOrder, relevantCount, type QueryJudgments } from './measures/shared.js';

/**
 * Per-query IR measures (pure), equal to ir_measures' values (pytrec_eval, i.e.
 * trec_eval's C code, for most; its own providers for Judged@k and RR@k). The relevance
 * level L is the measure's `rel=N`, else the evaluation's `--rel-level`, else 1. Each
 * measure is one file under measures/, which says what it computes: the binary ones
 * (AP, P, R, RR, R-Prec, Success, Bpref) count grade ≥ L as relevant and 0 ≤ grade < L
 * as judged non-relevant; the graded and other ones (nDCG, nDCG_bridge, Judged, Hole)
 * take no relevance level. Every measure is 0 on a query without relevant documents or
 * missing from the run.
 *
 * Orders: trec_eval ranks by score descending with the scores read as 32-bit floats (its
 * `float sim`, so 1.00000002 and 1.00000001 tie), ties by document id descending
 * ({@link rankingOrder} in run-parse.ts). ir_measures' own providers (Judged@k, RR@k)
 * rank by the full double score descending, ties by document id ascending
 * ({@link lexicalOrder}).
 */

export type PreparedQrels = Map<string, QueryJudgments>;

export function prepareQrels(qrels: Qrels): PreparedQrels {
  const prepared: PreparedQrels = new Map();
  for (const [qid, grades] of qrels) {
    const sortedGrades = [...grades.values()].sort((a, b) => b - a);
    prepared.set(qid, { grades, sortedGrades, idealGains: sortedGrades.filter((g) => g > 0) });
  }
  return prepared;
}

export interface QueryContext {
  /** The evaluation's relevance level (`--rel-level`); a measure's rel=N wins. Default 1. */
  relLevel?: number;
  /** The base qrels' judgments of the query (Hole@k). */
  base?: QueryJudgments | undefined;
  /** The ranking in {@link lexicalOrder}; computed from `ranking` when not given. */
  lexical?: readonly RankedDoc[];
}

/**
 * The value of one measure for one query. `ranking` is the system's ranking for the
 * query in trec_eval order (empty when the run lacks it), `q` the judgments of the qrels
 * evaluated.
 */
export function measureQuery(m: Measure, ranking: readonly RankedDoc[], q: QueryJudgments, ctx: QueryContext = {}): number {
  const level = m.rel ?? ctx.relLevel ?? RELEVANT;
  return measureDefinition(m.name).compute({
    ranking,
    q,
    level,
    k: m.cutoff ?? Infinity,
    cut: m.cutoff !== null,
    isRelevant: (d) => (q.grades.get(d) ?? -Infinity) >= level,
    lexical: () => ctx.lexical ?? [...ranking].sort(lexicalOrder),
    base: ctx.base,
  });
}
