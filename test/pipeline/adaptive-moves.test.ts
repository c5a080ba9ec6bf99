import { describe, expect, it } from 'vitest';
import { loadBatchData } from '../../src/batches/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from './support.js';

/**
 * Adaptive checks never block the batch (src/pipeline/adaptive-rounds.ts), with scripted
 * workers on the bundled marketplace: the qualification requirements keep new workers off
 * regular HITs; when the starter HITs are all taken, a round moves a regular HIT's items into
 * new starter HITs (the old one expired); when experienced workers have taken every regular
 * HIT and no new worker comes, a round moves a starter HIT's items into a regular one.
 */

const h = useMarketplace();
const dir = tempDir();

const summary = async (ctx: ReturnType<typeof testContext>) =>
  (await loadBatchData(ctx, 'am')).hits.map((x) => [x.index, x.audience, x.origin, x.realItems, x.checks, x.maxAssignments]);

describe('adaptive checks in collection rounds', () => {
  it('moves HITs to the kind that ran out, so that neither new nor experienced workers wait', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'am', 20);
    // one expected worker doing one starter HIT: a single starter HIT (2 items + 3 checks), then 4 + 1
    await publishBatch(
      ctx,
      'am',
      { preset: 'quick', target: h.running.url, adaptiveChecks: true, expectedWorkers: 1, workerDecisions: false },
      'local',
    );
    expect(await summary(ctx)).toEqual([
      [0, 'starter', 'plan', 2, 3, 3],
      ...[1, 2, 3, 4].map((i) => [i, 'regular', 'plan', 4, 1, 3]),
      [5, 'regular', 'plan', 2, 1, 3],
    ]);
    const hitId = async (index: number) => (await ctx.models.hits.findById(`am|${index}`).lean())!.hitId as string;
    const [w1, w2, w3, late] = await Promise.all([1, 2, 3, 4].map(() => newWorker(h)));

    // a new worker may take a starter HIT, not a regular one
    await expect(h.running.workers.acceptHit(w1!.workerId, await hitId(1))).rejects.toMatchObject({
      code: 'QualificationRequirementsNotMet',
    });
    for (const w of [w1!, w2!, w3!]) await work(h.running, ctx, 'am|0', w.workerId, honest);

    // the starter slots are all taken while regular HITs wait: HIT 1 becomes two starter HITs
    await collectBatch(ctx, 'am');
    expect((await summary(ctx)).slice(6)).toEqual([
      [6, 'starter', 'repost', 2, 3, 3],
      [7, 'starter', 'repost', 2, 3, 3],
    ]);
    const realKeys = async (indices: number[]) =>
      (await loadBatchData(ctx, 'am')).hits
        .filter((x) => indices.includes(x.index))
        .flatMap((x) => x.items.filter((i) => i.kind === 'real').map((i) => i.key));
    expect(await realKeys([6, 7])).toEqual(await realKeys([1]));
    await expect(h.running.workers.acceptHit(late!.workerId, await hitId(1))).rejects.toBeTruthy();

    // their second HIT is a starter too; the round after it gives them qrelay-experience (2 starter HITs)
    for (const w of [w1!, w2!, w3!]) await work(h.running, ctx, 'am|6', w.workerId, honest);
    await work(h.running, ctx, 'am|7', late!.workerId, honest);
    await collectBatch(ctx, 'am');
    expect(await summary(ctx)).toHaveLength(8);
    await expect(h.running.workers.acceptHit(w1!.workerId, await hitId(7))).rejects.toMatchObject({
      code: 'QualificationRequirementsNotMet',
    });

    // no more new workers: the experienced ones take every regular slot, and the starter HIT with free slots becomes a regular one
    for (const index of [2, 3, 4, 5]) for (const w of [w1!, w2!, w3!]) await work(h.running, ctx, `am|${index}`, w.workerId, honest);
    await collectBatch(ctx, 'am');
    expect((await summary(ctx)).slice(8)).toEqual([[8, 'regular', 'repost', 2, 1, 2]]);
    expect(await realKeys([8])).toEqual(await realKeys([7]));
    await work(h.running, ctx, 'am|8', w1!.workerId, honest);
    const hits = (await loadBatchData(ctx, 'am')).hits;

    // every gold item once in the whole batch, moves included
    const checks = hits.flatMap((x) => x.items.filter((i) => i.kind === 'check').map((i) => i.key));
    expect(new Set(checks).size).toBe(checks.length);
  });
});
