import { defineMeasure, shareOfTop } from './shared.js';

/**
 * `Judged@k` (ir_measures' judged provider): share of the top min(k, ranked) with any
 * judgment, grade −1 included.
 */
export const judged = defineMeasure({
  name: 'Judged',
  cutoff: 'required',
  rel: false,
  compute: ({ q, k, lexical }) => shareOfTop(lexical(), k, (d) => q.grades.has(d)),
});
