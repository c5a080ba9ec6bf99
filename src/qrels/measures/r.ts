import { countTop, defineMeasure, relevantCount } from './shared.js';

/** `R@k`: relevant in the top k / R. */
export const r = defineMeasure({
  name: 'R',
  cutoff: 'required',
  rel: true,
  compute: ({ ranking, q, level, k, isRelevant }) => {
    const relevant = relevantCount(q, level);
    return relevant === 0 ? 0 : countTop(ranking, k, isRelevant).hits / relevant;
  },
});
