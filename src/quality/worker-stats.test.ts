import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { scoreAssignments } from './counted-votes.js';
import type { AssignmentRecord, HitRecord } from './types.js';
import { median, workerStatistics } from './worker-stats.js';

type YN = 'yes' | 'no';

/** 4 HITs of 3 real items + one check of each polarity; truth of real item n: yes when n is even. */
const hits: HitRecord[] = Array.from({ length: 4 }, (_, h) => ({
  hitId: `H${h}`,
  items: [0, 1, 2].map((n) => `i${h * 3 + n}`),
  checks: [
    { item: `gy${h}`, expected: 'yes' },
    { item: `gn${h}`, expected: 'no' },
  ],
}));
const truth = (item: string): YN => (Number(item.slice(1)) % 2 === 0 ? 'yes' : 'no');

function work(
  worker: string,
  h: number,
  answer: (item: string, expected: YN) => YN,
  extra: Partial<AssignmentRecord> = {},
): AssignmentRecord {
  const hit = hits[h]!;
  const answers = [
    ...hit.items.map((item) => ({ item, label: answer(item, truth(item)) })),
    ...hit.checks.map((c) => ({ item: c.item, label: answer(c.item, c.expected) })),
  ];
  return { assignmentId: `${worker}-${h}`, hitId: hit.hitId, worker, status: 'approved', answers, workTimeMs: 5 * 30_000, ...extra };
}

const honest = (_: string, expected: YN) => expected;
const flip = (label: YN): YN => (label === 'yes' ? 'no' : 'yes');

function scenario(): AssignmentRecord[] {
  const out: AssignmentRecord[] = [];
  for (let h = 0; h < 4; h++) {
    out.push(work('alice', h, honest));
    out.push(work('bob', h, honest));
    out.push(work('carol', h, (item, e) => (item === 'i7' ? flip(e) : e)));
    out.push(work('yes-man', h, () => 'yes', { status: h < 2 ? 'rejected' : 'approved', discarded: h >= 2, workTimeMs: 5 * 3_000 }));
  }
  out.push(work('contrarian', 0, (item, e) => (item.startsWith('g') ? e : flip(e)), { status: 'submitted' }));
  out.push(work('contrarian', 1, (item, e) => (item.startsWith('g') ? e : flip(e)), { status: 'submitted' }));
  return out;
}

describe('worker statistics', () => {
  const stats = workerStatistics(scoreAssignments(scenario(), hits));
  const of = (worker: string) => stats.find((s) => s.worker === worker)!;

  it('lists every worker once, sorted', () => {
    expect(stats.map((s) => s.worker)).toEqual(['alice', 'bob', 'carol', 'contrarian', 'yes-man']);
  });

  it('counts assignments by outcome', () => {
    expect(of('alice').assignments).toEqual({ submitted: 4, pendingReview: 0, approved: 4, discarded: 0, rejected: 0, counted: 4 });
    expect(of('yes-man').assignments).toEqual({ submitted: 4, pendingReview: 0, approved: 0, discarded: 2, rejected: 2, counted: 0 });
    expect(of('contrarian').assignments).toMatchObject({ submitted: 2, pendingReview: 2, counted: 2 });
  });

  it('reports attention checks by polarity: the always-yes worker fails every "no" check', () => {
    expect(of('yes-man').checks).toEqual({
      total: 8,
      passed: 4,
      passRate: 0.5,
      byPolarity: { yes: { total: 4, passed: 4, passRate: 1 }, no: { total: 4, passed: 0, passRate: 0 } },
    });
    expect(of('alice').checks.passRate).toBe(1);
  });

  it('measures agreement with the leave-one-out majority of valid votes', () => {
    // on i7 alice's others are bob (right) and carol (wrong): a tie, skipped
    expect(of('alice').agreement).toEqual({ compared: 11, agreed: 11, rate: 1, skippedTies: 1, skippedNoOthers: 0 });
    // carol is wrong on i7 only, where alice and bob agree
    expect(of('carol').agreement).toMatchObject({ compared: 12, agreed: 11, skippedTies: 0 });
    // contrarian answers the opposite on all 6 real items it saw; others there are alice, bob, carol
    expect(of('contrarian').agreement).toEqual({ compared: 6, agreed: 0, rate: 0, skippedTies: 0, skippedNoOthers: 0 });
    // the yes-man's answers are compared although none of them counted
    expect(of('yes-man').agreement.compared).toBe(12);
    expect(of('yes-man').agreement.agreed).toBe(6);
  });

  it('skips items where the others tie or where nobody else voted', () => {
    const h: HitRecord = { hitId: 'T', items: ['t1', 't2'], checks: [] };
    const a = (worker: string, t1: YN, t2?: YN): AssignmentRecord => ({
      assignmentId: worker,
      hitId: 'T',
      worker,
      status: 'approved',
      answers: [{ item: 't1', label: t1 }, ...(t2 ? [{ item: 't2', label: t2 }] : [])],
    });
    const s = workerStatistics(scoreAssignments([a('x', 'yes', 'no'), a('y', 'yes'), a('z', 'no')], [h]));
    expect(s.find((w) => w.worker === 'x')!.agreement).toEqual({ compared: 0, agreed: 0, rate: null, skippedTies: 1, skippedNoOthers: 1 });
  });

  it('takes the median time per item from per-item times, else from work time', () => {
    expect(of('alice').medianMsPerItem).toBe(30_000);
    expect(of('yes-man').medianMsPerItem).toBe(3_000);
    const h: HitRecord = { hitId: 'T', items: ['t1', 't2', 't3'], checks: [] };
    const timed: AssignmentRecord = {
      assignmentId: 'a',
      hitId: 'T',
      worker: 'w',
      status: 'approved',
      workTimeMs: 999_000,
      answers: [
        { item: 't1', label: 'yes', timeMs: 20_000 },
        { item: 't2', label: 'no', timeMs: 40_000 },
        { item: 't3', label: 'no', timeMs: 90_000 },
      ],
    };
    expect(workerStatistics(scoreAssignments([timed], [h]))[0]!.medianMsPerItem).toBe(40_000);
    const untimed = { ...timed, workTimeMs: undefined, answers: timed.answers.map(({ item, label }) => ({ item, label })) };
    expect(workerStatistics(scoreAssignments([untimed], [h]))[0]!.medianMsPerItem).toBeNull();
  });

  it('flags the always-same answer, the fast, the low-agreement and the check-failing worker', () => {
    expect(of('alice').flags).toEqual([]);
    expect(of('carol').flags).toEqual([]);
    expect(of('yes-man').flags).toEqual(['always-same-answer', 'fast', 'low-agreement', 'low-check-pass-rate']);
    expect(of('contrarian').flags).toEqual(['low-agreement']);
  });

  it('takes other thresholds', () => {
    const strict = workerStatistics(scoreAssignments(scenario(), hits), { lowAgreement: 0.95, fastMsPerItem: 60_000 });
    expect(strict.find((s) => s.worker === 'carol')!.flags).toEqual(['fast', 'low-agreement']);
    expect(() => workerStatistics([], { fastMsPerItem: -1 })).toThrow(UserError);
    expect(() => workerStatistics([], { fastMsPerItem: Number.NaN })).toThrow('thresholds.fastMsPerItem: null is not a finite number >= 0');
  });

  it('returns nothing for no assignments', () => {
    expect(workerStatistics([])).toEqual([]);
  });

  it('computes medians', () => {
    expect(median([])).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
