import { describe, expect, it } from 'vitest';
import { countedVotes, scoreAssignments } from './counted-votes.js';
import type { AssignmentRecord, HitRecord } from './types.js';

const hit: HitRecord = { hitId: 'H1', items: ['r1'], checks: [{ item: 'g1', expected: 'yes' }] };
const assignment = (worker: string, check: 'yes' | 'no', extra: Partial<AssignmentRecord> = {}): AssignmentRecord => ({
  assignmentId: `A-${worker}`,
  hitId: 'H1',
  worker,
  status: 'approved',
  answers: [
    { item: 'r1', label: 'yes' },
    { item: 'g1', label: check },
  ],
  ...extra,
});

describe("a person's review override", () => {
  it('counts a failed or discarded assignment approved by hand', () => {
    const scored = scoreAssignments(
      [assignment('failed', 'no', { discarded: true, overridden: 'counts' }), assignment('plain-failed', 'no', { discarded: true })],
      [hit],
    );
    expect(scored.map((s) => s.counts)).toEqual([true, false]);
    expect(countedVotes(scored)).toEqual([{ item: 'r1', worker: 'failed', label: 'yes' }]);
  });
  it('excludes a passing assignment rejected by hand, and never counts a rejection', () => {
    const scored = scoreAssignments(
      [
        assignment('passed', 'yes', { overridden: 'excluded' }),
        assignment('rejected', 'yes', { status: 'rejected', overridden: 'counts' }),
      ],
      [hit],
    );
    expect(scored.map((s) => s.counts)).toEqual([false, false]);
  });
});
