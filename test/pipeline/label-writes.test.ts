import { describe, expect, it } from 'vitest';
import { aggregateBatch } from '../../src/pipeline/aggregate.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { requireBatch } from '../../src/batches/index.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from './support.js';

const h = useMarketplace();
const dir = tempDir();

describe('writing labels', () => {
  it('rewrites no label whose content did not change, whatever order the database answers its fields in', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'lw-a', 8);
    await publishBatch(ctx, 'lw-a', { preset: 'quick', target: h.running.url }, 'local');
    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const w of workers) for (const hit of ['lw-a|0', 'lw-a|1']) await work(h.running, ctx, hit, w.workerId, honest);
    await collectBatch(ctx, 'lw-a');
    const stamps = async () =>
      new Map((await ctx.models.labels.find({ batch: 'lw-a' }).lean()).map((l) => [l._id, new Date(l.updatedAt).getTime()]));
    const before = await stamps();
    expect(before.size).toBe(8);

    // a later aggregation at a later time: the same labels, so none is written again
    const later = { ...ctx, now: () => new Date(Date.now() + 3_600_000) };
    await aggregateBatch(later, await requireBatch(ctx, 'lw-a'));
    expect(await stamps()).toEqual(before);
  });
});
