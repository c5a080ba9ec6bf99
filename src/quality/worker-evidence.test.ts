import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { scoreAssignments } from './counted-votes.js';
import { hitWithChecks, submittedAssignment } from './test-records.js';
import type { AssignmentRecord, HitRecord } from './types.js';
import { answerOutcomes, workerEvidence } from './worker-evidence.js';
import { itemAnswers, weightedReferences } from './worker-model.js';

const hit = hitWithChecks(['r1', 'r2', 'r3']);

const assignment = (worker: string, labels: Record<string, Judgment>, ms?: number, extra: Partial<AssignmentRecord> = {}) =>
  submittedAssignment(worker, labels, { ...(ms !== undefined && { ms }), extra });

const evidenceOf = (assignments: AssignmentRecord[], excluded?: Set<string>) =>
  workerEvidence(scoreAssignments(assignments, [hit]), excluded);

describe('workerEvidence', () => {
  const a = assignment('A', { r1: 'yes', r2: 'no', r3: 'yes', g1: 'yes', g2: 'no' }, 40_000);
  const b = assignment('B', { r1: 'yes', r2: 'no', r3: 'no', g1: 'yes', g2: 'no' }, 50_000);
  const c = assignment('C', { r1: 'yes', r2: 'yes', r3: 'no', g1: 'yes', g2: 'yes' }, 10_000);

  it('counts the assignments the evidence comes from, excluded workers too', () => {
    const second = { ...a, assignmentId: 'A-A-2' };
    const e = evidenceOf([a, second, b, c], new Set(['A']));
    expect(e.get('A')!.assignments).toBe(2);
    expect(e.get('B')!.assignments).toBe(1);
  });

  it('takes every check with its known answer, both polarities, passed or not', () => {
    const e = evidenceOf([a, b, c]);
    expect(e.get('C')!.checks).toEqual([
      { expected: 'yes', answer: 'yes' },
      { expected: 'no', answer: 'yes' },
    ]);
    expect(e.get('A')!.checks).toEqual([
      { expected: 'yes', answer: 'yes' },
      { expected: 'no', answer: 'no' },
    ]);
  });

  it('counts a check a worker meets again (in another HIT) once: the first answer', () => {
    const other: HitRecord = { hitId: 'H2', items: ['r4'], checks: [{ item: 'g1', expected: 'yes' }] };
    // in submission order, as the pipeline gives them (votes.ts)
    const first = assignment('D', { r1: 'yes', g1: 'no', g2: 'no' });
    const again = { ...assignment('D', { r4: 'yes', g1: 'yes' }), assignmentId: 'A-D2', hitId: 'H2' };
    const e = workerEvidence(scoreAssignments([first, again], [hit, other]));
    expect(e.get('D')!.checks).toEqual([
      { expected: 'yes', answer: 'no' },
      { expected: 'no', answer: 'no' },
    ]);
  });

  it('compares each real answer with the majority of the other workers, leaving ties out', () => {
    const e = evidenceOf([a, b, c]);
    // A: r1 others yes,yes -> yes; r2 others no,yes -> tie; r3 others no,no -> no
    expect(e.get('A')!.compared).toEqual([
      { reference: 'yes', answer: 'yes' },
      { reference: 'no', answer: 'yes' },
    ]);
    // C: r1 yes; r2 no,no -> no; r3 yes,no -> tie
    expect(e.get('C')!.compared).toEqual([
      { reference: 'yes', answer: 'yes' },
      { reference: 'no', answer: 'yes' },
    ]);
  });

  it('compares only the answers of the workers `compares` names; the others keep their checks and times', () => {
    const scored = scoreAssignments([a, b, c], [hit]);
    const all = workerEvidence(scored);
    const some = workerEvidence(scored, new Set(), undefined, { compares: (w) => w === 'A' });
    expect(some.get('A')).toEqual(all.get('A'));
    expect(some.get('C')).toEqual({ ...all.get('C'), compared: [] });
    expect(some.get('C')!.checks).toHaveLength(2);
  });

  it("gives the compared workers' outcomes, as answerOutcomes does on the same references", () => {
    const scored = scoreAssignments([a, b, c], [hit]);
    const outcomes = new Map<string, boolean[]>();
    const references = weightedReferences(itemAnswers(scored));
    workerEvidence(scored, new Set(), references, { compares: (w) => w !== 'B', outcomes });
    const expected = answerOutcomes(
      scored.filter((s) => s.assignment.worker !== 'B'),
      new Set(),
      references,
    );
    expect(outcomes).toEqual(expected);
    expect(outcomes.size).toBe(2);
  });

  it("leaves stopped workers and answers excluded by hand out of the others' majority", () => {
    const e = evidenceOf([a, b, c], new Set(['C']));
    // A against B alone: every item has a "majority" of one
    expect(e.get('A')!.compared).toHaveLength(3);
    const byHand = evidenceOf([a, b, { ...c, overridden: 'excluded' }]);
    expect(byHand.get('A')!.compared).toHaveLength(3);
    // the stopped worker still gets their own evidence
    expect(e.get('C')!.checks).toHaveLength(2);
  });

  it('gives each worker their median time per item against the median of the workers', () => {
    const e = evidenceOf([a, b, c]);
    expect(e.get('A')!.speed).toBeCloseTo(1, 12);
    expect(e.get('B')!.speed).toBeCloseTo(50 / 40, 12);
    expect(e.get('C')!.speed).toBeCloseTo(10 / 40, 12);
  });

  it('takes the typical time from the workers not left out, so that fast clickers do not pull it down', () => {
    const d = assignment('D', { r1: 'no', r2: 'no', r3: 'no', g1: 'no', g2: 'no' }, 60_000);
    const fast = [1, 2].map((i) => assignment(`F${i}`, { r1: 'yes', r2: 'yes', r3: 'yes', g1: 'yes', g2: 'yes' }, 5_000));
    const everyone = evidenceOf([a, b, d, ...fast]);
    // with the two fast clickers counted, the typical time is B's 50 s: the middle of 5, 5, 40, 50, 60
    expect(everyone.get('F1')!.speed).toBeCloseTo(5 / 40, 12);
    const readers = evidenceOf([a, b, d, ...fast], new Set(['F1', 'F2']));
    // the readers' median of 40, 50, 60 is 50; the excluded still get their own ratio against it
    expect(readers.get('F1')!.speed).toBeCloseTo(5 / 50, 12);
    expect(readers.get('A')!.speed).toBeCloseTo(40 / 50, 12);
  });

  it('falls back on every worker for the typical time when fewer than three are not left out', () => {
    const e = evidenceOf([a, b, c], new Set(['B', 'C']));
    expect(e.get('C')!.speed).toBeCloseTo(10 / 40, 12);
  });

  it('has no time evidence without measured times, or with fewer than three workers to compare', () => {
    const untimed = evidenceOf([assignment('A', { r1: 'yes' }), assignment('B', { r1: 'yes' }), assignment('C', { r1: 'no' })]);
    expect(untimed.get('A')).not.toHaveProperty('speed');
    const two = evidenceOf([a, b]);
    expect(two.get('A')).not.toHaveProperty('speed');
  });
});
