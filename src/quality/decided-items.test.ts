import { describe, expect, it } from 'vitest';
import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { decidedAfter, type DecisionRule } from './decided-items.js';

/** One string per item, its answers in submission order: "yyn" = yes, yes, no. */
function votes(items: Record<string, string>): Vote<Judgment>[] {
  return Object.entries(items).flatMap(([item, answers]) =>
    [...answers].map((c, w) => ({ item, worker: `w${w}`, label: c === 'y' ? ('yes' as const) : ('no' as const) })),
  );
}

const items = { agree: 'yy', split: 'yn', full: 'yny', lone: 'y', late: 'ynn' };

describe('decidedAfter', () => {
  it('fixed redundancy, recollect always: decided at the voteTarget-th vote', () => {
    const rule: DecisionRule = { voteTarget: 3, adaptive: false, recollect: 'always' };
    expect(decidedAfter(votes(items), rule)).toEqual(
      new Map([
        ['full', 3],
        ['late', 3],
      ]),
    );
  });

  it('recollect when-undecided: two agreeing votes of three decide', () => {
    const rule: DecisionRule = { voteTarget: 3, adaptive: false, recollect: 'when-undecided' };
    expect(decidedAfter(votes(items), rule)).toEqual(
      new Map([
        ['agree', 2],
        ['full', 3],
        ['late', 3],
      ]),
    );
    // a majority of 5 needs 3 agreeing
    expect(decidedAfter(votes({ a: 'yy', b: 'yyny' }), { ...rule, voteTarget: 5 })).toEqual(new Map([['b', 4]]));
  });

  it('adaptive redundancy: two that agree, or voteTarget once the first two disagree', () => {
    const rule: DecisionRule = { voteTarget: 3, adaptive: true, recollect: 'always' };
    expect(decidedAfter(votes(items), rule)).toEqual(
      new Map([
        ['agree', 2],
        ['full', 3],
        ['late', 3],
      ]),
    );
  });

  it('counts votes in submission order, item by item', () => {
    const interleaved = votes({ a: 'yy', b: 'nn' }).sort((x, y) => x.worker.localeCompare(y.worker));
    expect(decidedAfter(interleaved, { voteTarget: 3, adaptive: false, recollect: 'when-undecided' })).toEqual(
      new Map([
        ['a', 2],
        ['b', 2],
      ]),
    );
  });
});
