import type { HIT } from '@aws-sdk/client-mturk';
import { listAllHits } from '../support/mturk.js';
import { describe, expect, it } from 'vitest';
import { hitRequestToken } from '../../src/crowd/mturk/request-tokens.js';
import { hitAnnotation } from '../../src/pipeline/names.js';
import { dryRunPublish, preparePublish, publishBatch } from '../../src/pipeline/publish.js';
import { publishPending } from '../../src/pipeline/hit-service.js';
import { planQuestions } from '../../src/pipeline/plan.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, tempDir, testContext } from './support.js';
import { requireBatch } from '../../src/batches/index.js';

const h = useMarketplace();
const dir = tempDir();

async function marketplaceHits(): Promise<HIT[]> {
  const client = h.client();
  const hits = await listAllHits(client);
  return hits;
}

const ofBatch = (hits: HIT[], batch: string) => hits.filter((x) => x.RequesterAnnotation?.startsWith(`qrelay:${batch}|`));

describe('publish', () => {
  it('--dry-run prints the plan and the exact quote, and changes nothing', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'pub-a', 30);
    const dry = await dryRunPublish(ctx, 'pub-a', { preset: 'quick', target: h.running.url }, 'local');
    // quick: 4 real + 1 check per HIT; 30 items -> 7 x 4 + 1 x 2; 3 assignments of $0.55 + $0.11 fee
    expect(dry.plan.hits).toHaveLength(8);
    expect(dry.plan.quote).toMatchObject({
      hits: 8,
      assignments: 24,
      rewards: 24 * 55,
      fees: 24 * 11,
      total: 24 * 66,
      realItems: 30,
      feePercent: 20,
    });
    expect(dry.text).toContain('batch pub-a: 30 items in 8 HITs (7 x 4 items + 1 x 2 items)');
    expect(dry.text).toMatch(/total\s+\$15\.84/);
    expect(dry.text).toMatch(/per real label\s+\$0\.53/);
    expect(dry.text).toMatch(/attention checks: 8 \(4 known relevant, 4 known not relevant\)/);
    const batch = await requireBatch(ctx, 'pub-a');
    expect(batch.settings).toBeNull();
    const { batchStatus } = await import('../../src/pipeline/status.js');
    expect(await batchStatus(ctx, 'pub-a')).toMatchObject({
      state: 'draft',
      items: { total: 30, complete: 0 },
      hits: { total: 0 },
      cost: { spent: 0, quote: null },
    });
    expect(await ctx.models.hits.countDocuments({ batch: 'pub-a' })).toBe(0);
    expect(ofBatch(await marketplaceHits(), 'pub-a')).toHaveLength(0);
  });

  it('creates one HIT per planned HIT, and publishing again creates nothing', async () => {
    const lines: string[] = [];
    const ctx = testContext(h.db, {}, lines);
    const first = await publishBatch(ctx, 'pub-a', { preset: 'quick', target: h.running.url }, 'local');
    expect(first).toMatchObject({ hits: 8, created: 8, reused: 0, alreadyPublished: 0, quoteCents: 24 * 66 });
    const stored = await ctx.models.hits.find({ batch: 'pub-a' }).lean();
    expect(stored.every((x) => x.state === 'published' && x.hitId && x.requestToken === hitRequestToken('pub-a', x.index, 0))).toBe(true);
    const onPlatform = ofBatch(await marketplaceHits(), 'pub-a');
    expect(onPlatform.map((x) => x.RequesterAnnotation).sort()).toEqual(stored.map((x) => hitAnnotation('pub-a', x.index, 0)).sort());
    expect(onPlatform.every((x) => x.MaxAssignments === 3 && x.Reward === '0.55')).toBe(true);
    const batch = await requireBatch(ctx, 'pub-a');
    expect(batch).toMatchObject({ state: 'collecting', hitTypeId: onPlatform[0]!.HITTypeId });
    expect(lines.filter((l) => /HIT \d created \(\d\/8\)/.test(l))).toHaveLength(8);

    const again = await publishBatch(ctx, 'pub-a', undefined, 'local');
    expect(again).toMatchObject({ created: 0, reused: 0, alreadyPublished: 8 });
    expect(ofBatch(await marketplaceHits(), 'pub-a')).toHaveLength(8);
  });

  it("sends the plan's own pages, taking each out once its HIT is created", async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'pub-q', 12);
    const request = { preset: 'quick', target: h.running.url };
    const doc = await preparePublish(ctx, 'pub-q', request, 'local');
    // the stored settings and seed plan the same pages again
    const { plan } = await dryRunPublish(ctx, 'pub-q', request, 'local');
    const questions = planQuestions('pub-q', plan, 0);
    expect(questions.size).toBe(3);
    const sent = new Map([...questions].map(([id, q]) => [id, q.xml]));
    const result = await publishPending(ctx, doc, questions);
    expect(result).toMatchObject({ hits: 3, created: 3 });
    // nothing of the plan's pages is held once every HIT is out
    expect(questions.size).toBe(0);
    const stored = await ctx.models.hits.find({ batch: 'pub-q' }).lean();
    const onPlatform = new Map(ofBatch(await marketplaceHits(), 'pub-q').map((x) => [x.HITId, x.Question]));
    expect(stored.map((x) => onPlatform.get(x.hitId!))).toEqual(stored.map((x) => sent.get(x._id)));
  });

  it('takes HitAlreadyExists as success after a publisher died mid-call', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'pub-c', 8);
    await publishBatch(ctx, 'pub-c', { preset: 'quick', target: h.running.url }, 'local');
    // rewind HIT 1 to "token recorded, call made, response lost"
    await ctx.models.hits.updateOne({ _id: 'pub-c|1' }, { $set: { state: 'creating', hitId: null } });
    const result = await publishBatch(ctx, 'pub-c', undefined, 'local');
    expect(result).toMatchObject({ created: 0, reused: 1, alreadyPublished: 1 });
    expect(ofBatch(await marketplaceHits(), 'pub-c')).toHaveLength(2);
    const hit = await ctx.models.hits.findById('pub-c|1').lean();
    expect(hit?.state).toBe('published');
  });

  it('stops on a RequestError with a message naming the HIT, and resumes once fixed', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'pub-d', 8);
    await publishBatch(ctx, 'pub-d', { preset: 'quick', target: h.running.url }, 'local');
    // post HIT 1 anew (attempt 1) with a Question the platform refuses
    const saved = await ctx.models.hitQuestions.findById('pub-d|1').lean();
    await ctx.models.hitQuestions.updateOne({ _id: 'pub-d|1' }, { $set: { xml: '<HTMLQuestion>not closed' } });
    await ctx.models.hits.updateOne({ _id: 'pub-d|1' }, { $set: { state: 'planned', attempt: 1, hitId: null, requestToken: null } });
    await expect(publishBatch(ctx, 'pub-d', undefined, 'local')).rejects.toThrow(
      /^HIT 1 of batch pub-d: .* refused it: CreateHITWithHITType failed: AWS\.MechanicalTurk\.\w+/,
    );
    const failed = await ctx.models.hits.findById('pub-d|1').lean();
    expect(failed).toMatchObject({
      state: 'creating',
      requestToken: hitRequestToken('pub-d', 1, 1),
      lastError: expect.stringMatching(/refused it/),
    });
    await ctx.models.hitQuestions.updateOne({ _id: 'pub-d|1' }, { $set: { xml: saved!.xml } });
    expect(await publishBatch(ctx, 'pub-d', undefined, 'local')).toMatchObject({ created: 1, alreadyPublished: 1 });
    expect(ofBatch(await marketplaceHits(), 'pub-d')).toHaveLength(3); // HITs 0 and 1 of attempt 0, HIT 1 of attempt 1
  });

  it('refuses a quote over the budget before anything is stored or sent', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'pub-b', 30);
    await expect(publishBatch(ctx, 'pub-b', { preset: 'quick', target: h.running.url, budgetUsd: 10 }, 'local')).rejects.toThrow(
      'the quote for batch pub-b is $15.84, over the budget of $10.00: raise --budget or publish fewer items (nothing was published)',
    );
    expect((await requireBatch(ctx, 'pub-b')).settings).toBeNull();
    expect(ofBatch(await marketplaceHits(), 'pub-b')).toHaveLength(0);
  });

  it('needs --yes and --budget for production, before any call', async () => {
    const ctx = testContext(h.db, { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE', AWS_SECRET_ACCESS_KEY: 'not-a-real-secret' });
    await expect(publishBatch(ctx, 'pub-b', { preset: 'quick', target: 'production' }, 'local')).rejects.toThrow(
      'publishing to production spends real money: confirm with --yes and --budget <usd> (check the quote first with --dry-run)',
    );
    await expect(publishBatch(ctx, 'pub-b', { preset: 'quick', target: 'production', yes: true }, 'local')).rejects.toThrow(
      /confirm with --budget <usd>/,
    );
    expect((await requireBatch(ctx, 'pub-b')).settings).toBeNull();
  });

  it('names a missing batch and a missing gold pool', async () => {
    const ctx = testContext(h.db);
    await expect(publishBatch(ctx, 'nope', { preset: 'quick', target: h.running.url }, 'local')).rejects.toThrow(
      'no batch named nope: import its cases first (qrelay import <file> --batch nope)',
    );
    const { importFile } = await import('../../src/pipeline/import.js');
    const { sampleLines, writeLines } = await import('./support.js');
    await importFile(ctx, writeLines(dir, 'ng.jsonl', sampleLines('escalations.jsonl').slice(0, 3)), { batch: 'pub-nogold' });
    await expect(dryRunPublish(ctx, 'pub-nogold', { preset: 'quick' }, 'local')).rejects.toThrow(
      /batch pub-nogold has no gold items for attention checks: import a gold pool/,
    );
  });
});
