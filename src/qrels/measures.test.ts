import { describe, expect, it } from 'vitest';
import { lexicalOrder, measureQuery, parseMeasure, parseMeasures, prepareQrels, type Measure } from './measures.js';
import type { Qrels, RankedDoc } from './types.js';

const ranking = (...docids: string[]): RankedDoc[] => docids.map((docid, i) => ({ docid, score: docids.length - i }));
const judgments = (grades: Record<string, number>) => prepareQrels(new Map([['q', new Map(Object.entries(grades))]])).get('q')!;
const m = (text: string): Measure => parseMeasure(text);

describe('measure names', () => {
  it('parses ir_measures names: with and without cutoff, with rel=N', () => {
    expect(parseMeasure('nDCG@10')).toEqual({ name: 'nDCG', cutoff: 10, rel: null, id: 'nDCG@10' });
    expect(parseMeasure('nDCG')).toEqual({ name: 'nDCG', cutoff: null, rel: null, id: 'nDCG' });
    expect(parseMeasure('AP(rel=2)')).toEqual({ name: 'AP', cutoff: null, rel: 2, id: 'AP(rel=2)' });
    expect(parseMeasure('P(rel=2)@10')).toEqual({ name: 'P', cutoff: 10, rel: 2, id: 'P(rel=2)@10' });
    expect(parseMeasure('nDCG_bridge@5')).toEqual({ name: 'nDCG_bridge', cutoff: 5, rel: null, id: 'nDCG_bridge@5' });
    expect(
      ['AP', 'AP@5', 'RR', 'RR@10', 'R-Prec', 'Bpref', 'Success@1', 'Judged@10', 'Hole@10', 'R@100'].map((t) => parseMeasure(t).id),
    ).toEqual(['AP', 'AP@5', 'RR', 'RR@10', 'R-Prec', 'Bpref', 'Success@1', 'Judged@10', 'Hole@10', 'R@100']);
  });

  it('takes the other spellings of R-Prec, MAP and MRR', () => {
    expect(parseMeasure('Rprec')).toMatchObject({ name: 'R-Prec', id: 'Rprec' });
    expect(parseMeasure('Rprec(rel=2)')).toMatchObject({ name: 'R-Prec', rel: 2, id: 'Rprec(rel=2)' });
    expect(parseMeasure('MAP').name).toBe('AP');
    expect(parseMeasure('MRR@10')).toMatchObject({ name: 'RR', cutoff: 10 });
  });

  it('splits lists on commas and spaces (not inside parentheses) and drops repeats', () => {
    expect(parseMeasures(['nDCG@10, R@100', 'Success@10 nDCG@10']).map((x) => x.id)).toEqual(['nDCG@10', 'R@100', 'Success@10']);
    expect(parseMeasures(['AP(rel=2),P(rel=2)@5,AP']).map((x) => x.id)).toEqual(['AP(rel=2)', 'P(rel=2)@5', 'AP']);
  });

  it('refuses unknown names, wrong case (with a suggestion), missing, extra and zero cutoffs, bad parameters', () => {
    expect(() => parseMeasure('ERR@10')).toThrow(/unknown measure "ERR@10": known measures are AP, AP@k, P@k/);
    expect(() => parseMeasure('ndcg@10')).toThrow(/did you mean nDCG@10\?/);
    expect(() => parseMeasure('P')).toThrow(/measure "P": give a cutoff, e\.g\. P@10/);
    expect(() => parseMeasure('Bpref@10')).toThrow(/Bpref takes no cutoff/);
    expect(() => parseMeasure('R@0')).toThrow(/cutoff k must be a positive integer/);
    expect(() => parseMeasure('R@x')).toThrow(/cutoff k must be a positive integer/);
    expect(() => parseMeasure('AP(gain=2)')).toThrow(/unknown parameter "gain=2"/);
    expect(() => parseMeasure('AP(rel=0)')).toThrow(/rel=N needs N a positive integer/);
    expect(() => parseMeasure('nDCG(rel=2)@10')).toThrow(/nDCG grades by relevance value and takes no rel=N/);
    expect(() => parseMeasures([' , '])).toThrow(/no measures given/);
  });
});

