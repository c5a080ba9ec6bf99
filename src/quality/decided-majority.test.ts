import { describe, expect, it } from 'vitest';
import { majorityVote, type Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { decidedItems, decidingVotes, firstAnswers, leading, recollectTargets } from './decided-majority.js';

const v = (item: string, worker: string, label: Judgment): Vote<Judgment> => ({ item, worker, label });

describe('firstAnswers', () => {
  it("takes each item's first voteTarget answers in the order of the votes", () => {
    const votes = [v('i', 'a', 'no'), v('j', 'a', 'yes'), v('i', 'b', 'yes'), v('i', 'c', 'no'), v('i', 'd', 'yes')];
    expect(firstAnswers(votes, 3)).toEqual(
      new Map([
        ['i', ['no', 'yes', 'no']],
        ['j', ['yes']],
      ]),
    );
    expect(firstAnswers(votes, 1)).toEqual(
      new Map([
        ['i', ['no']],
        ['j', ['yes']],
      ]),
    );
    expect(firstAnswers(votes, 0)).toEqual(new Map());
  });
});

describe('leading', () => {
  it('counts the most given answer', () => {
    expect(leading([])).toBe(0);
    expect(leading(['yes'])).toBe(1);
    expect(leading(['no', 'yes', 'no'])).toBe(2);
    expect(leading(['yes', 'no'])).toBe(1);
  });
});

describe('re-collection only where a vote can change the majority', () => {
  it('needs 2 agreeing votes to decide a majority of 3, 3 of 5, 1 of 1', () => {
    expect([1, 2, 3, 4, 5].map(decidingVotes)).toEqual([1, 2, 2, 3, 3]);
  });

  it('collects up to what could decide each item: nothing for two that agree, one for a split or a lone vote, two for none', () => {
    const votes = [
      v('agree', 'a', 'no'),
      v('agree', 'b', 'no'),
      v('split', 'a', 'yes'),
      v('split', 'b', 'no'),
      v('lone', 'a', 'yes'),
      v('full', 'a', 'yes'),
      v('full', 'b', 'no'),
      v('full', 'c', 'no'),
    ];
    const { target, targets } = recollectTargets(votes, 3);
    // an item without a valid vote needs two that agree
    expect(target).toBe(2);
    expect(targets).toEqual(
      new Map([
        ['agree', 2],
        ['split', 3],
        ['lone', 2],
        ['full', 3],
      ]),
    );
    expect(decidedItems(votes, 3)).toEqual(new Set(['agree', 'full']));
  });

  it('never asks more than the vote target, and reads only the first voteTarget votes', () => {
    // 2–2 of 4 cannot be decided within the target: it stays at 4 (a tie, as the batch's tie policy says)
    const tie = [v('x', 'a', 'yes'), v('x', 'b', 'no'), v('x', 'c', 'yes'), v('x', 'd', 'no')];
    expect(recollectTargets(tie, 4).targets.get('x')).toBe(4);
    expect(decidedItems(tie, 4).size).toBe(0);
    // a fourth vote beyond a majority of 3 is not counted (the label uses the first three)
    const late = [v('y', 'a', 'yes'), v('y', 'b', 'no'), v('y', 'c', 'no'), v('y', 'd', 'yes')];
    expect(recollectTargets(late, 3).targets.get('y')).toBe(3);
    expect(recollectTargets([v('z', 'a', 'yes')], 1)).toEqual({ target: 1, targets: new Map([['z', 1]]) });
  });

  it('gives the label a full majority of three gives, whatever the third vote would have been', () => {
    const pairs: [Judgment, Judgment][] = [
      ['yes', 'yes'],
      ['no', 'no'],
    ];
    for (const [a, b] of pairs)
      for (const third of ['yes', 'no'] as const) {
        const two = [v('i', 'a', a), v('i', 'b', b)];
        expect(decidedItems(two, 3).has('i')).toBe(true);
        const label = (votes: Vote<Judgment>[]) =>
          majorityVote<Judgment>({ tiePolicy: { kind: 'unresolved' } }).fit(votes, ['yes', 'no']).items[0]?.label;
        expect(label(two)).toBe(label([...two, v('i', 'c', third)]));
      }
  });
});
