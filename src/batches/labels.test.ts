import { describe, expect, it } from 'vitest';
import type { AssignmentDoc, BatchDoc, HitDoc, LabelDoc, StoredAnswer } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import type { PlannedItem } from '../hits/index.js';
import { buildLabels, buildLabelsSince, type LastLabels } from './labels.js';
import type { BatchData } from './repository.js';

const key = (n: number) => n.toString(16).padStart(16, '0');
const real = (position: number, chunkId: string): PlannedItem => ({
  kind: 'real',
  position,
  key: key(position),
  queryId: 'q',
  chunkId,
  dataset: 'd',
});
const check: PlannedItem = { kind: 'check', position: 9, key: key(9), queryId: 'g', chunkId: 'x', dataset: 'd', expected: 'no' };
const hitOf = (index: number, chunks: string[]): HitDoc =>
  ({ _id: `b|${index}`, batch: 'b', index, items: [...chunks.map((c, i) => real(i + 1, c)), check] }) as HitDoc;

let n = 0;
/** A worker's assignment of `hit`: one label per real item, then the check's answer ("no" passes). */
function assignment(hit: HitDoc, worker: string, labels: Judgment[], checkAnswer: Judgment = 'no'): AssignmentDoc {
  n++;
  const reals = hit.items.filter((i) => i.kind === 'real');
  const answers: StoredAnswer[] = [
    ...reals.map((i, k) => ({
      position: i.position,
      key: i.key,
      kind: 'real' as const,
      item: `b|q:${i.chunkId}`,
      answer: labels[k]!,
      difficult: false,
      comment: '',
      ms: 1000,
    })),
    { position: 9, key: key(9), kind: 'check', item: 'check|g:x', answer: checkAnswer, difficult: false, comment: '', ms: 1000 },
  ];
  return {
    _id: `AS${String(n).padStart(3, '0')}`,
    batch: 'b',
    hit: hit._id,
    hitId: `H${hit.index}`,
    workerId: worker,
    platformStatus: 'Submitted',
    acceptedAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
    submittedAt: new Date(Date.UTC(2026, 0, 1, 0, n, 30)),
    storedAt: new Date(),
    answers,
    parseError: null,
    review: null,
    reviewState: 'pending',
    outcome: null,
    reviewedAt: null,
  };
}

/** The round's review, in place: approved (its votes count, or not). */
function reviewed(a: AssignmentDoc, counts = true): void {
  a.review = { action: counts ? 'approve' : 'approve-and-discard', countsVotes: counts, reason: '', feedback: null, decidedAt: new Date() };
  a.reviewState = 'done';
  a.outcome = 'approved';
}

const batch = (aggregator: 'majority' | 'dawid-skene' = 'majority') =>
  ({ _id: 'b', settings: { aggregator, voteTarget: 3, tie: 'unresolved' } }) as unknown as BatchDoc;

const withoutTime = ({ updatedAt: _at, ...rest }: LabelDoc) => rest;

/** Builds from `last`, and checks the labels and summary against a build from scratch. */
function step(doc: BatchDoc, data: BatchData, last: LastLabels | undefined, minute: number) {
  const now = new Date(Date.UTC(2026, 0, 2, 0, minute));
  const since = buildLabelsSince(doc, data, now, last);
  const whole = buildLabels(doc, data, now);
  expect(since.aggregation.labels.map(withoutTime)).toEqual(whole.labels.map(withoutTime));
  expect(since.aggregation.summary).toEqual(whole.summary);
  return since;
}

describe('buildLabelsSince', () => {
  it('builds anew only the labels of items whose votes changed, and the same labels as buildLabels', () => {
    const doc = batch();
    const h0 = hitOf(0, ['a', 'b']);
    const h1 = hitOf(1, ['c', 'd']);
    const data: BatchData = { hits: [h0, h1], assignments: [] };
    // the first build: every label
    let r = step(doc, data, undefined, 0);
    expect(r.built).toBeUndefined();

    // W1 on h0: only a and b change
    const w1 = assignment(h0, 'W1', ['yes', 'no']);
    data.assignments.push(w1);
    r = step(doc, data, r.next, 1);
    expect([...r.built!].sort()).toEqual(['b|q:a', 'b|q:b']);
    // the labels not built are last time's objects
    const c = r.aggregation.labels.find((l) => l._id === 'b|q:c')!;

    // the review changes W1's record in place; W2 and W3 come in on h0; h1 untouched
    reviewed(w1);
    const w2 = assignment(h0, 'W2', ['yes', 'yes']);
    const w3 = assignment(h0, 'W3', ['no', 'yes']);
    data.assignments.push(w2, w3);
    r = step(doc, data, r.next, 2);
    expect([...r.built!].sort()).toEqual(['b|q:a', 'b|q:b']);
    expect(r.aggregation.labels.find((l) => l._id === 'b|q:c')).toBe(c);

    // reviews: W3 fails nothing but is discarded later (a stopped worker's votes withdrawn)
    reviewed(w2);
    reviewed(w3);
    r = step(doc, data, r.next, 3);
    w3.review = { ...w3.review!, countsVotes: false };
    r = step(doc, data, r.next, 4);
    expect([...r.built!].sort()).toEqual(['b|q:a', 'b|q:b']);

    // h1's work, with a failed check; then a new HIT for item a and a new item e
    const w4 = assignment(h1, 'W4', ['yes', 'yes'], 'yes');
    const w5 = assignment(h1, 'W5', ['no', 'yes']);
    data.assignments.push(w4, w5);
    r = step(doc, data, r.next, 5);
    expect([...r.built!].sort()).toEqual(['b|q:c', 'b|q:d']);
    const h2 = hitOf(2, ['a', 'e']);
    data.hits = [...data.hits, h2];
    r = step(doc, data, r.next, 6);
    expect([...r.built!].sort()).toEqual(['b|q:e']);
    data.assignments.push(assignment(h2, 'W6', ['no', 'no']));
    r = step(doc, data, r.next, 7);
    expect([...r.built!].sort()).toEqual(['b|q:a', 'b|q:e']);
  });

  it('builds every label under Dawid-Skene or other settings than last time', () => {
    const h0 = hitOf(0, ['a', 'b']);
    const data: BatchData = { hits: [h0], assignments: [assignment(h0, 'W1', ['yes', 'no'])] };
    const first = step(batch(), data, undefined, 0);
    data.assignments.push(assignment(h0, 'W2', ['yes', 'no']));
    expect(step(batch('dawid-skene'), data, first.next, 1).built).toBeUndefined();
    const other = { ...batch(), settings: { ...batch().settings!, voteTarget: 5 } } as BatchDoc;
    expect(step(other, data, first.next, 2).built).toBeUndefined();
  });
});
