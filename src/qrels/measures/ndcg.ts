import type { RankedDoc } from '../types.js';
import { defineMeasure, type QueryJudgments } from './shared.js';

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

/** DCG of the top k over the ideal DCG of the top `idealK` (0 when no document is relevant). */
function normalizedDcg(ranking: readonly RankedDoc[], q: QueryJudgments, k: number, idealK: number): number {
  const ideal = dcg(q.idealGains, idealK);
  const actual = dcg(
    ranking.slice(0, Math.min(k, ranking.length)).map((d) => q.grades.get(d.docid) ?? 0),
    k,
  );
  return ideal > 0 ? actual / ideal : 0;
}

/**
 * `nDCG`, `nDCG@k` (ndcg, ndcg_cut.k): gain = grade when positive, else 0 (so −1 gains
 * 0), discount log2(rank + 1); the ideal ranks the query's positive grades descending,
 * truncated at k.
 */
export const ndcg = defineMeasure({
  name: 'nDCG',
  cutoff: 'optional',
  rel: false,
  compute: ({ ranking, q, k }) => normalizedDcg(ranking, q, k, k),
});

/** `nDCG_bridge@k`: DCG@k over the ideal DCG of *all* relevant documents (BRIDGE). */
export const ndcgBridge = defineMeasure({
  name: 'nDCG_bridge',
  cutoff: 'required',
  rel: false,
  note: 'ideal DCG over all relevant documents, not cut at k',
  compute: ({ ranking, q, k }) => normalizedDcg(ranking, q, k, Infinity),
});
