import type { HIT } from '@aws-sdk/client-mturk';
import { listAllHits } from '../support/mturk.js';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/hits/random.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { batchStatus } from '../../src/pipeline/status.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from './support.js';

// seeded draws: which requests are throttled or fail is the same in every run, so the
// counts below do not depend on chance (Math.random once gave 8 injected faults, not >10)
const draws = seededRng('qrelay-chaos-test');
const h = useMarketplace({ chaosRandom: () => draws.next() });
const dir = tempDir();

async function platformHits(batch: string): Promise<HIT[]> {
  const client = h.client({ maxAttempts: 20 });
  const hits = await listAllHits(client);
  return hits.filter((x) => x.RequesterAnnotation?.startsWith(`qrelay:${batch}|`));
}

const missesChecks: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));

/** Publishes and collects a batch with scripted workers: per HIT, one careless worker and three careful ones. */
async function run(batch: string) {
  const retries: string[] = [];
  const ctx = testContext(h.db, {}, [], retries);
  await importSampleBatch(ctx, dir, batch, 24);
  // the checks alone decide (worker-level decisions would keep the careless worker's other answers)
  // and every lost vote collected again (recollect: always), so that each HIT offers the fourth worker an extra assignment
  await publishBatch(
    ctx,
    batch,
    { preset: 'quick', target: h.running.url, seed: 'same-seed-for-both', workerDecisions: false, recollect: 'always' },
    'local',
  );
  const workers = await Promise.all([1, 2, 3, 4].map(() => newWorker(h)));
  const hits = (await ctx.models.hits.find({ batch }).lean()).sort((a, b) => a.index - b.index);
  for (const hit of hits) {
    await work(h.running, ctx, hit._id, workers[0]!.workerId, missesChecks);
    for (const w of workers.slice(1, 3)) await work(h.running, ctx, hit._id, w.workerId, honest);
  }
  let round = await collectBatch(ctx, batch);
  // the extra assignment each HIT now offers goes to the fourth worker
  for (const hit of hits) await work(h.running, ctx, hit._id, workers[3]!.workerId, honest);
  for (let i = 0; i < 5 && !round.followUp.complete; i++) round = await collectBatch(ctx, batch);
  const status = await batchStatus(ctx, batch);
  const labels = (await ctx.models.labels.find({ batch }).lean()).map((l) => `${l.queryId}/${l.chunkId}=${l.label}`).sort();
  return { status, labels, retries, platform: (await platformHits(batch)).length };
}

describe('under throttling and service faults', () => {
  it('the same batch completes with identical counts', async () => {
    const calm = await run('calm');
    h.running.chaos.set({ throttleShare: 0.2, faultShare: 0.05 });
    let storm;
    try {
      storm = await run('storm');
    } finally {
      h.running.chaos.set({ throttleShare: 0, faultShare: 0 });
    }
    expect(calm.status.state).toBe('complete');
    expect(calm.status).toMatchObject({
      items: { total: 24, complete: 24, labelled: 24 },
      assignments: { total: 24, approved: 18, discarded: 6, rejected: 0 },
      validVotes: 72,
    });
    const counts = (r: typeof calm) => ({
      state: r.status.state,
      items: r.status.items,
      hits: r.status.hits,
      assignments: r.status.assignments,
      validVotes: r.status.validVotes,
      spent: r.status.cost.spent,
      platform: r.platform,
    });
    expect(counts(storm)).toEqual(counts(calm));
    expect(storm.labels).toEqual(calm.labels);
    expect(storm.platform).toBe(6);
    // the injected faults reached our calls and were absorbed by retries (a network retry,
    // a keep-alive socket the server closed, may happen in either run and is beside the point)
    const injected = (r: { retries: string[] }) => r.retries.filter((x) => /:(throttled|service-fault)$/.test(x));
    expect(injected(calm)).toEqual([]);
    expect(new Set(injected(storm).map((r) => r.split(':')[1]))).toEqual(new Set(['throttled', 'service-fault']));
    expect(injected(storm).length).toBeGreaterThan(10);
  });
});
