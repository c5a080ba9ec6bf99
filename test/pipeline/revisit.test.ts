import { describe, expect, it } from 'vitest';
import { actionModels } from '../../src/actions/models.js';
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

describe('revisiting worker decisions', () => {
  it("lifts a stop that later evidence clears and counts the worker's discarded work again", { timeout: 300_000 }, async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'rv', 8);
    await publishBatch(ctx, 'rv', { preset: 'quick', target: h.running.url, recollect: 'always' }, 'local');
    const [w1, w2, w3] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const w of [w1!, w2!]) for (const hit of ['rv|0', 'rv|1']) await work(h.running, ctx, hit, w.workerId, honest);
    const mine = await work(h.running, ctx, 'rv|0', w3!.workerId, honest);

    // an earlier round stopped w3 on thin evidence: recorded, and their work reviewed as a stopped worker's
    const doc = await requireBatch(ctx, 'rv');
    const stoppedReason = 'stopped: P(not doing the task) 99.2% (≥ 99.0%) from 0 of 1 checks passed (test)';
    await ctx.models.workerDecisions.create({
      _id: `rv|${w3!.workerId}`,
      batch: 'rv',
      workerId: w3!.workerId,
      target: h.running.url,
      action: 'soft-block',
      state: 'sent',
      reason: stoppedReason,
      cause: 'not-working',
      probabilityNotWorking: 0.992,
      evidence: {},
      decidedAt: ctx.now(),
      sentAt: ctx.now(),
    });
    const data = await loadBatchData(ctx, 'rv');
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
    await collectBatch(ctx, 'rv');
    expect(await ctx.models.workerDecisions.countDocuments({ batch: 'rv' })).toBe(0);
    const review = (await ctx.models.assignments.findById(mine).lean())?.review;
    expect(review).toMatchObject({ countsVotes: true });
    expect(review?.reason).toMatch(/; counted again: later evidence clears the worker \(kept: P\(not doing the task\) /);
    const audit = await actionModels(ctx.models.batches.db)
      .audit.find({ batch: 'rv', action: { $in: ['unblock', 'recount'] } })
      .lean();
    expect(audit.map((a) => [a.action, a.subject, a.outcome]).sort()).toEqual(
      [
        ['recount', mine, 'done'],
        ['unblock', w3!.workerId, 'done'],
      ].sort(),
    );
    expect(audit.find((a) => a.action === 'unblock')?.details).toMatchObject({ stoppedFor: stoppedReason, notified: true });
    // three valid votes on the first HIT's items again: nothing more is bought for them
    expect((await ctx.models.hits.findById('rv|0').lean())?.maxAssignments).toBe(3);
  });
});
