import { defineMeasure, relevantCount } from './shared.js';

/**
 * `AP` (trec_eval map), `AP@k` (map_cut.k): Σ precision at each relevant rank ≤ k,
 * divided by the query's relevant count R (not min(R, k)).
 */
export const ap = defineMeasure({
  name: 'AP',
  aliases: ['MAP'],
  cutoff: 'optional',
  rel: true,
  compute: ({ ranking, q, level, k }) => {
    const relevant = relevantCount(q, level);
    if (relevant === 0) return 0;
    let hits = 0;
    let sum = 0;
    const shown = Math.min(k, ranking.length);
    for (let i = 0; i < shown; i++) {
      if ((q.grades.get(ranking[i]!.docid) ?? -Infinity) >= level) sum += ++hits / (i + 1);
    }
    return sum / relevant;
  },
});