describe('nDCG@k and the BRIDGE variant (hand-computed)', () => {
  // grades: a 2, e 2, b 1, c 1, d 0 -> 4 relevant; x unjudged
  const q = judgments({ a: 2, b: 1, c: 1, d: 0, e: 2 });
  const r = ranking('x', 'a', 'd', 'b', 'c');

  it('nDCG@3: DCG@3 over the ideal DCG truncated at 3 (trec_eval ndcg_cut)', () => {
    const dcg3 = 0 / Math.log2(2) + 2 / Math.log2(3) + 0 / Math.log2(4); // x, a, d = 1.2618595
    const ideal3 = 2 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4); // 2, 2, 1 = 3.7618595
    expect(measureQuery(m('nDCG@3'), r, q)).toBeCloseTo(dcg3 / ideal3, 12);
    expect(measureQuery(m('nDCG@3'), r, q)).toBeCloseTo(0.335435, 6);
  });

  it('nDCG_bridge@3: the same DCG@3 over the ideal DCG of all 4 relevant documents', () => {
    const dcg3 = 2 / Math.log2(3); // 1.2618595
    const idealAll = 2 / Math.log2(2) + 2 / Math.log2(3) + 1 / Math.log2(4) + 1 / Math.log2(5); // 4.1925361
    expect(measureQuery(m('nDCG_bridge@3'), r, q)).toBeCloseTo(dcg3 / idealAll, 12);
    expect(measureQuery(m('nDCG_bridge@3'), r, q)).toBeCloseTo(0.300978, 6);
  });

  it('nDCG_bridge@k equals nDCG@k once k covers every relevant document', () => {
    // k = 5 >= 4 relevant: both ideals are 4.1925361; DCG@5 = 2/log2(3) + 1/log2(5) + 1/log2(6)
    const dcg5 = 2 / Math.log2(3) + 1 / Math.log2(5) + 1 / Math.log2(6);
    const idealAll = 2 + 2 / Math.log2(3) + 1 / Math.log2(4) + 1 / Math.log2(5);
    expect(measureQuery(m('nDCG@5'), r, q)).toBeCloseTo(dcg5 / idealAll, 12);
    expect(measureQuery(m('nDCG_bridge@5'), r, q)).toBeCloseTo(dcg5 / idealAll, 12);
  });

  it('scores 0 for a query without relevant documents, and negative grades gain nothing', () => {
    const none = judgments({ a: 0, b: -1 });
    for (const id of ['nDCG@3', 'nDCG_bridge@3', 'R@3', 'Success@3']) expect(measureQuery(m(id), ranking('b', 'a'), none)).toBe(0);
    // a grade of -1 at rank 1 adds no gain: DCG = 1/log2(3), ideal = 1
    expect(measureQuery(m('nDCG@2'), ranking('b', 'a'), judgments({ a: 1, b: -1 }))).toBeCloseTo(1 / Math.log2(3), 12);
  });
});

describe('R@k, Success@k and Judged@k', () => {
  const q = judgments({ a: 2, b: 1, c: 0, d: 1 });
  it('R@k counts grades >= 1 over all relevant of the query', () => {
    expect(measureQuery(m('R@2'), ranking('c', 'a', 'b'), q)).toBeCloseTo(1 / 3, 12);
    expect(measureQuery(m('R@100'), ranking('c', 'a', 'b'), q)).toBeCloseTo(2 / 3, 12);
  });
  it('Success@k is 1 once a relevant document is in the top k', () => {
    expect(measureQuery(m('Success@1'), ranking('c', 'a'), q)).toBe(0);
    expect(measureQuery(m('Success@2'), ranking('c', 'a'), q)).toBe(1);
  });
  it('Judged@k divides by min(k, ranking length), as ir_measures does', () => {
    expect(measureQuery(m('Judged@4'), ranking('c', 'x', 'a', 'y'), q)).toBe(2 / 4);
    expect(measureQuery(m('Judged@10'), ranking('c', 'x', 'a', 'y'), q)).toBe(2 / 4);
    expect(measureQuery(m('Judged@10'), [], q)).toBe(0);
  });
});

