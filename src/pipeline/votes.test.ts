import { canaryWord } from '../hits/canary.js';
import { describe, expect, it } from 'vitest';
import type { AssignmentDoc, HitDoc, StoredAnswer } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import type { PlannedItem } from '../hits/index.js';
import { scoreAssignments } from '../quality/index.js';
import { aggregateStored, assignmentRecord, bySubmission, hitRecord, labelVotes, scoreStored } from './votes.js';
import { fleissKappa, indexVotes, krippendorffAlpha, majorityVote, pairableVotes } from '../aggregate/index.js';
import { agreementCountsSince, CATEGORIES, majoritySince } from '../batches/votes.js';

const key = (n: number) => n.toString(16).padStart(16, '0');
const items: PlannedItem[] = [
  { kind: 'real', position: 1, key: key(1), queryId: 'q1', chunkId: 'a', dataset: 'd' },
  { kind: 'check', position: 2, key: key(2), queryId: 'g', chunkId: 'x', dataset: 'd', expected: 'no' },
  { kind: 'real', position: 3, key: key(3), queryId: 'q1', chunkId: 'b', dataset: 'd' },
];
const hit = { _id: 'b|0', batch: 'b', items } as HitDoc;
const A = 'b|q1:a';
const B = 'b|q1:b';

let n = 0;
function assignment(worker: string, answers: [Judgment, Judgment, Judgment], over: Partial<AssignmentDoc> = {}): AssignmentDoc {
  n++;
  const stored: StoredAnswer[] = answers.map((answer, i) => ({
    position: i + 1,
    key: key(i + 1),
    kind: i === 1 ? 'check' : 'real',
    item: i === 0 ? A : i === 1 ? 'check|g:x' : B,
    answer,
    difficult: false,
    comment: '',
    ms: 1000 * (i + 1),
  }));
  return {
    _id: `AS${n}`,
    batch: 'b',
    hit: 'b|0',
    hitId: 'H0',
    workerId: worker,
    platformStatus: 'Submitted',
    acceptedAt: new Date(Date.UTC(2026, 0, 1, 0, n)),
    submittedAt: new Date(Date.UTC(2026, 0, 1, 0, n, 30)),
    storedAt: new Date(),
    answers: stored,
    parseError: null,
    review: null,
    reviewState: 'pending',
    outcome: null,
    reviewedAt: null,
    ...over,
  };
}

const review = (action: 'approve' | 'approve-and-discard' | 'reject') => ({
  action,
  countsVotes: action === 'approve',
  reason: '',
  feedback: null,
  decidedAt: new Date(),
});

describe('records for the quality module', () => {
  it('splits a HIT into real items and checks with their expected answers', () => {
    expect(hitRecord(hit)).toEqual({ hitId: 'b|0', items: [A, B], checks: [{ item: 'check|g:x', expected: 'no' }] });
  });

  it('maps review states: pending, approved, discarded, rejected, auto-approved', () => {
    const base = assignment('W1', ['yes', 'no', 'no']);
    expect(assignmentRecord(base)).toMatchObject({ status: 'submitted', workTimeMs: 30_000 });
    expect(assignmentRecord(base).discarded).toBeUndefined();
    expect(assignmentRecord({ ...base, reviewState: 'done', review: review('approve'), outcome: 'approved' })).toMatchObject({
      status: 'approved',
    });
    expect(assignmentRecord({ ...base, reviewState: 'done', review: review('approve-and-discard'), outcome: 'approved' })).toMatchObject({
      status: 'approved',
      discarded: true,
    });
    expect(assignmentRecord({ ...base, reviewState: 'done', review: review('reject'), outcome: 'rejected' })).toMatchObject({
      status: 'rejected',
    });
    expect(assignmentRecord({ ...base, reviewState: 'done', review: review('reject'), outcome: 'auto-approved' })).toMatchObject({
      status: 'approved',
      discarded: true,
    });
  });

  it('leaves out unanswered items and keeps measured times', () => {
    const a = assignment('W1', ['yes', 'no', 'no']);
    a.answers[2] = { ...a.answers[2]!, answer: null, ms: null };
    expect(assignmentRecord(a).answers).toEqual([
      { item: A, label: 'yes', timeMs: 1000, canary: canaryWord(a.answers[0]!.key) },
      { item: 'check|g:x', label: 'no', timeMs: 2000, canary: canaryWord(a.answers[1]!.key) },
    ]);
  });

  it('orders by submission time, then id', () => {
    const later = assignment('W1', ['yes', 'no', 'no']);
    const earlier = assignment('W2', ['yes', 'no', 'no'], { submittedAt: new Date(Date.UTC(2025, 0, 1)) });
    expect(bySubmission([later, earlier]).map((x) => x.workerId)).toEqual(['W2', 'W1']);
  });
});

