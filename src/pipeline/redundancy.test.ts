import { describe, expect, it } from 'vitest';
import type { Vote } from '../aggregate/index.js';
import type { HitDoc } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import { planFollowUp } from './follow-up.js';
import { collectTargets, completeItems, firstAssignments, targetOf, voteTargets } from './redundancy.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');

/** A published HIT whose two assignments are in and reviewed (only the fields the follow-up reads). */
function doneHit(index: number, chunks: string[]): HitDoc {
  return {
    _id: `b|${index}`,
    batch: 'b',
    index,
    origin: 'plan',
    state: 'published',
    maxAssignments: 2,
    items: chunks.map((chunkId, i) => ({ kind: 'real', position: i + 1, key: `k${index}-${i}`, queryId: 'q', chunkId, dataset: 'd' })),
    platform: {
      status: 'Reviewable',
      maxAssignments: 2,
      available: 0,
      pending: 0,
      completed: 2,
      expiration: new Date(NOW + 3600_000),
      checkedAt: new Date(NOW),
    },
  } as unknown as HitDoc; // the other fields do not enter the follow-up
}

const item = (chunk: string) => `b|q:${chunk}`;
const votes = (pairs: [string, Judgment, Judgment][]): Vote<Judgment>[] =>
  pairs.flatMap(([chunk, a, b]) => [
    { item: item(chunk), worker: 'w1', label: a },
    { item: item(chunk), worker: 'w2', label: b },
  ]);

