import { describe, expect, it } from 'vitest';
import type { Vote } from '../aggregate/votes.js';
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
      assignment('a2', 'wn', ['no', 'no', 'yes'], 30_000),
      assignment('a3', 'wx', ['yes', 'yes', 'no'], 1_000),
    ],
    [hit],
  );
  const used: Vote<Judgment>[] = [
    { item: 'b|i1', worker: 'wd', label: 'yes' },
    { item: 'b|i2', worker: 'wd', label: 'no' },
    { item: 'b|i1', worker: 'wx', label: 'yes' },
  ];

  it('gives both arms, debate first, each with its workers’ checks, used votes and work times', () => {
    const [debate, noDebate] = armObservations(scored, used, armOf);
    expect(debate).toEqual({
      arm: 'debate',
      checks: [{ workerId: 'wd', expected: false, answer: false }],
      votes: [
        { itemId: 'b|i1', workerId: 'wd', answer: true },
        { itemId: 'b|i2', workerId: 'wd', answer: false },
      ],
      seconds: [{ workerId: 'wd', items: 3, seconds: 90 }],
    });
    // a failed check still measures the worker; votes not among the used ones are not counted
    expect(noDebate).toEqual({
      arm: 'no-debate',
      checks: [{ workerId: 'wn', expected: false, answer: true }],
      votes: [],
      seconds: [{ workerId: 'wn', items: 3, seconds: 30 }],
    });
  });

  it('leaves out workers in no arm, and work times not known', () => {
    const noTime = scoreAssignments([assignment('a4', 'wd', ['yes', 'yes', 'no'])], [hit]);
    const [debate, noDebate] = armObservations(noTime, [], armOf);
    expect(debate!.seconds).toEqual([]);
    expect(debate!.checks).toHaveLength(1);
    expect(noDebate).toEqual({ arm: 'no-debate', checks: [], votes: [], seconds: [] });
    expect(armObservations(scored, used, () => undefined).map((a) => a.checks.length + a.votes.length + a.seconds.length)).toEqual([0, 0]);
  });
});
