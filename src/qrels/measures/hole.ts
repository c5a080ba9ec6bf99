import { defineMeasure, shareOfTop } from './shared.js';

/** `Hole@k`: share of the top k relevant in the new qrels and unjudged in the base. */
export const hole = defineMeasure({
  name: 'Hole',
  cutoff: 'required',
  rel: true,
  pair: true,
  note: 'share of the top k relevant in the new qrels and unjudged in the base',
  compute: ({ ranking, k, isRelevant, base }) => shareOfTop(ranking, k, (d) => isRelevant(d) && !base?.grades.has(d)),
});
