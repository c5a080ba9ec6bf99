import { describe, expect, it } from 'vitest';
import type { WorkerRow } from '../actions/worker-table.js';
import { workerRowView } from './view-model.js';

/** The console's workers table and worker page show the cross-batch reputation (src/pipeline/reputation.ts). */

const row: WorkerRow = {
  workerId: 'W1',
  worker: 'W1',
  assignments: { submitted: 2, counted: 2, discarded: 0, rejected: 0, pendingReview: 0 },
  assignmentIds: ['A1', 'A2'],
  answers: 20,
  checks: { total: 2, passed: 2, passRate: 1, byPolarity: { yes: { total: 1, passed: 1 }, no: { total: 1, passed: 1 } } },
  agreement: { compared: 18, agreed: 16, rate: 16 / 18 },
  medianSecondsPerItem: 40,
  flags: [],
  blocked: false,
  blockReason: null,
  qualifications: {},
  bonuses: { count: 0, cents: 0 },
} as unknown as WorkerRow; // the statistics' nested shapes are not what this test is about

describe('workerRowView reputation', () => {
  it('shows the score with its reason as the title', () => {
    const v = workerRowView('b1', { ...row, reputation: { score: 72, reason: '26 of 28 answers right' } });
    expect(v).toMatchObject({ reputation: '72', reputationReason: '26 of 28 answers right' });
  });

  it('says n/a for a row without one', () => {
    expect(workerRowView('b1', row)).toMatchObject({ reputation: 'n/a', reputationReason: '' });
  });
});
