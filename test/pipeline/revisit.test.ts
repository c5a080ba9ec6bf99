import { describe, expect, it } from 'vitest';
import { createActionContext } from '../../src/actions/context.js';
import { actionModels } from '../../src/actions/models.js';
import { loadWorkerTable } from '../../src/actions/views.js';
import { loadBatchData, requireBatch } from '../../src/batches/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { reconcileBatch } from '../../src/pipeline/reconcile.js';
import { reviewBatch } from '../../src/pipeline/review.js';
import type { AssignmentDoc } from '../../src/db/models/index.js';
import { workerVerdict } from '../../src/quality/index.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from './support.js';

/**
 * Decisions are revisited (issue 35, item 2): a worker stopped on thin evidence (as when the
 * others' majority was fast bad workers not yet stopped) whose record the batch now clears
 * gets the stop lifted, with a message, an `unblock` audit entry and the decision deleted, and
 * the assignment the stop discarded counts again (`recount` audit entry), with no extra
 * assignment bought for it.
 */

const h = useMarketplace();
const dir = tempDir();

/**
 * Batch `batch` of 8 cases with three careful workers; an earlier round stopped the third on
 * thin evidence for `cause` (recorded, and their work reviewed as a stopped worker's); then the
 * next round runs. Returns the third worker and their assignment.
 */
async function stoppedThenRevisited(batch: string, cause: 'not-working' | 'llm-assisted', stoppedReason: string) {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, batch, 8);
  await publishBatch(ctx, batch, { preset: 'quick', target: h.running.url, recollect: 'always' }, 'local');
  const [w1, w2, w3] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
  for (const w of [w1!, w2!]) for (const hit of [`${batch}|0`, `${batch}|1`]) await work(h.running, ctx, hit, w.workerId, honest);
  const mine = await work(h.running, ctx, `${batch}|0`, w3!.workerId, honest);
  const doc = await requireBatch(ctx, batch);
  await ctx.models.workerDecisions.create({
    _id: `${batch}|${w3!.workerId}`,
    batch,
    workerId: w3!.workerId,
    target: h.running.url,
    action: 'soft-block',
    state: 'sent',
    reason: stoppedReason,
    cause,
    probabilityNotWorking: 0.992,
    evidence: {},
    decidedAt: ctx.now(),
    sentAt: ctx.now(),
  });
  // the stop's audit entry, as the round that stopped the worker writes it
  await actionModels(ctx.models.batches.db).audit.create({
    _id: `${batch}|stop-${w3!.workerId}`,
    batch,
    at: new Date(Date.now() - 60_000),
    who: 'qrelay:review',
    action: 'soft-block',
    subject: w3!.workerId,
    reason: stoppedReason,
    details: { cause },
    outcome: 'done',
  });
  const data = await loadBatchData(ctx, batch);
  const held: AssignmentDoc[] = [];
  await reconcileBatch(ctx, doc, {}, data, held);
  await reviewBatch(
    ctx,
    doc,
    new Map([[w3!.workerId, { verdict: workerVerdict({ checks: [], compared: [] }), stoppedReason }]]),
    data,
    held,
  );
  expect((await ctx.models.assignments.findById(mine).lean())?.review).toMatchObject({ countsVotes: false });
  // the next round: the batch's evidence clears w3
  await collectBatch(ctx, batch);
  const audit = await actionModels(ctx.models.batches.db)
    .audit.find({ batch, action: { $in: ['unblock', 'recount'] } })
    .lean();
  return { ctx, worker: w3!.workerId, mine, audit };
}

describe('revisiting worker decisions', () => {
  it("lifts a stop that later evidence clears and counts the worker's discarded work again", { timeout: 300_000 }, async () => {
    const stoppedReason = 'stopped: P(not doing the task) 99.2% (≥ 99.0%) from 0 of 1 checks passed (test)';
    const { ctx, worker, mine, audit } = await stoppedThenRevisited('rv', 'not-working', stoppedReason);
    expect(await ctx.models.workerDecisions.countDocuments({ batch: 'rv' })).toBe(0);
    const review = (await ctx.models.assignments.findById(mine).lean())?.review;
    expect(review).toMatchObject({ countsVotes: true });
    expect(review?.reason).toMatch(/; counted again: later evidence clears the worker \(kept: P\(not doing the task\) /);
    expect(audit.map((a) => [a.action, a.subject, a.outcome]).sort()).toEqual(
      [
        ['recount', mine, 'done'],
        ['unblock', worker, 'done'],
      ].sort(),
    );
    expect(audit.find((a) => a.action === 'unblock')?.details).toMatchObject({ stoppedFor: stoppedReason, notified: true });
    // three valid votes on the first HIT's items again: nothing more is bought for them
    expect((await ctx.models.hits.findById('rv|0').lean())?.maxAssignments).toBe(3);
    // qrelay workers --json: no longer blocked, and the lifted stop on record
    const actions = createActionContext({ pipeline: ctx, connection: ctx.models.batches.db, who: 'test', defaultTarget: 'local' });
    const row = (await loadWorkerTable(actions, 'rv')).workers.find((w) => w.workerId === worker);
    expect(row?.blocked).toBe(false);
    expect(row?.stops).toEqual([
      {
        at: expect.any(String),
        cause: 'not-working',
        reason: stoppedReason,
        liftedAt: expect.any(String),
        liftReason: expect.stringMatching(/^stop lifted: /),
      },
    ]);
  });

  it('lifts a stop for LLM-assisted answers once the recomputed flag clears the worker', { timeout: 300_000 }, async () => {
    const stoppedReason = 'llm-assisted: P(LLM-assisted) 96.0% ≥ 95% (test)';
    const { ctx, worker, mine, audit } = await stoppedThenRevisited('rl', 'llm-assisted', stoppedReason);
    expect(await ctx.models.workerDecisions.countDocuments({ batch: 'rl' })).toBe(0);
    const unblock = audit.find((a) => a.action === 'unblock');
    expect(unblock).toMatchObject({ subject: worker, outcome: 'done' });
    expect(unblock?.reason).toMatch(
      /^stop lifted: later evidence clears the worker of LLM-assisted answers \(P\(LLM-assisted\) \d+\.\d%\)$/,
    );
    expect(unblock?.details).toMatchObject({ stoppedFor: stoppedReason, notified: true });
    expect((await ctx.models.assignments.findById(mine).lean())?.review).toMatchObject({ countsVotes: true });
  });
});
