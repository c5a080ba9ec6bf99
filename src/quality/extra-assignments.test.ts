import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { planExtraAssignments, type HitAssignmentState } from './extra-assignments.js';

const hit = (hitId: string, items: string[], maxAssignments = 3, outstanding = 0): HitAssignmentState => ({
  hitId,
  items,
  maxAssignments,
  outstanding,
});
const votes = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('extra assignments', () => {
  it('asks nothing when every item has its 3 valid votes', () => {
    const plan = planExtraAssignments({ hits: [hit('H1', ['a', 'b'])], validVotes: votes({ a: 3, b: 4 }) });
    expect(plan).toEqual({ requests: [], stuck: [], complete: 2, waiting: 0 });
  });

  it('asks as many as the neediest item of the HIT lacks', () => {
    // one discarded assignment took a vote from every item; a tie left c with 2 only
    const plan = planExtraAssignments({ hits: [hit('H1', ['a', 'b', 'c'])], validVotes: votes({ a: 2, b: 2, c: 1 }) });
    expect(plan.requests).toEqual([{ hitId: 'H1', extra: 2, newMaxAssignments: 5, capped: false }]);
    expect(plan.stuck).toEqual([]);
  });

  it('never asks again for work that is merely pending', () => {
    const plan = planExtraAssignments({
      hits: [hit('H1', ['a', 'b'], 3, 1), hit('H2', ['c'], 4, 2)],
      validVotes: votes({ a: 2, b: 2, c: 0 }),
    });
    // H1: 1 outstanding covers a and b; H2: c lacks 3, 2 outstanding -> 1 extra
    expect(plan.requests).toEqual([{ hitId: 'H2', extra: 1, newMaxAssignments: 5, capped: false }]);
    expect(plan).toMatchObject({ complete: 0, waiting: 2 });
  });

  it('never takes a HIT from under 10 to 10 or more assignments, and reports the stuck items', () => {
    const plan = planExtraAssignments({ hits: [hit('H1', ['a', 'b'], 7)], validVotes: votes({ a: 0, b: 2 }) });
    expect(plan.requests).toEqual([{ hitId: 'H1', extra: 2, newMaxAssignments: 9, capped: true }]);
    expect(plan.stuck).toEqual([{ item: 'a', hitIds: ['H1'], target: 3, validVotes: 0, expected: 2, missing: 1 }]);
  });

  it('reports items of a HIT already at 9 as stuck without a request', () => {
    const plan = planExtraAssignments({ hits: [hit('H1', ['a'], 9)], validVotes: votes({ a: 1 }) });
    expect(plan.requests).toEqual([]);
    expect(plan.stuck).toEqual([{ item: 'a', hitIds: ['H1'], target: 3, validVotes: 1, expected: 1, missing: 2 }]);
  });

  it('extends a HIT that already has 10 or more assignments freely', () => {
    const plan = planExtraAssignments({ hits: [hit('H1', ['a'], 10)], validVotes: votes({ a: 0 }) });
    expect(plan.requests).toEqual([{ hitId: 'H1', extra: 3, newMaxAssignments: 13, capped: false }]);
  });

  it('honours per-item targets, e.g. a fifth vote for an item tied 2-2', () => {
    const plan = planExtraAssignments({
      hits: [hit('H1', ['a', 'b'], 4)],
      validVotes: votes({ a: 4, b: 3 }),
      targets: new Map([['a', 5]]),
    });
    expect(plan.requests).toEqual([{ hitId: 'H1', extra: 1, newMaxAssignments: 5, capped: false }]);
    expect(plan.complete).toBe(1);
  });

  it('takes a target other than 3', () => {
    const plan = planExtraAssignments({ hits: [hit('H1', ['a'], 1)], validVotes: votes({ a: 1 }), target: 1 });
    expect(plan.requests).toEqual([]);
  });

  it('lets an item in two HITs take votes from both, HITs in id order', () => {
    const plan = planExtraAssignments({
      hits: [hit('H2', ['shared', 'y']), hit('H1', ['shared', 'x'], 8)],
      validVotes: votes({ shared: 0, x: 3, y: 2 }),
    });
    // H1 can give 1 (8 -> 9): shared still lacks 2; H2 gives 2 (also covers y)
    expect(plan.requests).toEqual([
      { hitId: 'H1', extra: 1, newMaxAssignments: 9, capped: true },
      { hitId: 'H2', extra: 2, newMaxAssignments: 5, capped: false },
    ]);
    expect(plan.stuck).toEqual([]);
  });

  it('returns an empty plan for no HITs', () => {
    expect(planExtraAssignments({ hits: [], validVotes: new Map() })).toEqual({ requests: [], stuck: [], complete: 0, waiting: 0 });
  });

  it('names bad input', () => {
    expect(() => planExtraAssignments({ hits: [hit('H1', ['a'], 0)], validVotes: new Map() })).toThrow(UserError);
    expect(() => planExtraAssignments({ hits: [hit('H1', ['a'], 0)], validVotes: new Map() })).toThrow(
      'hits[0].maxAssignments: 0 is not a whole number >= 1',
    );
    expect(() => planExtraAssignments({ hits: [hit('H1', ['a'], 3, 4)], validVotes: new Map() })).toThrow(
      'hits[0].outstanding: 4 is more than',
    );
    expect(() => planExtraAssignments({ hits: [hit('H1', ['a']), hit('H1', ['b'])], validVotes: new Map() })).toThrow(
      'hits[1].hitId: "H1" is listed twice',
    );
    expect(() => planExtraAssignments({ hits: [], validVotes: votes({ a: -1 }) })).toThrow(
      'validVotes["a"]: -1 is not a whole number >= 0',
    );
    expect(() => planExtraAssignments({ hits: [], validVotes: new Map(), target: 0 })).toThrow('target: 0 is not a whole number >= 1');
    expect(() => planExtraAssignments({ hits: [], validVotes: new Map(), targets: new Map([['a', 2.5]]) })).toThrow('targets["a"]: 2.5');
  });
});
