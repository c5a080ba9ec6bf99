import { describe, expect, it } from 'vitest';
import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import {
  adaptiveCostShare,
  adaptiveTargets,
  DREAM_AGREEMENT,
  pairwiseDisagreement,
  repostInsteadOfExtending,
} from './adaptive-redundancy.js';

const v = (item: string, worker: string, label: Judgment): Vote<Judgment> => ({ item, worker, label });

describe('adaptive redundancy', () => {
  it('asks two votes first and the third only where the first two disagree', () => {
    const targets = adaptiveTargets(
      [
        v('agree', 'a', 'yes'),
        v('split', 'a', 'yes'),
        v('one', 'a', 'no'),
        v('agree', 'b', 'yes'),
        v('split', 'b', 'no'),
        // a later vote never changes what the first two decided
        v('agree', 'c', 'no'),
      ],
      3,
    );
    expect(targets).toEqual(
      new Map([
        ['agree', 2],
        ['split', 3],
        ['one', 2],
      ]),
    );
    // with a target of 2 or less there is nothing to adapt
    expect(adaptiveTargets([v('split', 'a', 'yes'), v('split', 'b', 'no')], 2).get('split')).toBe(2);
    expect(adaptiveTargets([v('x', 'a', 'yes')], 1).get('x')).toBe(1);
  });

  it('gives the label a majority of three gives, whenever it stops at two', () => {
    // every ordered triple of binary votes: when the first two agree, the majority of all three is theirs
    const labels: Judgment[] = ['yes', 'no'];
    for (const a of labels)
      for (const b of labels)
        for (const c of labels) {
          const votes = [v('i', 'a', a), v('i', 'b', b), v('i', 'c', c)];
          if (adaptiveTargets(votes, 3).get('i') !== 2) continue;
          const yes = [a, b, c].filter((x) => x === 'yes').length;
          expect(yes >= 2 ? 'yes' : 'no').toBe(a);
        }
  });

  it('extends a HIT when at least half its items need a vote, else posts those items anew', () => {
    const hits = [
      { hitId: 'few', items: ['a', 'b', 'c', 'd'] },
      { hitId: 'half', items: ['e', 'f', 'g', 'h'] },
      { hitId: 'none', items: ['i'] },
    ];
    const lacking = new Map([
      ['a', 1],
      ['e', 1],
      ['f', 1],
      ['i', 0],
    ]);
    expect(repostInsteadOfExtending(hits, lacking)).toEqual(new Set(['few']));
  });

  it('puts the saving at about a quarter with the DREAM study’s agreement', () => {
    const d = pairwiseDisagreement(DREAM_AGREEMENT.kappa, DREAM_AGREEMENT.yesShare);
    expect(d).toBeCloseTo(1 - (0.62 * (4 / 9) + 5 / 9), 12);
    expect(1 - adaptiveCostShare(d, 3)).toBeGreaterThan(0.25);
    expect(1 - adaptiveCostShare(d, 3)).toBeLessThan(0.3);
    expect(pairwiseDisagreement(1, 0.5)).toBe(0);
    expect(pairwiseDisagreement(0, 0.5)).toBeCloseTo(0.5, 12);
    expect(adaptiveCostShare(0.3, 2)).toBe(1);
  });
});
