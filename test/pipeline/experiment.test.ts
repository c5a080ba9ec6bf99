import { GetHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { collectBatch } from '../../src/pipeline/collect.js';
import { dryRunPublish, publishBatch } from '../../src/pipeline/publish.js';
import { batchStatus, renderStatus } from '../../src/pipeline/status.js';
import { batchReport } from '../../src/export/batch-report.js';
import { renderReport } from '../../src/reports/index.js';
import { armOf } from '../../src/experiment/assign.js';
import { experimentModels } from '../../src/experiment/store.js';
import type { PipelineContext } from '../../src/pipeline/context.js';
import { advance, newWorker, useMarketplace } from '../marketplace/support.js';
import { useQrelayServer } from '../support/qrelay-server.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

// `qrelay publish --experiment debate` on the bundled marketplace through the real SDK: the
// HITs are ExternalQuestions at qrelay's task pages (real HTTP on both sides), each worker's
// arm is recorded before their first page is served, and status and report compare the arms.

const h = useMarketplace();
const dir = tempDir();
const qrelay = useQrelayServer(h.db);

/** The HIT's ExternalURL, as the platform holds it. */
async function externalUrl(hitId: string): Promise<string> {
  const question = (await h.client().send(new GetHITCommand({ HITId: hitId }))).HIT?.Question ?? '';
  const url = /<ExternalURL>([^<]+)<\/ExternalURL>/.exec(question)?.[1];
  expect(question).toContain('<ExternalQuestion');
  return url!.replaceAll('&amp;', '&');
}

/** The page as the platform's frame opens it: the ExternalURL with MTurk's parameters. */
async function openPage(url: string, params: Record<string, string>): Promise<string> {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const res = await fetch(u);
  expect(res.status).toBe(200);
  return res.text();
}

const hasDebate = (html: string) => html.includes('class="debate"');

/** Accepts a HIT as the worker, opens its page, answers it (checks right, real items by the truth) and submits. */
async function workHit(ctx: PipelineContext, hitDoc: string, workerId: string, arrivalsBefore: number) {
  const hit = (await ctx.models.hits.findById(hitDoc).lean())!;
  const models = experimentModels(h.db.connection);
  const url = await externalUrl(hit.hitId!);
  const view = await h.running.workers.acceptHit(workerId, hit.hitId!);
  expect(await models.arms.findById(`${hit.batch}|${workerId}`).lean()).toBeNull();
  const html = await openPage(url, { assignmentId: view.assignmentId, hitId: hit.hitId!, workerId, turkSubmitTo: h.running.url });
  // recorded by the time the page arrives, with the rank of its arrival and the arm the seeded rule gives it
  const recorded = await models.arms.findById(`${hit.batch}|${workerId}`).lean();
  expect(recorded).toMatchObject({ batch: hit.batch, workerId, rank: arrivalsBefore, firstHit: hit.index });
  expect(recorded!.arm).toBe(armOf(hit.batch, arrivalsBefore));
  expect(hasDebate(html)).toBe(recorded!.arm === 'debate');
  for (const item of hit.items) expect(html).toContain(`data-sim-key="${item.key}"`);
  const truth = new Map((await ctx.models.items.find({ batch: hit.batch }).lean()).map((r) => [r.key, r.label ?? 'yes']));
  const fields: Record<string, string> = { assignmentId: view.assignmentId };
  for (const item of hit.items) {
    fields[`item${item.position}_answer`] = item.kind === 'check' ? item.expected : truth.get(item.key)!;
    fields[`item${item.position}_ms`] = String(10_000 + 1000 * item.position);
  }
  // the page with the debate takes longer to read: 100 s against 60 s for the page's 5 items
  await advance(h, recorded!.arm === 'debate' ? 100 : 60);
  await h.running.workers.submitAssignment(workerId, view.assignmentId, fields);
  return { arm: recorded!.arm, url };
}

describe('publish --experiment debate', () => {
  it('routes each worker to the pages of their arm, recorded before the first page, and compares the arms', async () => {
    const ctx = testContext(h.db, qrelay.env);
    await importSampleBatch(ctx, dir, 'exp-a', 8);
    const published = await publishBatch(ctx, 'exp-a', { preset: 'quick', target: h.running.url, experiment: 'debate' }, 'local');
    expect(published).toMatchObject({ hits: 2, created: 2 });
    expect((await ctx.models.batches.findById('exp-a').lean())?.settings?.experiment).toBe('debate');
    // both pages of every HIT are stored: the one with the debate and the one without
    for (const q of await ctx.models.hitQuestions.find({ _id: { $in: ['exp-a|0', 'exp-a|1'] } }).lean()) {
      expect(q.xml).toContain('class="debate"');
      expect(q.withoutDebateXml).toBeDefined();
      expect(q.withoutDebateXml).not.toContain('class="debate"');
    }

    // a preview assigns nobody and shows no debate
    const hit0 = (await ctx.models.hits.findById('exp-a|0').lean())!;
    const preview = await openPage(await externalUrl(hit0.hitId!), { assignmentId: 'ASSIGNMENT_ID_NOT_AVAILABLE', hitId: hit0.hitId! });
    expect(hasDebate(preview)).toBe(false);
    expect(await experimentModels(h.db.connection).arms.countDocuments({ batch: 'exp-a' })).toBe(0);

    const workers = await Promise.all([0, 1, 2, 3, 4, 5].map(() => newWorker(h)));
    const arms: string[] = [];
    // the marketplace's time moves only as the test advances it: work times are exact
    h.running.marketplace.clock.hold();
    try {
      for (const [i, w] of workers.entries()) arms.push((await workHit(ctx, i < 3 ? 'exp-a|0' : 'exp-a|1', w.workerId, i)).arm);
    } finally {
      h.running.marketplace.clock.release();
    }
    // permuted blocks of two: every pair of arrivals is split between the arms
    for (let b = 0; b < 3; b++) expect(new Set(arms.slice(2 * b, 2 * b + 2))).toEqual(new Set(['debate', 'no-debate']));

    // a worker's later page of the batch is of the same arm, and is no new arrival
    const again = await openPage(await externalUrl(hit0.hitId!), {
      assignmentId: 'A-later',
      hitId: hit0.hitId!,
      workerId: workers[0]!.workerId,
      turkSubmitTo: h.running.url,
    });
    expect(hasDebate(again)).toBe(arms[0] === 'debate');
    expect(await experimentModels(h.db.connection).arms.countDocuments({ batch: 'exp-a' })).toBe(6);

    // both arms reviewed alike: every assignment approved and counted
    const round = await collectBatch(ctx, 'exp-a');
    expect(round.review).toMatchObject({ decided: 6, approved: 6 });

    const status = await batchStatus(ctx, 'exp-a');
    const estimate = { value: expect.any(Number), low: expect.anything(), high: expect.anything() };
    const armShape = (arm: string) => ({
      arm,
      workers: 3,
      items: expect.any(Number),
      balancedAccuracy: expect.objectContaining({ value: expect.anything() }),
      kappa: expect.objectContaining({ value: expect.toBeOneOf([null, expect.any(Number)]) }),
      secondsPerItem: estimate,
    });
    expect(status.experiment).toMatchObject({
      factor: 'debate',
      design: 'between-subjects',
      arms: [armShape('debate'), armShape('no-debate')],
      difference: {
        balancedAccuracy: { test: expect.stringMatching(/permutation test over workers/) },
        kappa: { test: expect.any(String) },
        secondsPerItem: { value: expect.any(Number), p: expect.any(Number), test: expect.any(String) },
      },
    });
    expect(renderStatus(status)).toMatch(/experiment: the debate history/);
    // work time (accept to submit) over the items on the page (4 real items and 1 check): 100 / 5 and 60 / 5
    const [debate, noDebate] = status.experiment!.arms;
    expect(debate!.secondsPerItem.value).toBeCloseTo(20, 6);
    expect(noDebate!.secondsPerItem.value).toBeCloseTo(12, 6);
    expect(status.experiment!.difference.secondsPerItem.value).toBeCloseTo(8, 6);
    // every worker answered every check right, in both arms
    expect([debate!.balancedAccuracy.value, noDebate!.balancedAccuracy.value]).toEqual([1, 1]);

    const { report } = await batchReport(ctx, 'exp-a');
    // the report and status compare the same answers with the same seed
    expect(report.experiment).toEqual(status.experiment);
    expect(renderReport(report, 'md')).toContain('Debate experiment');
    expect(renderReport(report, 'html')).toContain('Debate experiment');
  });

  it('says the experiment in the plan, and refuses it with the debate hidden', async () => {
    const ctx = testContext(h.db, qrelay.env);
    await importSampleBatch(ctx, dir, 'exp-b', 4);
    const dry = await dryRunPublish(ctx, 'exp-b', { preset: 'quick', target: h.running.url, experiment: 'debate' }, 'local');
    expect(dry.text).toContain('debate shown to half of the workers (experiment: docs/experiment.md)');
    await expect(
      publishBatch(ctx, 'exp-b', { preset: 'quick', target: h.running.url, experiment: 'debate', hideDebate: true }, 'local'),
    ).rejects.toThrow('--experiment debate shows the debate to half of the workers: publish batch exp-b without --hide-debate');
  });
});