describe('labelVotes', () => {
  it('keeps the first `target` votes of each item, in order', () => {
    const votes = ['W1', 'W2', 'W3', 'W4'].flatMap((worker, i) => [
      { item: A, worker, label: (i === 3 ? 'no' : 'yes') as Judgment },
      { item: B, worker, label: 'no' as Judgment },
    ]);
    const used = labelVotes(votes, 3);
    expect(used.filter((v) => v.item === A).map((v) => v.worker)).toEqual(['W1', 'W2', 'W3']);
    expect(used).toHaveLength(6);
  });
});

describe('aggregateStored', () => {
  const settings = { voteTarget: 3, aggregator: 'majority' as const, tie: 'unresolved' as const };

  it('labels by the majority of the first three valid votes; a failed check removes all its votes', () => {
    const assignments = [
      assignment('W1', ['yes', 'no', 'no']),
      assignment('W2', ['yes', 'no', 'yes']),
      assignment('SPAM', ['yes', 'yes', 'yes']), // fails the "no" check
      assignment('W3', ['no', 'no', 'yes']),
      assignment('W4', ['no', 'no', 'no']), // a fourth valid vote: worker statistics only
    ];
    const agg = aggregateStored([hit], assignments, settings);
    expect(agg.valid.filter((v) => v.worker === 'SPAM')).toEqual([]);
    expect(agg.validCounts.get(A)).toBe(4);
    expect(agg.used).toHaveLength(6);
    const labels = new Map(agg.result.items.map((it) => [it.item, [it.label, it.counts.yes, it.counts.no]]));
    expect(labels.get(A)).toEqual(['yes', 2, 1]);
    expect(labels.get(B)).toEqual(['yes', 2, 1]);
    expect(agg.workers.find((w) => w.worker === 'SPAM')?.checks.byPolarity.no).toEqual({ total: 1, passed: 0, passRate: 0 });
  });

  it('reports κ and α as null with a reason when every vote is the same', () => {
    const agg = aggregateStored(
      [hit],
      ['W1', 'W2', 'W3'].map((w) => assignment(w, ['yes', 'no', 'yes'])),
      settings,
    );
    expect(agg.fleissKappa.value).toBeNull();
    expect(agg.fleissKappa.reason).toMatch(/./);
    expect(agg.krippendorffAlpha.value).toBeNull();
    expect(agg.krippendorffAlpha.reason).toMatch(/expected disagreement is 0/);
  });

  it('applies the tie policy to an item with two split votes', () => {
    const two = [assignment('W1', ['yes', 'no', 'no']), assignment('W2', ['no', 'no', 'no'])];
    expect(aggregateStored([hit], two, settings).result.items.find((it) => it.item === A)).toMatchObject({
      label: null,
      decidedBy: 'unresolved',
    });
    expect(aggregateStored([hit], two, { ...settings, tie: 'no' }).result.items.find((it) => it.item === A)).toMatchObject({
      label: 'no',
      decidedBy: 'tie-fallback',
    });
  });

  it('gives every item a posterior with Dawid–Skene over all valid votes', () => {
    const assignments = ['W1', 'W2', 'W3', 'W4'].map((w, i) => assignment(w, [i < 3 ? 'yes' : 'no', 'no', 'no']));
    const agg = aggregateStored([hit], assignments, { ...settings, aggregator: 'dawid-skene' });
    expect(agg.result.aggregator).toBe('DawidSkene');
    const a = agg.result.items.find((it) => it.item === A)!;
    expect(a.label).toBe('yes');
    expect(a.votes).toBe(4);
    expect(a.probabilities.yes + a.probabilities.no).toBeCloseTo(1, 12);
  });
});

