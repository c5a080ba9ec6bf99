import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { scoreAssignments, type AssignmentRecord, type HitRecord } from '../quality/index.js';
import type { ArmName } from './compare.js';
import { armObservations } from './observations.js';

const hit: HitRecord = { hitId: 'h1', items: ['b|i1', 'b|i2'], checks: [{ item: 'check|c1', expected: 'no' }] };

function assignment(id: string, worker: string, labels: [Judgment, Judgment, Judgment], workTimeMs?: number): AssignmentRecord {
  return {
    assignmentId: id,
    hitId: 'h1',
    worker,
    status: 'approved',
    answers: [
      { item: 'b|i1', label: labels[0] },
      { item: 'b|i2', label: labels[1] },
      { item: 'check|c1', label: labels[2] },
    ],
    ...(workTimeMs !== undefined && { workTimeMs }),
  };
}

const arms: Record<string, ArmName> = { wd: 'debate', wn: 'no-debate' };
const armOf = (w: string): ArmName | undefined => arms[w];

describe('armObservations', () => {
  const scored = scoreAssignments(
    [
      assignment('a1', 'wd', ['yes', 'no', 'no'], 90_000),
      // failed its check: its answers are the worker's all the same
      assignment('a2', 'wn', ['no', 'no', 'yes'], 30_000),
      assignment('a3', 'wx', ['yes', 'yes', 'no'], 1_000),
    ],
    [hit],
  );

  it('gives both arms, debate first, each with every check answer, item answer and work time of its workers', () => {
    expect(scored.map((s) => s.counts)).toEqual([true, false, true]);
    const [debate, noDebate] = armObservations(scored, armOf);
    expect(debate).toEqual({
      arm: 'debate',
      checks: [{ workerId: 'wd', expected: false, answer: false }],
      votes: [
        { itemId: 'b|i1', workerId: 'wd', answer: true },
        { itemId: 'b|i2', workerId: 'wd', answer: false },
      ],
      seconds: [{ workerId: 'wd', items: 3, seconds: 90 }],
    });
    // an assignment that does not count still measures its worker, on the checks and on the items
    expect(noDebate).toEqual({
      arm: 'no-debate',
      checks: [{ workerId: 'wn', expected: false, answer: true }],
      votes: [
        { itemId: 'b|i1', workerId: 'wn', answer: false },
        { itemId: 'b|i2', workerId: 'wn', answer: false },
      ],
      seconds: [{ workerId: 'wn', items: 3, seconds: 30 }],
    });
  });

  it('takes a worker’s first answer on an item only, however many HITs carried it', () => {
    const again: HitRecord = { hitId: 'h2', items: ['b|i1'], checks: [{ item: 'check|c2', expected: 'yes' }] };
    const twice = scoreAssignments(
      [
        assignment('a1', 'wd', ['yes', 'no', 'no']),
        {
          assignmentId: 'a5',
          hitId: 'h2',
          worker: 'wd',
          status: 'approved',
          answers: [
            { item: 'b|i1', label: 'no' },
            { item: 'check|c2', label: 'yes' },
          ],
        },
      ],
      [hit, again],
    );
    const [debate] = armObservations(twice, armOf);
    expect(debate!.votes).toEqual([
      { itemId: 'b|i1', workerId: 'wd', answer: true },
      { itemId: 'b|i2', workerId: 'wd', answer: false },
    ]);
    expect(debate!.checks).toEqual([
      { workerId: 'wd', expected: false, answer: false },
      { workerId: 'wd', expected: true, answer: true },
    ]);
  });

  it('leaves out workers in no arm, and work times not known', () => {
    const noTime = scoreAssignments([assignment('a4', 'wd', ['yes', 'yes', 'no'])], [hit]);
    const [debate, noDebate] = armObservations(noTime, armOf);
    expect(debate!.seconds).toEqual([]);
    expect(debate!.checks).toHaveLength(1);
    expect(debate!.votes).toHaveLength(2);
    expect(noDebate).toEqual({ arm: 'no-debate', checks: [], votes: [], seconds: [] });
    expect(armObservations(scored, () => undefined).map((a) => a.checks.length + a.votes.length + a.seconds.length)).toEqual([0, 0]);
  });
});
