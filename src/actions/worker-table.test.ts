import { describe, expect, it } from 'vitest';
import type { AssignmentDoc, HitDoc } from '../db/models/index.js';
import type { WorkerStats } from '../quality/index.js';
import { sortAndFilter, stopHistory, workerAnswers, workerTable, type StopAuditEntry } from './worker-table.js';

function stats(worker: string, over: Partial<WorkerStats> = {}): WorkerStats {
  return {
    worker,
    assignments: { submitted: 2, pendingReview: 0, approved: 2, discarded: 0, rejected: 0, counted: 2 },
    answers: { total: 10, yes: 5, no: 5 },
    checks: {
      total: 2,
      passed: 2,
      passRate: 1,
      byPolarity: { yes: { total: 1, passed: 1, passRate: 1 }, no: { total: 1, passed: 1, passRate: 1 } },
    },
    agreement: { compared: 8, agreed: 6, rate: 0.75, skippedTies: 0, skippedNoOthers: 0 },
    medianMsPerItem: 24_840,
    flags: [],
    ...over,
  };
}

describe('workerTable', () => {
  it('leaves blocks and qualification scores unknown (null) when the platform did not answer', () => {
    const rows = workerTable({
      stats: [stats('A')],
      blocks: null,
      scores: null,
      bonuses: [{ workerId: 'A', amountCents: 50, state: 'paid' }],
    });
    expect(rows[0]).toMatchObject({ blocked: null, blockReason: null, qualifications: null, bonuses: { count: 1, cents: 50 } });
    expect(sortAndFilter(rows, { flag: 'blocked' })).toEqual([]);
  });

  it('joins statistics with blocks, qualification scores and paid bonuses', () => {
    const rows = workerTable({
      stats: [stats('A'), stats('B', { flags: ['fast'] })],
      blocks: new Map([['B', 'spam']]),
      scores: new Map([['dream-exam', new Map([['A', 95]])]]),
      assignmentIds: new Map([['A', ['A-1', 'A-2']]]),
      bonuses: [
        { workerId: 'A', amountCents: 50, state: 'paid' },
        { workerId: 'A', amountCents: 25, state: 'paid' },
        { workerId: 'A', amountCents: 99, state: 'sending' },
      ],
    });
    expect(rows[0]).toMatchObject({
      workerId: 'A',
      worker: 'A',
      assignmentIds: ['A-1', 'A-2'],
      blocked: false,
      blockReason: null,
      qualifications: { 'dream-exam': 95 },
      bonuses: { count: 2, cents: 75 },
      medianSecondsPerItem: 24.8,
    });
    expect(rows[1]).toMatchObject({
      workerId: 'B',
      assignmentIds: [],
      blocked: true,
      blockReason: 'spam',
      qualifications: {},
      bonuses: { count: 0, cents: 0 },
      flags: ['fast'],
    });
  });
});

describe('sortAndFilter', () => {
  const rows = workerTable({
    stats: [
      stats('C', { agreement: { compared: 8, agreed: 4, rate: 0.5, skippedTies: 0, skippedNoOthers: 0 }, flags: ['low-agreement'] }),
      stats('A', { agreement: { compared: 8, agreed: 8, rate: 1, skippedTies: 0, skippedNoOthers: 0 } }),
      stats('B', { agreement: { compared: 0, agreed: 0, rate: null, skippedTies: 0, skippedNoOthers: 0 } }),
    ],
    blocks: new Map([['A', 'x']]),
    scores: new Map(),
    bonuses: [],
  });
  it('sorts by id by default and by a column either way (a missing value sorts lowest)', () => {
    expect(sortAndFilter(rows, {}).map((r) => r.workerId)).toEqual(['A', 'B', 'C']);
    expect(sortAndFilter(rows, { sort: 'agreement' }).map((r) => r.workerId)).toEqual(['B', 'C', 'A']);
    expect(sortAndFilter(rows, { sort: 'agreement', descending: true }).map((r) => r.workerId)).toEqual(['A', 'C', 'B']);
  });
  it('filters by a flag, by any flag, and by being blocked', () => {
    expect(sortAndFilter(rows, { flag: 'low-agreement' }).map((r) => r.workerId)).toEqual(['C']);
    expect(sortAndFilter(rows, { flag: 'flagged' }).map((r) => r.workerId)).toEqual(['C']);
    expect(sortAndFilter(rows, { flag: 'blocked' }).map((r) => r.workerId)).toEqual(['A']);
    expect(sortAndFilter(rows, { flag: 'fast' })).toEqual([]);
  });
});

