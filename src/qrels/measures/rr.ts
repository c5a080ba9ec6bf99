import { defineMeasure } from './shared.js';

/**
 * `RR` (recip_rank): 1 / rank of the first relevant document. `RR@k` comes from
 * ir_measures' MS MARCO provider: the same within the top k, 0 beyond, but ranked in
 * that provider's order ({@link lexicalOrder}).
 */
export const rr = defineMeasure({
  name: 'RR',
  aliases: ['MRR'],
  cutoff: 'optional',
  rel: true,
  compute: ({ ranking, k, cut, isRelevant, lexical }) => {
    const ranked = cut ? lexical() : ranking;
    const shown = Math.min(k, ranked.length);
    for (let i = 0; i < shown; i++) if (isRelevant(ranked[i]!.docid)) return 1 / (i + 1);
    return 0;
  },
});
