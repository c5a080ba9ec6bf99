import { GetAssignmentCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { collectBatch, lastRoundData } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { reviewBatch } from '../../src/pipeline/review.js';
import { advance, newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from './support.js';
import { loadBatchData, requireBatch } from '../../src/batches/index.js';
import type { AssignmentDoc } from '../../src/db/models/index.js';

const h = useMarketplace();
const dir = tempDir();

async function platformStatus(assignmentId: string): Promise<string | undefined> {
  const res = await h.client().send(new GetAssignmentCommand({ AssignmentId: assignmentId }));
  return res.Assignment?.AssignmentStatus;
}

const byId = (x: { _id: string }, y: { _id: string }) => x._id.localeCompare(y._id);

/** A quick batch of 4 cases published on the marketplace, its first HIT submitted by two honest workers. */
async function twoSubmissions(ctx: ReturnType<typeof testContext>, batch: string): Promise<void> {
  await importSampleBatch(ctx, dir, batch, 4, 40);
  await publishBatch(ctx, batch, { preset: 'quick', target: h.running.url }, 'local');
  const [a, b] = await Promise.all([1, 2].map(() => newWorker(h)));
  for (const w of [a!, b!]) await work(h.running, ctx, `${batch}|0`, w.workerId, honest);
}

/** `ctx` with its assignments model telling `seen` the arguments of each call of `method`, then making it. */
function spyOnAssignments<C extends ReturnType<typeof testContext>>(
  ctx: C,
  method: 'findById' | 'bulkWrite',
  seen: (args: unknown[]) => void,
): C {
  const assignments = new Proxy(ctx.models.assignments, {
    get: (target, key, receiver) => {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      return key === method ? (...args: unknown[]) => (seen(args), bound(...args)) : bound;
    },
  });
  return { ...ctx, models: { ...ctx.models, assignments } };
}

describe('collecting a batch', () => {
  it('reviews by the checks, asks for an extra assignment for a discarded one, labels every item and completes', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'col-a', 8);
    // the checks alone decide here (the DREAM protocol); worker-level decisions keep a careful
    // worker's one slip counted, and have their own test (worker-decisions.test.ts)
    // every lost vote collected again (recollect: always); the default asks only where it can change a label (below)
    await publishBatch(ctx, 'col-a', { preset: 'quick', target: h.running.url, workerDecisions: false, recollect: 'always' }, 'local');
    const [w1, w2, w3, w4] = await Promise.all([1, 2, 3, 4].map(() => newWorker(h)));
    const missesCheck: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));
    const careless = await work(h.running, ctx, 'col-a|0', w3!.workerId, missesCheck);
    for (const w of [w1!, w2!]) for (const hit of ['col-a|0', 'col-a|1']) await work(h.running, ctx, hit, w.workerId, honest);
    await work(h.running, ctx, 'col-a|1', w3!.workerId, honest);

    const first = await collectBatch(ctx, 'col-a');
    expect(first.reconcile.newAssignments).toBe(6);
    expect(first.review).toMatchObject({ decided: 6, approved: 5, discarded: 1, rejected: 0 });
    // the default policy pays for the failed assignment but does not count it
    expect(await platformStatus(careless)).toBe('Approved');
    expect((await ctx.models.assignments.findById(careless).lean())?.review).toMatchObject({
      action: 'approve-and-discard',
      countsVotes: false,
    });
    expect(first.followUp).toMatchObject({ extended: 1, extraAssignments: 1, complete: false });
    expect((await ctx.models.hits.findById('col-a|0').lean())?.maxAssignments).toBe(4);
    expect((await requireBatch(ctx, 'col-a')).summary).toMatchObject({ items: 8, itemsComplete: 4 });

    await work(h.running, ctx, 'col-a|0', w4!.workerId, honest);
    const second = await collectBatch(ctx, 'col-a');
    expect(second.review).toMatchObject({ decided: 1, approved: 1 });
    expect(second.followUp.complete).toBe(true);
    const batch = await requireBatch(ctx, 'col-a');
    expect(batch.state).toBe('complete');
    expect(batch.summary).toMatchObject({ items: 8, itemsComplete: 8, labels: 8, unresolved: 0, validVotes: 24 });
    const labels = await ctx.models.labels.find({ batch: 'col-a' }).lean();
    const truth = new Map((await ctx.models.items.find({ batch: 'col-a' }).lean()).map((r) => [r._id, r.label]));
    // honest workers agree with the truth: every label is right, from 3 votes
    expect(labels).toHaveLength(8);
    expect(labels.every((l) => l.label === truth.get(l._id) && l.votes.yes + l.votes.no === 3 && l.complete)).toBe(true);
    expect((await ctx.models.hits.find({ batch: 'col-a' }).lean()).map((x) => x.state)).toEqual(['done', 'done']);

    // a later round changes nothing on the platform: each assignment was reviewed once
    const again = await collectBatch(ctx, 'col-a');
    expect(again.reconcile.newAssignments).toBe(0);
    expect(again.review.decided).toBe(0);

    // the last round's copy of the batch is the batch as stored (what the simulation's report takes instead of a read)
    const kept = await lastRoundData(ctx, 'col-a');
    const stored = await loadBatchData(ctx, 'col-a');
    expect([...kept!.hits].sort(byId)).toEqual([...stored.hits].sort(byId));
    expect([...kept!.assignments].sort(byId)).toEqual([...stored.assignments].sort(byId));
    // changed by anything else since, the batch is read again
    await ctx.models.batches.updateOne({ _id: 'col-a' }, { $inc: { revision: 1 } });
    expect(await lastRoundData(ctx, 'col-a')).toBeUndefined();
  });

  it('collects a discarded vote again only where the remaining two votes tie (recollect: when-undecided, the default)', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'col-d', 8, 80);
    await publishBatch(ctx, 'col-d', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
    expect((await requireBatch(ctx, 'col-d')).settings?.recollect).toBe('when-undecided');
    const hits = await ctx.models.hits.find({ batch: 'col-d' }).sort({ index: 1 }).lean();
    expect(hits.map((x) => [x._id, x.maxAssignments, x.realItems])).toEqual([
      ['col-d|0', 3, 4],
      ['col-d|1', 3, 4],
    ]);
    const [w1, w2, w3, w4] = await Promise.all([1, 2, 3, 4].map(() => newWorker(h)));
    const missesCheck: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));
    // on HIT 1, w2 answers one real item against the truth: with w3's vote discarded, that item is split 1–1
    const flipped = hits[1]!.items.find((i) => i.kind === 'real')!;
    const flipsOne: Answerer = (item, truth) => (item.key === flipped.key ? (truth === 'yes' ? 'no' : 'yes') : honest(item, truth));
    for (const hit of ['col-d|0', 'col-d|1']) {
      await work(h.running, ctx, hit, w1!.workerId, honest);
      await work(h.running, ctx, hit, w2!.workerId, hit === 'col-d|1' ? flipsOne : honest);
      await work(h.running, ctx, hit, w3!.workerId, missesCheck);
    }

    const first = await collectBatch(ctx, 'col-d');
    expect(first.review).toMatchObject({ decided: 6, approved: 4, discarded: 2 });
    // HIT 0: every item's two remaining votes agree, so a third cannot change a label: no extra assignment
    // HIT 1: one item is tied 1–1: one extra assignment
    expect(first.followUp).toMatchObject({ extended: 1, extraAssignments: 1, complete: false });
    const after = new Map((await ctx.models.hits.find({ batch: 'col-d' }).lean()).map((x) => [x._id, x]));
    expect(after.get('col-d|0')).toMatchObject({ maxAssignments: 3, extensions: 0, state: 'done' });
    expect(after.get('col-d|1')).toMatchObject({ maxAssignments: 4, extensions: 1 });
    expect((await requireBatch(ctx, 'col-d')).summary).toMatchObject({ items: 8, itemsComplete: 7 });

    await work(h.running, ctx, 'col-d|1', w4!.workerId, honest);
    const second = await collectBatch(ctx, 'col-d');
    expect(second.followUp.complete).toBe(true);
    const batch = await requireBatch(ctx, 'col-d');
    expect(batch.state).toBe('complete');
    // 4 items decided by two agreeing votes, 4 by three: every label is the majority of three's
    expect(batch.summary).toMatchObject({ items: 8, itemsComplete: 8, labels: 8, unresolved: 0, validVotes: 20 });
    const labels = await ctx.models.labels.find({ batch: 'col-d' }).lean();
    const truth = new Map((await ctx.models.items.find({ batch: 'col-d' }).lean()).map((r) => [r._id, r.label]));
    expect(labels.every((l) => l.label === truth.get(l._id) && l.complete)).toBe(true);
    // the report says how many votes each label has
    expect(labels.map((l) => l.votes.yes + l.votes.no).sort()).toEqual([2, 2, 2, 2, 3, 3, 3, 3]);
  });

  it('rejects with feedback under the reject policy', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'col-b', 4, 40);
    // the checks alone decide (the DREAM protocol): with worker-level decisions a new worker's
    // one missed check puts them on probation (quality/probation.ts), it rejects nothing
    await publishBatch(
      ctx,
      'col-b',
      { preset: 'quick', target: h.running.url, onFailure: 'reject', recollect: 'always', workerDecisions: false },
      'local',
    );
    const check = (await ctx.models.hits.findById('col-b|0').lean())!.items.find((i) => i.kind === 'check')!;
    const wrong = check.kind === 'check' && check.expected === 'yes' ? 'no' : 'yes';
    const w = await newWorker(h);
    const id = await work(h.running, ctx, 'col-b|0', w.workerId, (item, truth) => (item.kind === 'check' ? wrong : (truth ?? 'yes')));
    const round = await collectBatch(ctx, 'col-b');
    expect(round.review).toMatchObject({ rejected: 1 });
    const res = await h.client().send(new GetAssignmentCommand({ AssignmentId: id }));
    expect(res.Assignment?.AssignmentStatus).toBe('Rejected');
    expect(res.Assignment?.RequesterFeedback).toMatch(/You answered 1 of 1 of them incorrectly .* We are sorry to reject this assignment/);
    expect((await ctx.models.hits.findById('col-b|0').lean())?.maxAssignments).toBe(4);
  });

  it("keeps the round's copy of new assignments equal to what the database stored, without reading them back", async () => {
    const ctx = testContext(h.db);
    await twoSubmissions(ctx, 'col-e');
    const { reconcileBatch } = await import('../../src/pipeline/reconcile.js');
    const data = await loadBatchData(ctx, 'col-e');
    expect(data.assignments).toHaveLength(0);
    const found: string[] = [];
    // counts the reads of single assignments that the round makes
    const counting = spyOnAssignments(ctx, 'findById', ([id]) => found.push(id as string));
    const result = await reconcileBatch(counting, await requireBatch(ctx, 'col-e'), {}, data);
    expect(result.newAssignments).toBe(2);
    expect(found).toEqual([]);
    const stored = await ctx.models.assignments.find({ batch: 'col-e' }).lean();
    expect([...data.assignments].sort(byId)).toEqual([...stored].sort(byId));
    // inserted with the model's defaults (an upsert's $setOnInsert lost the null ones in the dev database)
    expect(stored.every((x) => x.review === null && x.outcome === null && x.override === null)).toBe(true);
  });

  it("stores a round's new assignments with their decision, one insert each, and a round cut off before that lists them again", async () => {
    const ctx = testContext(h.db);
    await twoSubmissions(ctx, 'col-f');
    const { reconcileBatch } = await import('../../src/pipeline/reconcile.js');
    const doc = await requireBatch(ctx, 'col-f');

    // a round cut off after its reconcile: the Answer XML is stored, the assignments are not
    const cut = await loadBatchData(ctx, 'col-f');
    const heldBefore: AssignmentDoc[] = [];
    expect((await reconcileBatch(ctx, doc, {}, cut, heldBefore)).newAssignments).toBe(2);
    expect(heldBefore.map((x) => x.review)).toEqual([null, null]);
    expect(await ctx.models.assignments.countDocuments({ batch: 'col-f' })).toBe(0);
    expect(await ctx.models.assignmentAnswers.countDocuments({ _id: { $in: heldBefore.map((x) => x._id) } })).toBe(2);

    // the next round lists them again and stores each with its decision: no update records a decision
    const data = await loadBatchData(ctx, 'col-f');
    const held: AssignmentDoc[] = [];
    expect((await reconcileBatch(ctx, doc, {}, data, held)).newAssignments).toBe(2);
    const statements: string[] = [];
    const counting = spyOnAssignments(ctx, 'bulkWrite', ([ops]) => {
      for (const op of ops as { updateOne: { update: { $set: Record<string, unknown> } } }[])
        statements.push(String(op.updateOne.update.$set.reviewState));
    });
    const review = await reviewBatch(counting, doc, new Map(), data, held);
    expect(review).toMatchObject({ decided: 2, approved: 2 });
    // the only updates: marking the two sent decisions done
    expect(statements).toEqual(['done', 'done']);
    const stored = await ctx.models.assignments.find({ batch: 'col-f' }).lean();
    expect([...data.assignments].sort(byId)).toEqual([...stored].sort(byId));
    expect(stored.map((x) => [x.reviewState, x.outcome, x.review?.action])).toEqual([
      ['done', 'approved', 'approve'],
      ['done', 'approved', 'approve'],
    ]);
    expect(await Promise.all(stored.map((x) => platformStatus(x._id)))).toEqual(['Approved', 'Approved']);
  });

  it('inserts only what is missing: a document already stored (a round cut off after writing it) is left as it is', async () => {
    const ctx = testContext(h.db);
    const { insertMissing, BULK_SLICE } = await import('../../src/pipeline/bulk.js');
    await ctx.models.assignmentAnswers.create({ _id: 'im-stored', xml: '<as stored/>' });
    // more than one slice, the stored one in the second
    const docs = Array.from({ length: BULK_SLICE + 2 }, (_, i) => ({ _id: `im-${i}`, xml: `<new ${i}/>` }));
    docs.splice(BULK_SLICE + 1, 0, { _id: 'im-stored', xml: '<a retry/>' });
    const inserted = await insertMissing(ctx.models.assignmentAnswers, docs);
    expect(inserted.size).toBe(BULK_SLICE + 2);
    expect(inserted.has('im-stored')).toBe(false);
    expect((await ctx.models.assignmentAnswers.findById('im-stored').lean())?.xml).toBe('<as stored/>');
    expect((await ctx.models.assignmentAnswers.findById(`im-${BULK_SLICE + 1}`).lean())?.xml).toBe(`<new ${BULK_SLICE + 1}/>`);
    // a second time, nothing is new
    expect((await insertMissing(ctx.models.assignmentAnswers, docs)).size).toBe(0);
  });

  it('sends a recorded decision exactly once across a crash, and records an auto-approval that came first', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'col-c', 4, 60);
    await publishBatch(ctx, 'col-c', { preset: 'quick', target: h.running.url, onFailure: 'reject' }, 'local');
    const check = (await ctx.models.hits.findById('col-c|0').lean())!.items.find((i) => i.kind === 'check')!;
    const wrong = check.kind === 'check' && check.expected === 'yes' ? 'no' : 'yes';
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    const good = await work(h.running, ctx, 'col-c|0', a!.workerId, honest);
    const approvedTwice = await work(h.running, ctx, 'col-c|0', b!.workerId, honest);
    const bad = await work(h.running, ctx, 'col-c|0', c!.workerId, (item, truth) => (item.kind === 'check' ? wrong : (truth ?? 'yes')));
    const { reconcileBatch } = await import('../../src/pipeline/reconcile.js');
    await reconcileBatch(ctx, await requireBatch(ctx, 'col-c'));
    // a reviewer that died after recording decisions: one sent already, two not
    const crashed = {
      ...ctx,
      backend: () => ({
        ...ctx.backend(h.running.url),
        approveAssignment: () => Promise.reject(new Error('killed')),
        rejectAssignment: () => Promise.reject(new Error('killed')),
      }),
    };
    await expect(reviewBatch(crashed as typeof ctx, await requireBatch(ctx, 'col-c'))).rejects.toThrow('killed');
    expect(await ctx.models.assignments.countDocuments({ batch: 'col-c', reviewState: 'decided' })).toBe(3);
    await ctx.backend(h.running.url).approveAssignment(approvedTwice);
    // the quick preset approves automatically after an hour: let it happen to the bad one first
    await advance(h, 3700);
    expect(await platformStatus(bad)).toBe('Approved');
    const review = await reviewBatch(ctx, await requireBatch(ctx, 'col-c'));
    expect(review).toMatchObject({ decided: 0, approved: 2, autoApproved: 1, rejected: 0 });
    const docs = new Map((await ctx.models.assignments.find({ batch: 'col-c' }).lean()).map((x) => [x._id, x]));
    expect(docs.get(good)).toMatchObject({ reviewState: 'done', outcome: 'approved' });
    expect(docs.get(approvedTwice)).toMatchObject({ reviewState: 'done', outcome: 'approved' });
    expect(docs.get(bad)).toMatchObject({
      reviewState: 'done',
      outcome: 'auto-approved',
      review: { action: 'reject', countsVotes: false },
    });
  });
});

