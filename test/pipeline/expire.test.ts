import { GetHITCommand, ListHITsCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { BatchStateError } from '../../src/pipeline/errors.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { cleanupBatch, expireBatch } from '../../src/pipeline/expire.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { advance, newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from './support.js';
import { requireBatch } from '../../src/batches/index.js';

const h = useMarketplace();
const dir = tempDir();
const missesChecks: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));

async function annotations(batch: string): Promise<string[]> {
  const page = await h.client().send(new ListHITsCommand({ MaxResults: 100 }));
  return (page.HITs ?? []).flatMap((x) => (x.RequesterAnnotation?.startsWith(`qrelay:${batch}|`) ? [x.RequesterAnnotation] : [])).sort();
}

describe('HITs that cannot bring the votes their items need', () => {
  it('posts the items of an expired HIT again in a new HIT sized to what they lack', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'exp-a', 4, 100);
    // every missing vote collected (recollect: always): with the default, items whose two votes agree need no third
    await publishBatch(ctx, 'exp-a', { preset: 'quick', target: h.running.url, recollect: 'always' }, 'local');
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    await work(h.running, ctx, 'exp-a|0', a!.workerId, honest);
    await work(h.running, ctx, 'exp-a|0', b!.workerId, honest);
    await advance(h, 3 * 3600); // past the quick preset's 2-hour lifetime (and its 1-hour auto-approval)
    const round = await collectBatch(ctx, 'exp-a');
    expect(round.review).toMatchObject({ decided: 2, approved: 2 });
    expect(round.followUp).toMatchObject({ extended: 0, stuck: 4, reposted: 1, complete: false });
    const repost = await ctx.models.hits.findById('exp-a|1').lean();
    expect(repost).toMatchObject({ origin: 'repost', state: 'published', maxAssignments: 1, realItems: 4, checks: 1 });
    expect(await annotations('exp-a')).toEqual(['qrelay:exp-a|0|0', 'qrelay:exp-a|1|0']);

    await work(h.running, ctx, 'exp-a|1', c!.workerId, honest);
    const last = await collectBatch(ctx, 'exp-a');
    expect(last.followUp.complete).toBe(true);
    expect((await requireBatch(ctx, 'exp-a')).summary).toMatchObject({ items: 4, itemsComplete: 4, labels: 4, validVotes: 12 });
  });

  it('never takes a HIT from 9 to 10 assignments: items it cannot serve go to a new HIT', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'exp-c', 4, 110);
    // the checks alone decide (worker-level decisions would keep the careless workers' other answers)
    await publishBatch(ctx, 'exp-c', { preset: 'quick', target: h.running.url, workerDecisions: false, recollect: 'always' }, 'local');
    const careless = await Promise.all(Array.from({ length: 9 }, () => newWorker(h)));
    const maxima: number[] = [];
    for (const round of [0, 1, 2]) {
      for (const w of careless.slice(round * 3, round * 3 + 3)) await work(h.running, ctx, 'exp-c|0', w.workerId, missesChecks);
      await collectBatch(ctx, 'exp-c');
      maxima.push((await ctx.models.hits.findById('exp-c|0').lean())!.maxAssignments);
    }
    expect(maxima).toEqual([6, 9, 9]);
    const hitId = (await ctx.models.hits.findById('exp-c|0').lean())!.hitId!;
    expect((await h.client().send(new GetHITCommand({ HITId: hitId }))).HIT?.MaxAssignments).toBe(9);
    const repost = await ctx.models.hits.findById('exp-c|1').lean();
    expect(repost).toMatchObject({ origin: 'repost', maxAssignments: 3, state: 'published' });
    expect((await ctx.models.hits.findById('exp-c|0').lean())?.state).toBe('done');
  });
});

describe('expire and cleanup', () => {
  it('expires the HITs, still takes in accepted work, then deletes them and closes the batch', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'exp-b', 4, 120);
    await publishBatch(ctx, 'exp-b', { preset: 'quick', target: h.running.url }, 'local');
    await expect(cleanupBatch(ctx, 'exp-b')).rejects.toThrow(BatchStateError);
    const [a, b] = await Promise.all([1, 2].map(() => newWorker(h)));
    await work(h.running, ctx, 'exp-b|0', a!.workerId, honest);
    const hitId = (await ctx.models.hits.findById('exp-b|0').lean())!.hitId!;
    const late = await h.running.workers.acceptHit(b!.workerId, hitId);

    const expired = await expireBatch(ctx, 'exp-b');
    expect(expired).toMatchObject({ expired: 1, dropped: 0 });
    expect(expired.collect.review).toMatchObject({ approved: 1 });
    expect((await requireBatch(ctx, 'exp-b')).state).toBe('expired');
    expect((await h.client().send(new GetHITCommand({ HITId: hitId }))).HIT?.HITStatus).toBe('Unassignable');

    // accepted before the expiry: may still be submitted, and is reviewed
    const hit = (await ctx.models.hits.findById('exp-b|0').lean())!;
    const fields: Record<string, string> = { assignmentId: late.assignmentId };
    for (const item of hit.items) fields[`item${item.position}_answer`] = item.kind === 'check' ? item.expected : 'yes';
    await h.running.workers.submitAssignment(b!.workerId, late.assignmentId, fields);

    const cleaned = await cleanupBatch(ctx, 'exp-b');
    expect(cleaned).toMatchObject({ deleted: 1, remaining: [], closed: true });
    const batch = await requireBatch(ctx, 'exp-b');
    // two votes per item: complete where they agree (a third could not change the majority)
    const labels = await ctx.models.labels.find({ batch: 'exp-b' }).lean();
    const decided = labels.filter((l) => l.votes.yes === 2 || l.votes.no === 2).length;
    expect(batch).toMatchObject({ state: 'closed', summary: { items: 4, itemsComplete: decided, validVotes: 8 } });
    expect(await ctx.models.assignments.countDocuments({ batch: 'exp-b', reviewState: 'done' })).toBe(2);
    expect(await ctx.models.hitQuestions.countDocuments({ _id: 'exp-b|0' })).toBe(0);
    expect(await annotations('exp-b')).toEqual([]);
    await expect(collectBatch(ctx, 'exp-b')).rejects.toThrow(/is closed/);
  });
});