describe('AP, P, RR, R-Prec, Bpref with grade -1 and relevance levels (hand-computed, as ir_measures gives them)', () => {
  // ranking d a h c b f j i e; relevant at level 1: a b e g (R = 4); c is 0; d and f are -1; h i j unjudged
  const q = judgments({ a: 2, b: 1, c: 0, d: -1, e: 1, f: -1, g: 2 });
  const r = ranking('d', 'a', 'h', 'c', 'b', 'f', 'j', 'i', 'e');
  const at = (text: string, relLevel?: number) => measureQuery(m(text), r, q, relLevel === undefined ? {} : { relLevel });

  it('AP sums precision at the relevant ranks over all relevant; AP@k stops at k', () => {
    expect(at('AP')).toBeCloseTo((1 / 2 + 2 / 5 + 3 / 9) / 4, 15); // 0.308333
    expect(at('AP@5')).toBeCloseTo((1 / 2 + 2 / 5) / 4, 15);
    expect(at('AP(rel=2)')).toBeCloseTo(1 / 2 / 2, 15); // only a and g are relevant at level 2
    expect(at('AP', 2)).toBe(at('AP(rel=2)'));
    expect(at('AP(rel=1)', 2)).toBe(at('AP')); // the measure's rel wins over --rel-level
    expect(at('AP(rel=3)')).toBe(0);
  });

  it('P@k divides by k, also beyond the ranking', () => {
    expect(at('P@5')).toBe(2 / 5);
    expect(at('P@20')).toBe(3 / 20);
    expect(at('P@5', 2)).toBe(1 / 5);
  });

  it('RR is one over the rank of the first relevant document, RR@k 0 past k', () => {
    expect(at('RR')).toBe(1 / 2);
    expect(at('RR@1')).toBe(0);
    expect(at('RR@2')).toBe(1 / 2);
    expect(measureQuery(m('RR'), ranking('h', 'c', 'd'), q)).toBe(0);
  });

  it('R-Prec is the precision at R', () => {
    expect(at('R-Prec')).toBe(1 / 4); // top 4: d a h c
    expect(at('R-Prec', 2)).toBe(1 / 2); // R = 2: top 2 d a
  });

  it('Bpref skips -1 and unjudged documents, counts judged non-relevant above each relevant one', () => {
    // level 1: N = 1 (c); a: none above -> 1; b, e: c above -> 1 - min(1,4)/min(1,4) = 0
    expect(at('Bpref')).toBe(1 / 4);
    // level 2: relevant a, g; non-relevant c b e (N = 3); a: none above (d is -1) -> 1
    expect(at('Bpref', 2)).toBe(1 / 2);
    // relevant after two judged non-relevant, N = 3, R = 2: 1 - min(2,2)/min(3,2) = 0; after one: 1 - 1/2
    expect(measureQuery(m('Bpref'), ranking('x', 'n1', 'r1', 'n2', 'r2'), judgments({ n1: 0, n2: 0, n3: 0, r1: 1, r2: 1 }))).toBe(
      (1 / 2 + 0) / 2,
    );
  });

  it('counts -1 as judged for Judged@k, as no gain for nDCG, and nDCG ignores the relevance level', () => {
    expect(at('Judged@5')).toBe(4 / 5); // d a c b judged, h not
    expect(at('nDCG@5', 3)).toBe(at('nDCG@5'));
    expect(at('nDCG')).toBeCloseTo(0.46505081404489806, 14); // pytrec_eval ndcg on this query
  });

  it('scores 0 on every binary measure when nothing is relevant, and on a query the run lacks', () => {
    const none = judgments({ x: 0, y: -1 });
    for (const id of ['AP', 'AP@5', 'P@5', 'RR', 'RR@5', 'R-Prec', 'Bpref', 'R@5', 'Success@5', 'nDCG', 'nDCG@5']) {
      expect(measureQuery(m(id), ranking('x', 'y'), none), id).toBe(0);
      expect(measureQuery(m(id), [], q), id).toBe(0);
    }
  });
});

describe('the two orders of tied documents', () => {
  // a and b tie: trec_eval ranks b first (document id descending), ir_measures' own providers a first
  const q = judgments({ a: 1, b: 0 });
  const tied: RankedDoc[] = [
    { docid: 'b', score: 1 },
    { docid: 'a', score: 1 },
  ];
  it('RR and P@k use trec_eval order; RR@k and Judged@k order ties by id ascending, as ir_measures does', () => {
    expect(measureQuery(m('RR'), tied, q)).toBe(1 / 2);
    expect(measureQuery(m('P@1'), tied, q)).toBe(0);
    expect(measureQuery(m('RR@5'), tied, q)).toBe(1);
    expect(
      measureQuery(
        m('Judged@1'),
        [
          { docid: 'x', score: 1 },
          { docid: 'a', score: 1 },
        ],
        q,
      ),
    ).toBe(1);
    expect([...tied].sort(lexicalOrder).map((d) => d.docid)).toEqual(['a', 'b']);
  });
});

describe('Hole@k (hand-computed)', () => {
  // base judged a (1) and d (0); the new qrels add b (1), e (2), c (0) and flip d to 1
  const qrels = (g: Record<string, number>): Qrels => new Map([['q', new Map(Object.entries(g))]]);
  const base = prepareQrels(qrels({ a: 1, d: 0 })).get('q')!;
  const next = prepareQrels(qrels({ a: 1, d: 1, b: 1, c: 0, e: 2 })).get('q')!;
  const r = ranking('b', 'a', 'x', 'd', 'c', 'e');

  it('counts the top-k documents relevant now and unjudged in the base', () => {
    expect(measureQuery(m('Hole@1'), r, next, { base })).toBe(1 / 1); // b
    expect(measureQuery(m('Hole@3'), r, next, { base })).toBe(1 / 3); // b; a was judged, x is unjudged in both
    expect(measureQuery(m('Hole@5'), r, next, { base })).toBe(1 / 5); // b; d was judged in the base (a flip, not a hole), c is not relevant
    expect(measureQuery(m('Hole@6'), r, next, { base })).toBe(2 / 6); // b, e
    expect(measureQuery(m('Hole@10'), r, next, { base })).toBe(2 / 6); // denominator min(10, 6 retrieved)
  });

  it('treats every relevant document of a query the base never judged as a hole', () => {
    expect(measureQuery(m('Hole@3'), r, next, undefined)).toBe(2 / 3); // b, a (d is at rank 4)
  });
});
