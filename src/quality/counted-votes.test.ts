import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { answerVotes, countedVotes, scoreAssignments, validVoteCounts } from './counted-votes.js';
import { hitWithChecks, submittedAssignment } from './test-records.js';
import type { AssignmentRecord, HitRecord } from './types.js';

const hit = hitWithChecks(['r1', 'r2']);

type Labels = { r1: Judgment; r2: Judgment; g1: Judgment; g2: Judgment };
const assignment = (worker: string, labels: Labels, extra: Partial<AssignmentRecord> = {}) =>
  submittedAssignment(worker, labels, { extra });

describe('counted votes', () => {
  const good = assignment('good', { r1: 'yes', r2: 'no', g1: 'yes', g2: 'no' });
  const spam = assignment('spam', { r1: 'yes', r2: 'yes', g1: 'yes', g2: 'yes' });
  const rejected = assignment('late', { r1: 'no', r2: 'no', g1: 'yes', g2: 'no' }, { status: 'rejected' });
  const discarded = assignment('kind', { r1: 'no', r2: 'no', g1: 'yes', g2: 'no' }, { status: 'approved', discarded: true });
  const approved = assignment('fine', { r1: 'no', r2: 'yes', g1: 'yes', g2: 'no' }, { status: 'approved' });

  it('counts only assignments that passed every check and were neither rejected nor discarded', () => {
    const scored = scoreAssignments([good, spam, rejected, discarded, approved], [hit]);
    expect(scored.map((s) => s.counts)).toEqual([true, false, false, false, true]);
  });

  it('turns counted answers to real items (never checks) into votes', () => {
    const votes = countedVotes(scoreAssignments([good, spam, approved], [hit]));
    expect(votes).toEqual([
      { item: 'r1', worker: 'good', label: 'yes' },
      { item: 'r2', worker: 'good', label: 'no' },
      { item: 'r1', worker: 'fine', label: 'no' },
      { item: 'r2', worker: 'fine', label: 'yes' },
    ]);
    expect(validVoteCounts(votes)).toEqual(
      new Map([
        ['r1', 2],
        ['r2', 2],
      ]),
    );
  });

  it('makes an assignment its votes on real items once, in the order of its answers, counted or not', () => {
    const [s, spammed] = scoreAssignments([good, spam], [hit]);
    expect(answerVotes(s!)).toEqual([
      { item: 'r1', worker: 'good', label: 'yes' },
      { item: 'r2', worker: 'good', label: 'no' },
    ]);
    expect(answerVotes(s!)).toBe(answerVotes(s!));
    expect(answerVotes(spammed!).map((v) => v.label)).toEqual(['yes', 'yes']);
    // the counted votes are those same objects
    expect(countedVotes([s!])[0]).toBe(answerVotes(s!)[0]);
  });

  it("keeps a worker's first answer when an item was in two of their HITs", () => {
    const h2: HitRecord = { hitId: 'H2', items: ['r1'], checks: [] };
    const again: AssignmentRecord = {
      assignmentId: 'A2',
      hitId: 'H2',
      worker: 'good',
      status: 'submitted',
      answers: [{ item: 'r1', label: 'no' }],
    };
    const votes = countedVotes(scoreAssignments([good, again], [hit, h2]));
    expect(votes.filter((v) => v.item === 'r1')).toEqual([{ item: 'r1', worker: 'good', label: 'yes' }]);
  });

  it('names the assignment and field of bad input', () => {
    const unknownHit = { ...good, hitId: 'H9' };
    expect(() => scoreAssignments([unknownHit], [hit])).toThrow(UserError);
    expect(() => scoreAssignments([unknownHit], [hit])).toThrow('assignments[0] ("A-good").hitId: "H9" is not one of the HITs given');
    const stray = { ...good, answers: [...good.answers, { item: 'other', label: 'yes' as const }] };
    expect(() => scoreAssignments([stray], [hit])).toThrow('assignments[0] ("A-good").answers[4].item: "other" is not an item of HIT "H1"');
    const badLabel = { ...good, answers: [{ item: 'r1', label: 'maybe' }] } as unknown as AssignmentRecord;
    expect(() => scoreAssignments([badLabel], [hit])).toThrow('answers[0].label: "maybe" is not "yes" or "no"');
    const twice = { ...good, answers: [...good.answers, { item: 'r1', label: 'no' as const }] };
    expect(() => scoreAssignments([twice], [hit])).toThrow('assignments[0] ("A-good"): answers[4]: item "r1" is answered twice');
    expect(() => scoreAssignments([{ ...good, workTimeMs: -5 }], [hit])).toThrow(
      'assignments[0] ("A-good").workTimeMs: -5 is not a duration',
    );
    const badTime = { ...good, answers: [{ item: 'r1', label: 'yes' as const, timeMs: Number.NaN }] };
    expect(() => scoreAssignments([badTime], [hit])).toThrow('answers[0].timeMs');
    expect(() => scoreAssignments([], [hit, hit])).toThrow('hits[1].hitId: "H1" is listed twice');
    const overlapping: HitRecord = { ...hit, items: ['r1', 'g1'] };
    expect(() => scoreAssignments([], [overlapping])).toThrow('hits[0] ("H1"): item "g1" is listed twice among its items and checks');
  });
});
