import { describe, expect, it } from 'vitest';
import type { HitDoc, PlatformHitView } from '../db/models/index.js';
import type { PlannedItem } from '../hits/index.js';
import { isOpen, outstanding, planFollowUp, votesOn, type HitProgress } from './follow-up.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const key = (n: number) => n.toString(16).padStart(16, '0');

function hit(index: number, realIds: string[], over: Partial<HitDoc> = {}, platform: Partial<PlatformHitView> | null = {}): HitDoc {
  const items: PlannedItem[] = realIds.map((id, i) => ({
    kind: 'real',
    position: i + 1,
    key: key(index * 100 + i),
    queryId: 'q',
    chunkId: id,
    dataset: 'd',
  }));
  items.push({
    kind: 'check',
    position: items.length + 1,
    key: key(index * 100 + 99),
    queryId: 'g',
    chunkId: `g${index}`,
    dataset: 'd',
    expected: 'no',
  });
  const max = over.maxAssignments ?? 3;
  return {
    _id: `b|${index}`,
    batch: 'b',
    index,
    origin: 'plan',
    items,
    realItems: realIds.length,
    checks: 1,
    bytes: 1000,
    questionSha256: '0'.repeat(64),
    maxAssignments: max,
    state: 'published',
    attempt: 0,
    requestToken: 't',
    tokenRecordedAt: new Date(NOW),
    hitId: `H${index}`,
    hitTypeId: 'T',
    publishedAt: new Date(NOW),
    extensions: 0,
    pendingExtension: null,
    platform:
      platform === null
        ? null
        : {
            status: 'Reviewable',
            maxAssignments: max,
            available: 0,
            pending: 0,
            completed: max,
            expiration: new Date(NOW + 3600_000),
            checkedAt: new Date(NOW),
            ...platform,
          },
    lastError: null,
    ...over,
  };
}

const item = (id: string) => `b|q:${id}`;
const progress = (h: HitDoc, stored: number, unreviewed = 0): HitProgress => ({ hit: h, stored, unreviewed });

describe('outstanding work of a HIT', () => {
  it('counts open slots, accepted work, and submissions we have not reconciled yet', () => {
    const h = hit(0, ['a'], {}, { status: 'Assignable', maxAssignments: 4, available: 1, pending: 1 });
    expect(outstanding(progress(h, 1), NOW)).toBe(3); // 1 available + 1 pending + 1 submitted but not held
    expect(outstanding(progress(h, 2), NOW)).toBe(2);
  });

  it('does not count open slots of an expired HIT, by the platform clock', () => {
    const h = hit(0, ['a'], {}, { status: 'Reviewable', maxAssignments: 3, available: 2, pending: 1, expiration: new Date(NOW - 1) });
    expect(isOpen(h, NOW)).toBe(false);
    expect(outstanding(progress(h, 0), NOW)).toBe(1);
    expect(isOpen(hit(1, ['a'], { state: 'expired' }), NOW)).toBe(false);
    // free slots that are not Assignable: the platform expired it, whatever our clock says
    expect(isOpen(hit(3, ['a'], {}, { status: 'Reviewable', available: 1, expiration: new Date(NOW + 3600_000) }), NOW)).toBe(false);
    expect(isOpen(hit(2, ['a']), NOW)).toBe(true);
  });

  it('takes a HIT never looked at as owing what we do not hold', () => {
    expect(outstanding(progress(hit(0, ['a'], {}, null), 1), NOW)).toBe(2);
  });
});

describe('votesOn', () => {
  it("keeps the valid votes of the HITs' items alone, items without votes left out", () => {
    const valid = new Map([
      ['a', 2],
      ['b', 1],
      ['c', 3],
    ]);
    expect(votesOn([{ items: ['a', 'x'] }, { items: ['b', 'a'] }], valid)).toEqual(
      new Map([
        ['a', 2],
        ['b', 1],
      ]),
    );
    expect(votesOn([], valid)).toEqual(new Map());
  });
});

