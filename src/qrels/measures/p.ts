import { countTop, defineMeasure } from './shared.js';

/** `P@k`: relevant in the top k / k, also when fewer than k are ranked. */
export const p = defineMeasure({
  name: 'P',
  cutoff: 'required',
  rel: true,
  compute: ({ ranking, k, isRelevant }) => countTop(ranking, k, isRelevant).hits / k,
});