describe('redundancy in the collection rounds', () => {
  const adaptive = { redundancy: 'adaptive' as const, voteTarget: 3 };

  it('creates HITs with two assignments when adaptive, the vote target when fixed', () => {
    expect(firstAssignments(adaptive)).toBe(2);
    expect(firstAssignments({ voteTarget: 3 })).toBe(3);
    expect(firstAssignments({ redundancy: 'fixed', voteTarget: 5 })).toBe(5);
    expect(voteTargets({ voteTarget: 3 }, [])).toEqual({ target: 3, adaptive: false });
  });

  it('asks the third vote by an extra assignment where half the HIT splits, in a new HIT where few items do', () => {
    const valid = votes([
      // HIT 0: 2 of 4 items split -> one more assignment of the HIT
      ['a', 'yes', 'no'],
      ['b', 'no', 'yes'],
      ['c', 'yes', 'yes'],
      ['d', 'no', 'no'],
      // HIT 1: 1 of 4 splits -> that item goes to a new HIT
      ['e', 'yes', 'no'],
      ['f', 'no', 'no'],
      ['g', 'no', 'no'],
      ['h', 'yes', 'yes'],
      // HIT 2: every item agrees -> done with two
      ['i', 'no', 'no'],
    ]);
    const targets = voteTargets(adaptive, valid);
    expect(targetOf(targets, item('a'))).toBe(3);
    expect(targetOf(targets, item('c'))).toBe(2);
    const validVotes = new Map<string, number>();
    for (const v of valid) validVotes.set(v.item, (validVotes.get(v.item) ?? 0) + 1);
    const hits = [doneHit(0, ['a', 'b', 'c', 'd']), doneHit(1, ['e', 'f', 'g', 'h']), doneHit(2, ['i'])];
    const plan = planFollowUp({
      hits: hits.map((hit) => ({ hit, stored: 2, unreviewed: 0 })),
      validVotes,
      ...targets,
      platformNow: NOW,
    });
    expect(plan.extensions).toEqual([{ hitId: 'b|0', extra: 1, newMaxAssignments: 3, capped: false }]);
    expect(plan.stuck.map((s) => [s.item, s.missing])).toEqual([[item('e'), 1]]);
    expect(plan.done).toEqual(['b|1', 'b|2']);
    expect(plan.itemsComplete).toBe(false);
  });

  it('finds every item complete once its split got its third vote', () => {
    const valid = [...votes([['a', 'yes', 'no']]), { item: item('a'), worker: 'w3', label: 'yes' as const }, ...votes([['c', 'no', 'no']])];
    const validVotes = new Map([
      [item('a'), 3],
      [item('c'), 2],
    ]);
    const plan = planFollowUp({
      hits: [{ hit: doneHit(0, ['a', 'c']), stored: 3, unreviewed: 0 }],
      validVotes,
      ...voteTargets(adaptive, valid),
      platformNow: NOW,
    });
    expect(plan).toMatchObject({ extensions: [], stuck: [], itemsComplete: true });
  });

  describe('recollect: lost votes collected again only where they can change the majority', () => {
    const fixed = (recollect: 'when-undecided' | 'always') => ({ redundancy: 'fixed' as const, voteTarget: 3, recollect });
    // each HIT of 3 assignments lost one (discarded): two valid votes per item remain
    const valid = votes([
      // HIT 0: every item's two votes agree
      ['a', 'yes', 'yes'],
      ['b', 'no', 'no'],
      // HIT 1: one item split
      ['c', 'no', 'no'],
      ['d', 'yes', 'no'],
    ]);
    const validVotes = new Map(valid.map((v) => [v.item, 2]));
    const hits = [doneHit(0, ['a', 'b']), doneHit(1, ['c', 'd'])].map((hit) => ({
      hit: { ...hit, maxAssignments: 3, platform: { ...hit.platform!, maxAssignments: 3, completed: 3 } },
      stored: 3,
      unreviewed: 0,
    }));
    const plan = (settings: ReturnType<typeof fixed>) =>
      planFollowUp({ hits, validVotes, ...voteTargets(settings, valid), collect: collectTargets(settings, valid), platformNow: NOW });

    it('extends only the HIT with an undecided item under when-undecided, every HIT under always', () => {
      const undecided = plan(fixed('when-undecided'));
      expect(undecided.extensions).toEqual([{ hitId: 'b|1', extra: 1, newMaxAssignments: 4, capped: false }]);
      expect(undecided.done).toEqual(['b|0']);
      expect(undecided.itemsComplete).toBe(false);
      expect(plan(fixed('always')).extensions.map((e) => e.hitId)).toEqual(['b|0', 'b|1']);
      // batches published before the setting collected every lost vote
      expect(collectTargets({ voteTarget: 3 }, valid)).toEqual(voteTargets({ voteTarget: 3 }, valid));
    });

    it('counts a decided item complete, an undecided one not, and every item by its planned target under always', () => {
      const complete = completeItems(fixed('when-undecided'), valid);
      expect([item('a'), item('d')].map((i) => complete(i, 2))).toEqual([true, false]);
      expect(completeItems(fixed('always'), valid)(item('a'), 2)).toBe(false);
      const after = planFollowUp({
        hits: hits.slice(0, 1),
        validVotes,
        ...voteTargets(fixed('when-undecided'), valid),
        collect: collectTargets(fixed('when-undecided'), valid),
        platformNow: NOW,
      });
      expect(after).toMatchObject({ extensions: [], stuck: [], itemsComplete: true, done: ['b|0'] });
    });

    it('waits for outstanding work before asking (never an extra assignment for slowness)', () => {
      // one assignment discarded, one valid vote per item, one still being worked on: it may decide them
      const lone = votes([['e', 'yes', 'yes']]).slice(0, 1);
      const open = { ...doneHit(2, ['e']), maxAssignments: 3 };
      open.platform = { ...open.platform!, status: 'Assignable', maxAssignments: 3, pending: 1, completed: 2 };
      const settings = fixed('when-undecided');
      const waiting = planFollowUp({
        hits: [{ hit: open, stored: 2, unreviewed: 0 }],
        validVotes: new Map([[item('e'), 1]]),
        ...voteTargets(settings, lone),
        collect: collectTargets(settings, lone),
        platformNow: NOW,
      });
      expect(waiting).toMatchObject({ extensions: [], stuck: [], done: [], stop: [] });
    });
  });
});
