import { describe, expect, it } from 'vitest';
import type { AssignmentDoc, HitDoc, StoredAnswer } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import type { PlannedItem } from '../hits/index.js';
import { scoreAssignments } from '../quality/index.js';
import { aggregateStored, assignmentRecord, bySubmission, hitRecord, scoreStored } from './votes.js';

// the remembered records and scores (derived-records.ts) against the same computed from scratch

const key = (n: number) => n.toString(16).padStart(16, '0');
const items = (q: string): PlannedItem[] => [
  { kind: 'real', position: 1, key: key(1), queryId: q, chunkId: 'a', dataset: 'd' },
  { kind: 'check', position: 2, key: key(2), queryId: 'g', chunkId: 'x', dataset: 'd', expected: 'no' },
  { kind: 'real', position: 3, key: key(3), queryId: q, chunkId: 'b', dataset: 'd' },
];
const hits = ['q1', 'q2'].map((q, i) => ({ _id: `b|${i}`, batch: 'b', items: items(q) }) as HitDoc);

let n = 0;
function assignment(hit: number, worker: string, answers: [Judgment, Judgment, Judgment]): AssignmentDoc {
  n++;
  const q = `q${hit + 1}`;
  const stored: StoredAnswer[] = answers.map((answer, i) => ({
    position: i + 1,
    key: key(i + 1),
    kind: i === 1 ? 'check' : 'real',
    item: i === 0 ? `b|${q}:a` : i === 1 ? 'check|g:x' : `b|${q}:b`,
    answer,
    difficult: false,
    comment: '',
    ms: 1000 * (i + 1),
  }));
  return {
    _id: `AS${n}`,
    batch: 'b',
    hit: `b|${hit}`,
    hitId: `H${hit}`,
    workerId: worker,
    platformStatus: 'Submitted',
    acceptedAt: new Date(Date.UTC(2026, 0, 1, 0, 60 - n)),
    submittedAt: new Date(Date.UTC(2026, 0, 1, 0, 60 - n, 30)),
    storedAt: new Date(),
    answers: stored,
    parseError: null,
    review: null,
    reviewState: 'pending',
    outcome: null,
    reviewedAt: null,
  };
}

const fromScratch = (hs: readonly HitDoc[], as: readonly AssignmentDoc[]) =>
  scoreAssignments(bySubmission(as).map(assignmentRecord), hs.map(hitRecord));

describe('remembered records and scores', () => {
  const batch = () => [
    assignment(0, 'W1', ['yes', 'no', 'no']),
    assignment(0, 'W2', ['yes', 'yes', 'no']),
    assignment(1, 'W1', ['no', 'no', 'yes']),
    assignment(1, 'W3', ['no', 'no', 'no']),
  ];

  it('scores as the quality module does, in submission order, and reuses the scores of unchanged documents', () => {
    const as = batch();
    const first = scoreStored(hits, as);
    expect(first).toEqual(fromScratch(hits, as));
    expect(first.map((s) => s.assignment.assignmentId)).toEqual(['AS4', 'AS3', 'AS2', 'AS1']);
    const again = scoreStored(hits, as);
    again.forEach((s, i) => expect(s).toBe(first[i]));
  });

  it('scores again a document whose review changed in place (as the round stages write it)', () => {
    const as = batch();
    const before = scoreStored(hits, as);
    const a = as[0]!;
    Object.assign(a, {
      reviewState: 'done',
      outcome: 'approved',
      review: { action: 'approve', countsVotes: true, reason: '', feedback: null, decidedAt: new Date() },
    });
    const after = scoreStored(hits, as);
    expect(after).toEqual(fromScratch(hits, as));
    const mine = after.find((s) => s.assignment.assignmentId === a._id)!;
    expect(mine.assignment.status).toBe('approved');
    expect(mine).not.toBe(before.find((s) => s.assignment.assignmentId === a._id));
    // its votes withdrawn (worker-decisions.ts replaces `review`)
    a.review = { ...a.review!, countsVotes: false };
    expect(scoreStored(hits, as).find((s) => s.assignment.assignmentId === a._id)!.assignment.discarded).toBe(true);
    expect(scoreStored(hits, as)).toEqual(fromScratch(hits, as));
  });

  it('keeps the quality module’s errors, naming the assignment’s place in the whole list', () => {
    const as = batch();
    scoreStored(hits, as);
    const odd = { ...assignment(0, 'W9', ['yes', 'no', 'no']) };
    odd.answers = [...odd.answers, { ...odd.answers[0]!, item: 'b|elsewhere:z' }];
    const all = [...as, odd];
    expect(() => scoreStored(hits, all)).toThrow(/assignments\[0\] \(".*"\)\.answers\[3\]\.item: "b\|elsewhere:z" is not an item of HIT/);
    expect(() => scoreStored([...hits, hits[0]!], as)).toThrow(/hits\[2\]\.hitId: "b\|0" is listed twice/);
  });

  it('aggregates once per set of scores and settings, as from scratch', () => {
    const as = batch();
    const settings = { voteTarget: 3, aggregator: 'majority' as const, tie: 'unresolved' as const };
    const one = aggregateStored(hits, as, settings);
    expect(aggregateStored(hits, as, settings)).toBe(one);
    expect(aggregateStored(hits, as, { ...settings, voteTarget: 1 })).not.toBe(one);
    as[1]!.workerId = 'W4';
    const changed = aggregateStored(hits, as, settings);
    expect(changed).not.toBe(one);
    expect(changed.workers.map((w) => w.worker).sort()).toEqual(['W1', 'W3', 'W4']);
  });
});