describe('workerAnswers', () => {
  const hit = {
    _id: 'b|0',
    batch: 'b',
    index: 0,
    items: [
      { position: 0, kind: 'real', queryId: 'q1', chunkId: 'd1', key: 'k0' },
      { position: 1, kind: 'check', queryId: 'g1', chunkId: 'gd1', key: 'k1', expected: 'no' },
    ],
  } as unknown as HitDoc;
  const assignment = (id: string, worker: string, a0: 'yes' | 'no', a1: 'yes' | 'no', over: Partial<AssignmentDoc> = {}) =>
    ({
      _id: id,
      batch: 'b',
      hit: 'b|0',
      workerId: worker,
      submittedAt: new Date(0),
      reviewState: 'done',
      outcome: 'approved',
      review: { action: 'approve', countsVotes: true, reason: '', feedback: null, decidedAt: new Date(0) },
      answers: [
        { position: 0, key: 'k0', kind: 'real', item: 'b|q1:d1', answer: a0, difficult: true, comment: 'hard one', ms: 12_345 },
        { position: 1, key: 'k1', kind: 'check', item: 'check|g1:gd1', answer: a1, difficult: false, comment: '', ms: null },
      ],
      ...over,
    }) as unknown as AssignmentDoc;

  it("puts each answer next to the item's final label or the check's known answer", () => {
    const rows = workerAnswers(
      'W',
      [hit],
      [assignment('A1', 'W', 'yes', 'yes'), assignment('A2', 'X', 'no', 'no')],
      new Map([['b|q1:d1', 'no' as const]]),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        assignmentId: 'A1',
        kind: 'real',
        queryId: 'q1',
        chunkId: 'd1',
        answer: 'yes',
        expected: 'no',
        agrees: false,
        difficult: true,
        comment: 'hard one',
        seconds: 12.3,
        review: 'approved',
      }),
      expect.objectContaining({
        assignmentId: 'A1',
        kind: 'check',
        queryId: 'g1',
        answer: 'yes',
        expected: 'no',
        agrees: false,
        seconds: null,
      }),
    ]);
  });

  it('shows the review as decided, discarded, pending or overridden', () => {
    const discarded = assignment('A1', 'W', 'no', 'no', {
      review: { action: 'approve-and-discard', countsVotes: false, reason: '', feedback: null, decidedAt: new Date(0) },
    });
    expect(workerAnswers('W', [hit], [discarded], new Map())[0]).toMatchObject({
      review: 'approved, discarded',
      expected: null,
      agrees: null,
    });
    expect(workerAnswers('W', [hit], [assignment('A1', 'W', 'no', 'no', { reviewState: 'pending' })], new Map())[0]!.review).toBe(
      'pending',
    );
    expect(
      workerAnswers(
        'W',
        [hit],
        [assignment('A1', 'W', 'no', 'no', { override: { decision: 'approve', reason: 'r', who: 'me', at: new Date(0) } })],
        new Map(),
      )[0]!.review,
    ).toBe('override: approve');
  });
});

describe('stopHistory: the stops of quality control, lifted or not, from the audit log', () => {
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute));
  const stop = (worker: string, minute: number, cause?: string): StopAuditEntry => ({
    action: 'soft-block',
    subject: worker,
    at: at(minute),
    reason: `stopped at ${minute}`,
    details: cause ? { cause } : {},
  });
  const lift = (worker: string, minute: number): StopAuditEntry => ({
    action: 'unblock',
    subject: worker,
    at: at(minute),
    reason: `lifted at ${minute}`,
    details: {},
  });

  it('pairs each stop with the lift that follows it, in time order whatever the order of the entries', () => {
    const history = stopHistory([lift('A', 3), stop('A', 5, 'drift'), stop('A', 1, 'llm-assisted'), stop('B', 2)]);
    expect(history.get('A')).toEqual([
      { at: at(1).toISOString(), cause: 'llm-assisted', reason: 'stopped at 1', liftedAt: at(3).toISOString(), liftReason: 'lifted at 3' },
      { at: at(5).toISOString(), cause: 'drift', reason: 'stopped at 5', liftedAt: null, liftReason: null },
    ]);
    // an entry without a cause is a stop for not working, as the decisions record it by default
    expect(history.get('B')).toEqual([
      { at: at(2).toISOString(), cause: 'not-working', reason: 'stopped at 2', liftedAt: null, liftReason: null },
    ]);
  });

  it('counts neither an unblock without an open stop nor a second stop while one holds', () => {
    const history = stopHistory([lift('C', 1), stop('D', 1), stop('D', 2), lift('D', 3), lift('D', 4)]);
    expect(history.has('C')).toBe(false);
    expect(history.get('D')).toHaveLength(1);
    expect(history.get('D')![0]!.liftedAt).toBe(at(3).toISOString());
  });

  it("takes a person's revoke of the soft block's qualification as a lift, and no other revoke", () => {
    const revoke = (worker: string, minute: number, qualification: string): StopAuditEntry => ({
      action: 'revoke',
      subject: worker,
      at: at(minute),
      reason: 'revoked by the requester',
      details: { qualification, qualificationTypeId: 'T1', value: null },
    });
    const history = stopHistory([
      stop('E', 1),
      revoke('E', 2, 'qrelay-blocked'),
      stop('F', 1),
      revoke('F', 2, 'qrelay-hit-routing'),
      stop('G', 1),
      revoke('G', 2, 'relevance-test'),
      revoke('H', 1, 'qrelay-blocked'),
    ]);
    expect(history.get('E')).toEqual([
      {
        at: at(1).toISOString(),
        cause: 'not-working',
        reason: 'stopped at 1',
        liftedAt: at(2).toISOString(),
        liftReason: 'revoked by the requester',
      },
    ]);
    expect(history.get('F')![0]!.liftedAt).toBe(at(2).toISOString());
    expect(history.get('G')![0]!.liftedAt).toBeNull();
    expect(history.has('H')).toBe(false);
  });

  it('gives every row its stops, and none to a worker never stopped', () => {
    const rows = workerTable({
      stats: [stats('A'), stats('B')],
      blocks: new Map(),
      scores: null,
      bonuses: [],
      stops: stopHistory([stop('A', 1), lift('A', 2)]),
    });
    expect(rows.map((r) => [r.workerId, r.stops.length, r.blocked])).toEqual([
      ['A', 1, false],
      ['B', 0, false],
    ]);
  });
});
