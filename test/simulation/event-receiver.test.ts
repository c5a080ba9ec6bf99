import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { notifiedHitIds, startEventReceiver } from '../../src/simulation/event-receiver.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from '../pipeline/support.js';

const h = useMarketplace();
const dir = tempDir();

describe('notifiedHitIds', () => {
  it('takes the HIT ids of an MTurk notification message and ignores anything else', () => {
    expect(
      notifiedHitIds({
        EventDocId: 'd',
        Events: [
          { EventType: 'AssignmentSubmitted', HITId: 'H1', AssignmentId: 'A1' },
          { EventType: 'HITExpired', HITId: 'H2' },
          { EventType: 'Ping' },
          { EventType: 'HITReviewable', HITId: 7 },
          null,
        ],
      }),
    ).toEqual(['H1', 'H2']);
    expect(notifiedHitIds(undefined)).toEqual([]);
    expect(notifiedHitIds({ Events: 'no' })).toEqual([]);
  });
});

describe('the simulation receiver of event notifications', () => {
  it("subscribes the batch's HIT type the MTurk way and hears which HITs were worked", async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'ev', 8);
    await publishBatch(ctx, 'ev', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
    const hits = await ctx.models.hits.find({ batch: 'ev' }).sort({ index: 1 }).lean();
    expect(hits).toHaveLength(2);
    const receiver = await startEventReceiver(h.running.url, loadConfig(process.env));
    try {
      await receiver.subscribe(hits.map((x) => x.hitTypeId as string));
      const worker = await newWorker(h);
      await work(h.running, ctx, 'ev|0', worker.workerId, honest);
      // the marketplace's loop moves the events to its outbox and delivers them
      while ((await h.running.loops.tick()).delivered > 0);
      expect([...receiver.take()]).toEqual([hits[0]!.hitId]);
      // taken once: the next round hears only what happens next
      expect(receiver.take().size).toBe(0);
      await work(h.running, ctx, 'ev|1', worker.workerId, honest);
      while ((await h.running.loops.tick()).delivered > 0);
      expect([...receiver.take()]).toEqual([hits[1]!.hitId]);
    } finally {
      await receiver.close();
    }
  });

  it('turns its subscriptions off when it closes: nothing is queued for its address afterwards', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'ev-off', 8);
    await publishBatch(ctx, 'ev-off', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
    const hits = await ctx.models.hits.find({ batch: 'ev-off' }).sort({ index: 1 }).lean();
    const receiver = await startEventReceiver(h.running.url, loadConfig(process.env));
    await receiver.subscribe(hits.map((x) => x.hitTypeId as string));
    const type = () => h.running.marketplace.models.hitTypes.findById(hits[0]!.hitTypeId).lean();
    expect(await type()).toMatchObject({ notificationActive: true, notification: { Destination: receiver.url } });
    await receiver.close();
    expect(await type()).toMatchObject({ notificationActive: false, notification: { Destination: receiver.url } });
    const queued = () => h.running.marketplace.models.outbox.countDocuments({ destination: receiver.url });
    const before = await queued();
    const worker = await newWorker(h);
    await work(h.running, ctx, 'ev-off|0', worker.workerId, honest);
    await h.running.loops.tick();
    expect(await queued()).toBe(before);
  });
});
