import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { labelsByItem } from './aggregator.js';
import { majorityVote } from './majority-vote.js';
import type { Vote } from './votes.js';

const yn = ['yes', 'no'] as const;
type YN = (typeof yn)[number];

function votesOf(item: string, labels: readonly YN[], workers = labels.map((_, n) => `w${n + 1}`)): Vote<YN>[] {
  return labels.map((label, n) => ({ item, worker: workers[n]!, label }));
}

describe('majority vote', () => {
  it('takes the label with most votes and reports counts and vote shares', () => {
    const result = majorityVote<YN>().fit(votesOf('q1:d1', ['yes', 'no', 'yes']), yn);
    expect(result).toEqual({
      aggregator: 'MajorityVote',
      categories: ['yes', 'no'],
      unresolved: 0,
      items: [
        {
          item: 'q1:d1',
          label: 'yes',
          decidedBy: 'clear',
          tie: [],
          votes: 3,
          counts: { yes: 2, no: 1 },
          probabilities: { yes: 2 / 3, no: 1 / 3 },
        },
      ],
    });
  });

  it('never ties with 3 votes on a yes/no question', () => {
    const patterns: YN[][] = [];
    for (const a of yn) for (const b of yn) for (const c of yn) patterns.push([a, b, c]);
    const votes = patterns.flatMap((p, n) => votesOf(`i${n}`, p));
    const result = majorityVote<YN>().fit(votes, yn);
    expect(result.unresolved).toBe(0);
    for (const [n, p] of patterns.entries()) {
      const yes = p.filter((l) => l === 'yes').length;
      expect(labelsByItem(result).get(`i${n}`)).toBe(yes >= 2 ? 'yes' : 'no');
    }
  });

  describe('ties (2 or 4 votes)', () => {
    const votes = [
      ...votesOf('two', ['yes', 'no'], ['good', 'poor']),
      ...votesOf('four', ['no', 'yes', 'yes', 'no'], ['good', 'poor', 'other', 'unknown']),
      ...votesOf('clear', ['no', 'no'], ['good', 'poor']),
    ];

    it('leaves a tie unresolved by default, flagged for more votes', () => {
      const result = majorityVote<YN>().fit(votes, yn);
      expect(result.unresolved).toBe(2);
      const four = result.items.find((it) => it.item === 'four');
      expect(four).toMatchObject({
        label: null,
        decidedBy: 'unresolved',
        tie: ['yes', 'no'],
        counts: { yes: 2, no: 2 },
        probabilities: { yes: 0.5, no: 0.5 },
      });
      expect(result.items.find((it) => it.item === 'clear')).toMatchObject({ label: 'no', decidedBy: 'clear', tie: [] });
    });

    it('uses a named fallback category', () => {
      const result = majorityVote<YN>({ tiePolicy: { kind: 'fallback', label: 'no' } }).fit(votes, yn);
      expect(result.unresolved).toBe(0);
      expect(result.items.map((it) => [it.item, it.label, it.decidedBy])).toEqual([
        ['clear', 'no', 'clear'],
        ['four', 'no', 'tie-fallback'],
        ['two', 'no', 'tie-fallback'],
      ]);
    });

    it('breaks a tie by worker weight, then by the final policy', () => {
      const weights = { good: 0.9, poor: 0.4, other: 0.4 };
      const result = majorityVote<YN>({ tiePolicy: { kind: 'worker-weighted', weights, then: { kind: 'unresolved' } } }).fit(votes, yn);
      // two: yes by good (0.9) vs no by poor (0.4) -> yes
      // four: no by good+unknown (0.9 + 0) vs yes by poor+other (0.8) -> no
      expect(labelsByItem(result)).toEqual(
        new Map([
          ['clear', 'no'],
          ['four', 'no'],
          ['two', 'yes'],
        ]),
      );
      expect(result.items.find((it) => it.item === 'two')?.decidedBy).toBe('tie-weighted');

      const even = { good: 0.5, poor: 0.5 };
      const fallback = majorityVote<YN>({
        tiePolicy: { kind: 'worker-weighted', weights: even, then: { kind: 'fallback', label: 'yes' } },
      }).fit(votes, yn);
      expect(fallback.items.find((it) => it.item === 'two')).toMatchObject({ label: 'yes', decidedBy: 'tie-fallback' });
      const open = majorityVote<YN>({ tiePolicy: { kind: 'worker-weighted', weights: {}, then: { kind: 'unresolved' } } }).fit(votes, yn);
      expect(open.unresolved).toBe(2);
    });

    it('ignores weights of workers who voted for a category outside the tie', () => {
      const three = ['a', 'b', 'c'] as const;
      const votes3: Vote<(typeof three)[number]>[] = [
        { item: 'x', worker: 'w1', label: 'a' },
        { item: 'x', worker: 'w2', label: 'a' },
        { item: 'x', worker: 'w3', label: 'b' },
        { item: 'x', worker: 'w4', label: 'b' },
        { item: 'x', worker: 'w5', label: 'c' },
      ];
      const result = majorityVote<(typeof three)[number]>({
        tiePolicy: { kind: 'worker-weighted', weights: { w1: 1, w3: 2, w5: 100 }, then: { kind: 'unresolved' } },
      }).fit(votes3, three);
      expect(result.items[0]).toMatchObject({ label: 'b', decidedBy: 'tie-weighted', tie: ['a', 'b'] });
    });

    it('applies a fallback only when it is one of the tied categories', () => {
      const three = ['a', 'b', 'c'] as const;
      const votes3: Vote<(typeof three)[number]>[] = [
        { item: 'x', worker: 'w1', label: 'a' },
        { item: 'x', worker: 'w2', label: 'b' },
      ];
      const result = majorityVote<(typeof three)[number]>({ tiePolicy: { kind: 'fallback', label: 'c' } }).fit(votes3, three);
      expect(result.items[0]).toMatchObject({ label: null, decidedBy: 'unresolved', tie: ['a', 'b'] });
    });
  });

  it('labels an item with one rater by that rater', () => {
    const result = majorityVote<YN>().fit(votesOf('x', ['no']), yn);
    expect(result.items[0]).toMatchObject({ label: 'no', votes: 1, probabilities: { yes: 0, no: 1 } });
  });

  it('returns nothing for no votes', () => {
    expect(majorityVote<YN>().fit([], yn)).toEqual({ aggregator: 'MajorityVote', categories: ['yes', 'no'], items: [], unresolved: 0 });
  });

  it('works with a single category', () => {
    const result = majorityVote<'yes'>().fit([{ item: 'x', worker: 'w', label: 'yes' }], ['yes']);
    expect(result.items[0]).toMatchObject({ label: 'yes', probabilities: { yes: 1 } });
  });

  it('handles many categories', () => {
    const categories = Array.from({ length: 12 }, (_, n) => `c${n}`);
    const votes = ['c3', 'c7', 'c7', 'c11', 'c7', 'c3'].map((label, n) => ({ item: 'x', worker: `w${n}`, label }));
    const result = majorityVote<string>().fit(votes, categories);
    expect(result.items[0]?.label).toBe('c7');
    expect(Object.keys(result.items[0]!.counts)).toEqual(categories);
    expect(result.items[0]?.probabilities.c3).toBeCloseTo(2 / 6, 12);
  });

  it('gives the same result whatever the order of the votes', () => {
    const votes = [...votesOf('a', ['yes', 'no', 'no']), ...votesOf('b', ['yes', 'yes', 'no', 'no'])];
    expect(majorityVote<YN>().fit([...votes].reverse(), yn)).toEqual(majorityVote<YN>().fit(votes, yn));
  });

  it('produces JSON-serialisable results', () => {
    const result = majorityVote<YN>().fit([...votesOf('a', ['yes', 'no']), ...votesOf('__proto__', ['yes'])], yn);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('treats a category named __proto__ as an ordinary key', () => {
    const categories = ['__proto__', 'constructor'] as const;
    const result = majorityVote<(typeof categories)[number]>().fit([{ item: 'x', worker: 'w', label: '__proto__' }], categories);
    expect(Object.keys(result.items[0]!.counts)).toEqual(['__proto__', 'constructor']);
    expect(JSON.parse(JSON.stringify(result.items[0]!.counts))).toEqual(result.items[0]!.counts);
  });

  it('refuses a tie policy that does not fit the categories', () => {
    const fallback = { kind: 'fallback', label: 'maybe' } as unknown as { kind: 'fallback'; label: YN };
    expect(() => majorityVote<YN>({ tiePolicy: fallback }).fit([], yn)).toThrow(UserError);
    expect(() => majorityVote<YN>({ tiePolicy: fallback }).fit([], yn)).toThrow('tiePolicy.label: "maybe" is not one of the categories');
    expect(() =>
      majorityVote<YN>({ tiePolicy: { kind: 'worker-weighted', weights: { w1: -1 }, then: { kind: 'unresolved' } } }).fit([], yn),
    ).toThrow('tiePolicy.weights["w1"]: -1 is not a finite number >= 0');
    expect(() => majorityVote<YN>({ tiePolicy: { kind: 'worker-weighted', weights: {}, then: fallback } }).fit([], yn)).toThrow(
      'tiePolicy.then.label',
    );
    expect(() => majorityVote<YN>({ tiePolicy: { kind: 'coin' } as unknown as { kind: 'unresolved' } }).fit([], yn)).toThrow(
      'tiePolicy.kind: "coin" is not one of',
    );
  });
});