describe('the report input', () => {
  it('maps a collected batch onto the report builder, which decides the same labels', async () => {
    const { reportInputFor } = await import('../../src/pipeline/report-input.js');
    const { buildReport } = await import('../../src/reports/index.js');
    const ctx = testContext(h.db);
    const { input, options } = await reportInputFor(ctx, 'col-a');
    const report = buildReport(input, options);
    const batch = await requireBatch(ctx, 'col-a');
    expect(report).toMatchObject({
      batch: 'col-a',
      items: 8,
      hits: 2,
      assignments: 7,
      votes: batch.summary!.validVotes,
      labels: batch.summary!.labels,
    });
    expect(report.fleissKappa).toBe(batch.summary!.fleissKappa);
    expect(report.cost.quote?.quoted.total).toBe(batch.plan!.quote.total);
    expect(report.cost.discardedWork.assignments).toBe(1);
  });
});

describe('one round at a time', () => {
  it('refuses a second round while one holds the batch, and takes over a dead round after its lease', async () => {
    const { RoundBusy, ROUND_LEASE_MS } = await import('../../src/pipeline/collect.js');
    const ctx = testContext(h.db);
    await ctx.models.batches.updateOne(
      { _id: 'col-b' },
      { $set: { roundLeaseUntil: new Date(Date.now() + ROUND_LEASE_MS), roundOwner: 'someone-else' } },
    );
    await expect(collectBatch(ctx, 'col-b')).rejects.toThrow(RoundBusy);
    await ctx.models.batches.updateOne({ _id: 'col-b' }, { $set: { roundLeaseUntil: new Date(Date.now() - 1) } });
    await expect(collectBatch(ctx, 'col-b')).resolves.toMatchObject({ batch: 'col-b' });
    expect(await ctx.models.batches.findById('col-b').lean()).toMatchObject({ roundLeaseUntil: null, roundOwner: null });
  });
});