describe('planFollowUp', () => {
  it('extends a HIT whose item lost a vote, by what its neediest item lacks', () => {
    const plan = planFollowUp({
      hits: [progress(hit(0, ['a', 'b']), 3), progress(hit(1, ['c']), 3)],
      validVotes: new Map([
        [item('a'), 2],
        [item('b'), 1],
        [item('c'), 3],
      ]),
      target: 3,
      platformNow: NOW,
    });
    expect(plan.extensions).toEqual([{ hitId: 'b|0', extra: 2, newMaxAssignments: 5, capped: false }]);
    expect(plan.done).toEqual(['b|1']);
    expect(plan.itemsComplete).toBe(false);
    expect(plan.idle).toEqual(['b|0', 'b|1']);
  });

  it('never takes a HIT from 9 to 10 assignments: the rest of its items are stuck', () => {
    const h = hit(0, ['a'], { maxAssignments: 9 }, { maxAssignments: 9, completed: 9 });
    const plan = planFollowUp({ hits: [progress(h, 9)], validVotes: new Map([[item('a'), 1]]), target: 3, platformNow: NOW });
    expect(plan.extensions).toEqual([]);
    expect(plan.stuck).toEqual([expect.objectContaining({ item: item('a'), missing: 2 })]);
    expect(plan.done).toEqual(['b|0']);
  });

  it('reports the items of an expired HIT as stuck instead of extending it', () => {
    const h = hit(0, ['a', 'b'], {}, { status: 'Reviewable', available: 2, pending: 0, completed: 1, expiration: new Date(NOW - 1000) });
    const plan = planFollowUp({ hits: [progress(h, 1)], validVotes: new Map([[item('a'), 1]]), target: 3, platformNow: NOW });
    expect(plan.extensions).toEqual([]);
    expect(plan.stuck.map((s) => [s.item, s.missing])).toEqual([
      [item('a'), 2],
      [item('b'), 3],
    ]);
  });

  it('waits for accepted work instead of asking twice', () => {
    const h = hit(0, ['a'], {}, { status: 'Unassignable', available: 0, pending: 1, completed: 2 });
    const plan = planFollowUp({ hits: [progress(h, 2)], validVotes: new Map([[item('a'), 2]]), target: 3, platformNow: NOW });
    expect(plan.extensions).toEqual([]);
    expect(plan.stuck).toEqual([]);
    expect(plan.done).toEqual([]);
    expect(plan.idle).toEqual([]);
  });

  it('stops an open HIT whose items all have their votes, and finishes it once quiet', () => {
    const open = hit(0, ['a'], { maxAssignments: 4 }, { status: 'Assignable', maxAssignments: 4, available: 1, pending: 0 });
    const votes = new Map([[item('a'), 3]]);
    expect(planFollowUp({ hits: [progress(open, 3)], validVotes: votes, target: 3, platformNow: NOW })).toMatchObject({
      stop: ['b|0'],
      done: [],
      itemsComplete: true,
    });
    const stopped = hit(
      0,
      ['a'],
      { maxAssignments: 4 },
      { status: 'Reviewable', maxAssignments: 4, available: 1, pending: 0, expiration: new Date(NOW - 1) },
    );
    expect(planFollowUp({ hits: [progress(stopped, 3)], validVotes: votes, target: 3, platformNow: NOW })).toMatchObject({
      stop: [],
      done: ['b|0'],
    });
  });

  it('keeps a HIT with unreviewed assignments busy, and notes HITs not created yet', () => {
    const plan = planFollowUp({
      hits: [progress(hit(0, ['a']), 3, 1), progress(hit(1, ['b'], { state: 'planned', hitId: null }, null), 0)],
      validVotes: new Map([
        [item('a'), 3],
        [item('b'), 0],
      ]),
      target: 3,
      platformNow: NOW,
    });
    expect(plan.done).toEqual([]);
    expect(plan.idle).toEqual([]);
    expect(plan.unsent).toBe(true);
    expect(plan.active).toBe(1);
  });
});
