import { defineMeasure, relevantCount, type QueryJudgments } from './shared.js';

/** Documents judged non-relevant at this level: 0 ≤ grade < level. */
function nonRelevantCount(q: QueryJudgments, level: number): number {
  let n = 0;
  for (const g of q.sortedGrades) if (g >= 0 && g < level) n++;
  return n;
}

/**
 * `Bpref` (trec_eval bpref): with N judged non-relevant documents,
 * (1/R) Σ over relevant retrieved of 1 − min(n, R) / min(N, R), n the judged
 * non-relevant ranked above it (the term is 1 when n = 0). Documents with negative
 * grades are neither relevant nor non-relevant here: trec_eval reads a grade −1 as its
 * own "not in the pool" marker.
 */
export const bpref = defineMeasure({
  name: 'Bpref',
  aliases: ['BPref'],
  cutoff: 'none',
  rel: true,
  compute: ({ ranking, q, level }) => {
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
  },
});