// the remembered records and scores (derived-records.ts) against the same computed from scratch
describe('remembered records and scores', () => {
  // two HITs with the same items (as a repost has), one assignment of each worker per HIT
  const hits = [hit, { ...hit, _id: 'b|1' } as HitDoc];
  const onHit1 = { hit: 'b|1', hitId: 'H1' };
  const batch = () => [
    assignment('W1', ['yes', 'no', 'no']),
    assignment('W2', ['yes', 'yes', 'no']),
    assignment('W3', ['no', 'no', 'yes'], onHit1),
    assignment('W4', ['no', 'no', 'no'], onHit1),
  ];
  const fromScratch = (as: readonly AssignmentDoc[]) => scoreAssignments(bySubmission(as).map(assignmentRecord), hits.map(hitRecord));

  it('scores as the quality module does, in submission order, and reuses the scores of unchanged documents', () => {
    const as = batch();
    const first = scoreStored(hits, as);
    expect(first).toEqual(fromScratch(as));
    const again = scoreStored(hits, [...as].reverse());
    again.forEach((s, i) => expect(s).toBe(first[i]));
  });

  it('answers the same lists, unchanged, with the same scores; a list changed in place is scored again', () => {
    const as = batch();
    const first = scoreStored(hits, as);
    expect(scoreStored(hits, as)).toBe(first);
    as.push(assignment('W5', ['yes', 'yes', 'yes']));
    const grown = scoreStored(hits, as);
    expect(grown).not.toBe(first);
    expect(grown).toEqual(fromScratch(as));
    as[0] = { ...as[0]!, workerId: 'W6' };
    expect(scoreStored(hits, as)).toEqual(fromScratch(as));
    as.pop();
    expect(scoreStored(hits, as)).toEqual(fromScratch(as));
    // a review written in place: the same order, that record scored again
    Object.assign(as[1]!, { reviewState: 'done', outcome: 'approved', review: review('approve') });
    const reviewed = scoreStored(hits, as);
    expect(reviewed).toEqual(fromScratch(as));
    expect(reviewed.find((x) => x.assignment.assignmentId === as[1]!._id)!.assignment.status).toBe('approved');
    // a submission time changed in place: ordered again
    as[2]!.submittedAt = new Date(Date.UTC(2020, 0, 1));
    expect(scoreStored(hits, as)).toEqual(fromScratch(as));
    const fewer = hits.slice(0, 1);
    expect(scoreStored(fewer, as)).toEqual(
      scoreAssignments(bySubmission(as.filter((a) => a.hit === 'b|0')).map(assignmentRecord), fewer.map(hitRecord)),
    );
  });

  it('scores again a document whose review changed in place (as the round stages write it)', () => {
    const as = batch();
    const before = scoreStored(hits, as);
    const a = as[0]!;
    Object.assign(a, { reviewState: 'done', outcome: 'approved', review: review('approve') });
    const after = scoreStored(hits, as);
    expect(after).toEqual(fromScratch(as));
    const mine = (list: typeof after) => list.find((s) => s.assignment.assignmentId === a._id)!;
    expect(mine(after).assignment.status).toBe('approved');
    expect(mine(after)).not.toBe(mine(before));
    // its votes withdrawn (worker-decisions.ts replaces `review`)
    a.review = { ...a.review!, countsVotes: false };
    expect(mine(scoreStored(hits, as)).assignment.discarded).toBe(true);
    expect(scoreStored(hits, as)).toEqual(fromScratch(as));
  });

  it('builds the record again when any field it is made of changed in place: override, outcome, times', () => {
    const as = batch();
    const mine = () => scoreStored(hits, as).find((s) => s.assignment.assignmentId === as[0]!._id)!;
    let last = mine();
    const changes: ((a: AssignmentDoc) => void)[] = [
      (a) => Object.assign(a, { reviewState: 'done', outcome: 'approved', review: review('approve') }),
      (a) => (a.override = { decision: 'reject', who: 'p', reason: 'r', at: new Date() }),
      (a) => (a.outcome = 'rejected'),
      (a) => (a.submittedAt = new Date(Date.UTC(2026, 0, 1, 1))),
      (a) => (a.acceptedAt = '2026-01-01T00:00:00.000Z' as unknown as Date),
      (a) => (a.hit = 'b|1'),
    ];
    for (const change of changes) {
      change(as[0]!);
      const now = mine();
      expect(now).not.toBe(last);
      expect(scoreStored(hits, as)).toEqual(fromScratch(as));
      // unchanged since: the same score
      expect(mine()).toBe(now);
      last = now;
    }
  });

  it('keeps the quality module’s errors, naming the assignment’s place in the whole list', () => {
    const as = batch();
    scoreStored(hits, as);
    const odd = assignment('W9', ['yes', 'no', 'no'], { submittedAt: new Date(Date.UTC(2025, 0, 1)) });
    odd.answers = [...odd.answers, { ...odd.answers[0]!, item: 'b|elsewhere:z' }];
    expect(() => scoreStored(hits, [...as, odd])).toThrow(
      /assignments\[0\] \(".*"\)\.answers\[3\]\.item: "b\|elsewhere:z" is not an item of HIT/,
    );
    expect(() => scoreStored([...hits, hit], as)).toThrow(/hits\[2\]\.hitId: "b\|0" is listed twice/);
  });

  it('aggregates once per set of scores and settings, as from scratch', () => {
    const as = batch();
    const settings = { voteTarget: 3, aggregator: 'majority' as const, tie: 'unresolved' as const };
    const one = aggregateStored(hits, as, settings);
    expect(aggregateStored(hits, as, settings)).toBe(one);
    expect(aggregateStored(hits, as, { ...settings, voteTarget: 1 })).not.toBe(one);
    as[1]!.workerId = 'W5';
    const changed = aggregateStored(hits, as, settings);
    expect(changed).not.toBe(one);
    expect(changed.workers.map((w) => w.worker).sort()).toEqual(['W1', 'W3', 'W4', 'W5']);
  });
});

