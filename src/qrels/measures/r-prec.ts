import { countTop, defineMeasure, relevantCount } from './shared.js';

/** `R-Prec` (trec_eval Rprec): relevant in the top R / R. */
export const rPrec = defineMeasure({
  name: 'R-Prec',
  aliases: ['Rprec', 'RPrec'],
  cutoff: 'none',
  rel: true,
  compute: ({ ranking, q, level, isRelevant }) => {
    const relevant = relevantCount(q, level);
    return relevant === 0 ? 0 : countTop(ranking, relevant, isRelevant).hits / relevant;
  },
});
