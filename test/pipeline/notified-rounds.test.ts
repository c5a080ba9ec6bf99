import { describe, expect, it } from 'vitest';
import { collectBatch } from '../../src/pipeline/collect.js';
import { FULL_POLL_EVERY, hitsToPoll } from '../../src/pipeline/round-poll.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from './support.js';
import { requireBatch } from '../../src/batches/index.js';

/**
 * Rounds that reconcile only the HITs notifications named (`collectBatch(..., {poll})`,
 * src/pipeline/round-poll.ts): a notification that never arrived must not lose work nor
 * let the batch be declared complete without it.
 */

const h = useMarketplace();
const dir = tempDir();

describe('rounds told which HITs changed', () => {
  it('never declares a batch complete on a lost notification; the full poll brings the work in', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'nr', 8);
    await publishBatch(ctx, 'nr', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
    const hitId = async (id: string) => (await ctx.models.hits.findById(id).lean())!.hitId as string;
    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const w of workers) for (const hit of ['nr|0', 'nr|1']) await work(h.running, ctx, hit, w.workerId, honest);

    // nothing notified at all: the round polls no HIT, and lists nothing
    const none = await collectBatch(ctx, 'nr', { poll: [] });
    expect(none.followUp.complete).toBe(false);
    // only nr|0's notifications arrived: its 3 assignments come in, and nr|1's work, whose
    // notifications were lost, is found by the poll of the rest before the batch could be declared complete
    const told = await collectBatch(ctx, 'nr', { poll: [await hitId('nr|0')] });
    expect(told.followUp.complete).toBe(false);
    expect(await ctx.models.assignments.countDocuments({ batch: 'nr', hit: 'nr|0' })).toBe(3);
    expect((await requireBatch(ctx, 'nr')).state).toBe('collecting');

    // the next round (a full poll, or a partial one whose poll of the rest finds nothing new) completes the batch
    const full = await collectBatch(ctx, 'nr');
    expect(full.followUp.complete).toBe(true);
    const batch = await requireBatch(ctx, 'nr');
    expect(batch.state).toBe('complete');
    expect(batch.summary).toMatchObject({ items: 8, itemsComplete: 8, validVotes: 24 });
    expect(await ctx.models.assignments.countDocuments({ batch: 'nr' })).toBe(6);
  });

  it('makes good every lost notification at the next full poll', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'nr2', 8, 20);
    await publishBatch(ctx, 'nr2', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const w of workers) for (const hit of ['nr2|0', 'nr2|1']) await work(h.running, ctx, hit, w.workerId, honest);
    // every notification lost: the rounds between two full polls poll nothing and bring nothing in
    const lost = new Set<string>();
    for (let r = 1; r < FULL_POLL_EVERY; r++) {
      const poll = hitsToPoll({ roundsRun: r, notified: lost });
      expect(poll).toEqual([]);
      const round = await collectBatch(ctx, 'nr2', { poll: poll! });
      expect(round.followUp.complete).toBe(false);
    }
    expect(await ctx.models.assignments.countDocuments({ batch: 'nr2' })).toBe(0);
    expect((await requireBatch(ctx, 'nr2')).state).toBe('collecting');
    // the full poll brings all 6 in, and the batch completes
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY, notified: lost })).toBeUndefined();
    const full = await collectBatch(ctx, 'nr2');
    expect(full.reconcile).toMatchObject({ hitsPolled: 2, newAssignments: 6 });
    expect(full.followUp.complete).toBe(true);
    expect((await requireBatch(ctx, 'nr2')).summary).toMatchObject({ items: 8, itemsComplete: 8 });
  });
});