/** The incremental builds' batch: two HITs of A, the check and B; b|2 holds the check and B alone (a repost of B). */
const settings = { voteTarget: 3, aggregator: 'majority' as const, tie: 'unresolved' as const };
const hits = [hit, { ...hit, _id: 'b|1' } as HitDoc, { ...hit, _id: 'b|2', items: [items[1]!, items[2]!] } as HitDoc];
const onB = (worker: string, labels: [Judgment, Judgment, Judgment]) => {
  const a = assignment(worker, labels, { hit: 'b|2', hitId: 'H2' });
  a.answers = a.answers.slice(1);
  return a;
};
/** A batch's rounds, each changing `as` as a round's work does: new assignments, a review, one discarded, one gone. */
const roundsOf = (as: AssignmentDoc[]): (() => void)[] => [
  () => as.push(assignment('W1', ['yes', 'no', 'no'])),
  () => as.push(assignment('W2', ['no', 'no', 'yes']), assignment('W3', ['no', 'no', 'yes'], { hit: 'b|1', hitId: 'H1' })),
  () => Object.assign(as[0]!, { reviewState: 'done', outcome: 'approved', review: review('approve') }),
  () => as.push(assignment('W5', ['yes', 'no', 'yes'])),
  () => (as[1]!.review = { ...review('approve'), countsVotes: false }),
  () => as.push(onB('W4', ['yes', 'no', 'yes'])),
  () => as.splice(0, 1),
];

