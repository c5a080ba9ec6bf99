import { countTop, defineMeasure } from './shared.js';

/** `Success@k`: 1 when a relevant document is in the top k. */
export const success = defineMeasure({
  name: 'Success',
  cutoff: 'required',
  rel: true,
  compute: ({ ranking, k, isRelevant }) => (countTop(ranking, k, isRelevant).hits > 0 ? 1 : 0),
});