describe('majoritySince', () => {
  const fromScratch = (agg: ReturnType<typeof aggregateStored>) =>
    majorityVote<Judgment>({ tiePolicy: { kind: 'unresolved' } }).fit(agg.used, ['yes', 'no']);

  it('refits only the items of the assignments scored anew or gone, with the labels of a fit from scratch', () => {
    const as: AssignmentDoc[] = [];
    const tie = { kind: 'unresolved' } as const;
    let last: Parameters<typeof majoritySince>[3];
    for (const round of roundsOf(as)) {
      round();
      const agg = aggregateStored(hits, as, settings);
      const set = new Set(agg.scored);
      const since = majoritySince(agg.used, set, tie, last);
      expect(since).toEqual(fromScratch(agg));
      expect(agg.result).toEqual(fromScratch(agg));
      last = { scored: set, result: since };
    }
  });

  it('keeps the very item results of items nobody answered since', () => {
    const as = [assignment('W1', ['yes', 'no', 'no']), assignment('W2', ['yes', 'no', 'no'])];
    const tie = { kind: 'unresolved' } as const;
    const first = aggregateStored(hits, as, settings);
    const set = new Set(first.scored);
    const before = majoritySince(first.used, set, tie, undefined);
    // a new HIT's assignment answering B alone (its check and B): A keeps its result object
    as.push(onB('W3', ['no', 'no', 'no']));
    const next = aggregateStored(hits, as, settings);
    const after = majoritySince(next.used, new Set(next.scored), tie, { scored: set, result: before });
    expect(after.items.find((it) => it.item === A)).toBe(before.items.find((it) => it.item === A));
    expect(after).toEqual(fromScratch(next));
  });
});

describe('agreementCountsSince', () => {
  const fromScratch = (agg: ReturnType<typeof aggregateStored>) => indexVotes(pairableVotes(agg.used), CATEGORIES);

  it('counts anew only the items of the assignments scored anew or gone: the counts, κ and α of an index from scratch', () => {
    const as: AssignmentDoc[] = [];
    let last: Parameters<typeof agreementCountsSince>[2];
    for (const round of roundsOf(as)) {
      round();
      const agg = aggregateStored(hits, as, settings);
      const { counts, next } = agreementCountsSince(agg.used, new Set(agg.scored), last);
      const scratch = fromScratch(agg);
      expect(counts.items).toEqual(scratch.items);
      expect([...counts.counts]).toEqual([...scratch.counts]);
      expect(fleissKappa.computeIndexed(counts)).toEqual(fleissKappa.computeIndexed(scratch));
      expect(krippendorffAlpha.computeIndexed(counts)).toEqual(krippendorffAlpha.computeIndexed(scratch));
      expect(agg.fleissKappa).toEqual(fleissKappa.computeIndexed(scratch));
      expect(agg.agreementItems).toBe(scratch.items.length);
      last = next;
    }
  });

  it('keeps the counts of items nobody answered since, and indexes everything without a last build', () => {
    const as = [assignment('W1', ['yes', 'no', 'no']), assignment('W2', ['yes', 'no', 'yes'])];
    const first = aggregateStored(hits, as, settings);
    const before = agreementCountsSince(first.used, new Set(first.scored), undefined);
    expect(before.counts).toEqual(fromScratch(first));
    as.push(onB('W3', ['no', 'no', 'no']));
    const grown = aggregateStored(hits, as, settings);
    const after = agreementCountsSince(grown.used, new Set(grown.scored), before.next);
    expect(after.next.byItem.get(A)).toBe(before.next.byItem.get(A));
    expect(after.next.byItem.get(B)).not.toBe(before.next.byItem.get(B));
    expect([...after.counts.counts]).toEqual([...fromScratch(grown).counts]);
  });
});
