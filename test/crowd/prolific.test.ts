import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectBatch } from '../../src/pipeline/collect.js';
import { dryRunPublish, publishBatch } from '../../src/pipeline/publish.js';
import { batchReport } from '../../src/export/batch-report.js';
import { requireBatch } from '../../src/batches/index.js';
import { DEV_MARKETPLACE_PROLIFIC_TOKEN } from '@qrelay/marketplace/config';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { useQrelayServer } from '../support/qrelay-server.js';
import { honest, importSampleBatch, tempDir, testContext, type Answerer } from '../pipeline/support.js';
import type { PipelineContext } from '../../src/pipeline/context.js';
import { paths } from '../../src/paths.js';
import { taskModels } from '../../src/tasks/store.js';
import { runCli, stderrLines } from '../support/cli.js';
import { SiteClient } from '../marketplace/site/client.js';

// A batch published with --target prolific on the bundled marketplace's Prolific API: the
// studies link to qrelay's own task pages (real HTTP on both sides), participants take part
// through the study links, and the pipeline reviews and labels what they submitted there.

const h = useMarketplace();
const dir = tempDir();
const qrelay = useQrelayServer(h.db, () => ({
  PROLIFIC_API_URL: `${h.running.url}/prolific/api/v1/`,
  PROLIFIC_API_TOKEN: DEV_MARKETPLACE_PROLIFIC_TOKEN,
}));
let publicUrl: string;
let env: Record<string, string>;
beforeAll(() => {
  ({ publicUrl, env } = qrelay);
});

/**
 * One participant takes the HIT's study: "Take part" (the marketplace's startStudy), the
 * study link on qrelay (a redirect that adds the session to the page's address), the page,
 * its form posted to qrelay, then the completion URL it redirects to.
 */
async function takePart(
  ctx: PipelineContext,
  hitDoc: string,
  workerId: string,
  answer: Answerer,
): Promise<{ session: string; done: string }> {
  const hit = (await ctx.models.hits.findById(hitDoc).lean())!;
  const { submissionId, url } = await h.running.prolific.startStudy(workerId, hit.hitId!);
  expect(url.startsWith(`${publicUrl}/tasks/`)).toBe(true);
  const arrive = await fetch(url, { redirect: 'manual' });
  expect(arrive.status).toBe(303);
  const pageUrl = new URL(arrive.headers.get('location')!, publicUrl);
  expect(pageUrl.searchParams.get('assignmentId')).toBe(submissionId);
  expect(pageUrl.searchParams.get('turkSubmitTo')).toBe(`${publicUrl}/tasks`);
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  // the HIT's own page: its items, posting to qrelay with the session when scripts are off
  for (const item of hit.items) expect(html).toContain(`data-sim-key="${item.key}"`);
  expect(html).toContain(`action="${publicUrl}/tasks/mturk/externalSubmit"`);

  const truth = new Map((await ctx.models.items.find({ batch: hit.batch }).lean()).map((r) => [r.key, r.label ?? undefined]));
  const form = new URLSearchParams({ assignmentId: submissionId });
  for (const item of hit.items) {
    form.set(`item${item.position}_answer`, answer(item, truth.get(item.key)));
    form.set(`item${item.position}_ms`, '15000');
  }
  const submit = await fetch(`${publicUrl}/tasks/mturk/externalSubmit`, { method: 'POST', body: form, redirect: 'manual' });
  expect(submit.status).toBe(303);
  const done = submit.headers.get('location')!;
  expect(done).toMatch(new RegExp(`^${h.running.url}/prolific/submissions/complete\\?cc=[0-9A-F]{12}$`));
  const cc = new URL(done).searchParams.get('cc')!;
  const completed = await h.running.prolific.completeStudy(workerId, cc);
  expect(completed?.submission.status).toBe('AWAITING REVIEW');
  return { session: submissionId, done };
}

describe('--target prolific on the bundled marketplace', () => {
  it('publishes studies linking to task pages, collects what participants submitted there, reviews and labels', async () => {
    const ctx = testContext(h.db, env);
    await importSampleBatch(ctx, dir, 'pro-a', 4, 40);
    const published = await publishBatch(ctx, 'pro-a', { preset: 'quick', target: 'prolific', workerDecisions: false }, 'local');
    expect(published).toMatchObject({ hits: 1, created: 1 });
    const hit = (await ctx.models.hits.findById('pro-a|0').lean())!;
    const study = await h.running.prolific.getStudy(hit.hitId!);
    expect(study).toMatchObject({ status: 'ACTIVE', total_available_places: 3, reward: 55, internal_name: hit.requestToken });

    // publishing again finds the study by its request token
    expect(await publishBatch(ctx, 'pro-a', undefined, 'local')).toMatchObject({ created: 0, alreadyPublished: 1 });

    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    const sessions = [];
    for (const w of workers) sessions.push(await takePart(ctx, 'pro-a|0', w.workerId, honest));

    const round = await collectBatch(ctx, 'pro-a');
    expect(round.review).toMatchObject({ decided: 3, approved: 3 });
    expect(round.followUp.complete).toBe(true);
    const batch = await requireBatch(ctx, 'pro-a');
    expect(batch.state).toBe('complete');
    expect(batch.summary).toMatchObject({ items: 4, itemsComplete: 4, labels: 4 });
    for (const s of sessions) {
      const sub = (await h.running.prolific.getSubmission(s.session)) as { status: string };
      expect(sub.status).toBe('APPROVED');
    }

    // the report prices the work at Prolific's fee (a third of each reward), as the quote did
    const { report } = await batchReport(ctx, 'pro-a');
    expect(report.cost).toMatchObject({ rewards: 3 * 55, feesOnRewards: 3 * 18, total: 3 * 73 });
    expect(report.cost.feeTerms).toEqual([expect.objectContaining({ feePercent: 33.33, feePerAssignmentCents: 18 })]);
    expect((await requireBatch(ctx, 'pro-a')).plan?.quote).toMatchObject({ feePerAssignment: 18, total: 3 * 73 });
  });

  it('adds a place to the study where a discarded vote is missing, and serves the page as an ExternalQuestion', async () => {
    const ctx = testContext(h.db, env);
    await importSampleBatch(ctx, dir, 'pro-d', 4, 52);
    await publishBatch(ctx, 'pro-d', { preset: 'quick', target: 'prolific', workerDecisions: false, recollect: 'always' }, 'local');
    const missesCheck: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));
    const workers = await Promise.all([1, 2, 3, 4].map(() => newWorker(h)));
    await takePart(ctx, 'pro-d|0', workers[0]!.workerId, honest);
    await takePart(ctx, 'pro-d|0', workers[1]!.workerId, honest);
    await takePart(ctx, 'pro-d|0', workers[2]!.workerId, missesCheck);
    const first = await collectBatch(ctx, 'pro-d');
    expect(first.review).toMatchObject({ decided: 3, approved: 2, discarded: 1 });
    expect(first.followUp).toMatchObject({ extended: 1, extraAssignments: 1, complete: false });
    const hit = (await ctx.models.hits.findById('pro-d|0').lean())!;
    expect(await h.running.prolific.getStudy(hit.hitId!)).toMatchObject({ status: 'ACTIVE', total_available_places: 4 });
    // a participant who took part already is not offered the study again
    expect(await h.running.prolific.availableStudies(workers[0]!.workerId)).toEqual([]);
    await takePart(ctx, 'pro-d|0', workers[3]!.workerId, honest);
    const second = await collectBatch(ctx, 'pro-d');
    expect(second.followUp.complete).toBe(true);
    expect((await requireBatch(ctx, 'pro-d')).summary).toMatchObject({ items: 4, itemsComplete: 4, labels: 4 });

    // the same page for MTurk as an ExternalQuestion: served as it is, posting to MTurk's turkSubmitTo
    const study = (await h.running.prolific.getStudy(hit.hitId!)) as { external_study_url: string };
    const link = new URL(study.external_study_url);
    const external = await fetch(
      `${publicUrl}${link.pathname}?sig=${link.searchParams.get('sig')}&assignmentId=A1&hitId=H1&workerId=W1&turkSubmitTo=https%3A%2F%2Fworkersandbox.mturk.com`,
    );
    expect(external.status).toBe(200);
    const html = await external.text();
    expect(html).toContain('action="https://www.mturk.com/mturk/externalSubmit"');
    for (const item of hit.items) expect(html).toContain(`data-sim-key="${item.key}"`);
  });

  it('is taken as a browser takes it: the worker site, the study link, the page with scripts off, the completion URL', async () => {
    const ctx = testContext(h.db, env);
    await importSampleBatch(ctx, dir, 'pro-e', 4, 56);
    await publishBatch(ctx, 'pro-e', { preset: 'quick', target: 'prolific' }, 'local');
    const hit = (await ctx.models.hits.findById('pro-e|0').lean())!;
    const worker = await h.running.workers.createWorker({ displayName: `pro-e-${process.pid}`, password: 'a long enough password 1' });
    const browser = new SiteClient(h.running.url);
    await browser.login(worker.displayName, 'a long enough password 1');
    const list = await browser.get('/worker/prolific/studies');
    expect(list.html).toContain(`/worker/prolific/studies/${hit.hitId}/start`);
    const started = await browser.post(`/worker/prolific/studies/${hit.hitId}/start`, { _csrf: SiteClient.csrf(list.html) });
    expect(started.status).toBe(303);
    const arrived = await browser.get(started.location!);
    expect(arrived.status).toBe(303);
    const page = await browser.get(new URL(arrived.location!, publicUrl).href);
    expect(page.status).toBe(200);
    // the form as the page writes it: its action and its hidden session
    const action = /<form id="hit-form" method="post" action="([^"]+)"/.exec(page.html)![1]!;
    const session = /name="assignmentId" value="([^"]*)"/.exec(page.html)![1]!;
    const fields: [string, string][] = [['assignmentId', session]];
    for (const item of hit.items) fields.push([`item${item.position}_answer`, item.kind === 'check' ? item.expected : 'yes']);
    const posted = await browser.post(action, fields);
    expect(posted.status).toBe(303);
    const done = await browser.get(posted.location!);
    expect(done.status).toBeLessThan(400);
    expect(await h.running.prolific.getSubmission(session)).toMatchObject({ status: 'AWAITING REVIEW', participant: expect.any(String) });
    const round = await collectBatch(ctx, 'pro-e');
    expect(round.review).toMatchObject({ decided: 1, approved: 1 });
  });

  it('refuses a task link qrelay did not sign, and a session that was never opened', async () => {
    const ctx = testContext(h.db, env);
    await importSampleBatch(ctx, dir, 'pro-b', 4, 44);
    // the dream preset on Prolific: its requirements as filters where one exists, the exam named as having none, Prolific's fees
    const dry = await dryRunPublish(ctx, 'pro-b', { preset: 'dream', target: 'prolific' }, 'local');
    expect(dry.text).toContain('eligibility on Prolific: approval_rate, approval_numbers');
    expect(dry.text).toMatch(/not on Prolific: .*dream-exam qualification test has no Prolific equivalent/);
    expect(dry.text).toContain("cost quote (every assignment approved; Prolific's fees):");
    expect(dry.plan.quote.feePerAssignment).toBe(33);
    // adaptive checks need qualification types: refused before any study is posted
    await importSampleBatch(ctx, dir, 'pro-f', 8, 60);
    await expect(publishBatch(ctx, 'pro-f', { preset: 'quick', target: 'prolific', adaptiveChecks: true }, 'local')).rejects.toThrow(
      /adaptive attention checks needs qualification types, which prolific \(target prolific\) does not have/,
    );
    expect((await ctx.models.hits.find({ batch: 'pro-f' }).lean()).filter((x) => x.hitId)).toEqual([]);
    await publishBatch(ctx, 'pro-b', { preset: 'quick', target: 'prolific' }, 'local');
    const forged = await fetch(`${publicUrl}/tasks/pro-b/0?sig=AAAAAAAAAAAAAAAAAAAAAAAA&PROLIFIC_PID=a&STUDY_ID=b&SESSION_ID=c`);
    expect(forged.status).toBe(403);
    expect(await forged.text()).toMatch(/not signed by qrelay/);
    const unknown = await fetch(`${publicUrl}/tasks/mturk/externalSubmit`, {
      method: 'POST',
      body: new URLSearchParams({ assignmentId: '0123456789abcdef01234567', item1_answer: 'yes' }),
      redirect: 'manual',
    });
    expect(unknown.status).toBe(404);
  });

  it('pays a bonus once though the paying CLI is killed (SIGKILL) during the payment; block, message and workers act on participants', async () => {
    const ctx = testContext(h.db, env);
    await importSampleBatch(ctx, dir, 'pro-c', 4, 48);
    await publishBatch(ctx, 'pro-c', { preset: 'quick', target: 'prolific', workerDecisions: false }, 'local');
    const w = await newWorker(h);
    const { session } = await takePart(ctx, 'pro-c|0', w.workerId, honest);
    await collectBatch(ctx, 'pro-c');
    const participant = ((await h.running.prolific.getSubmission(session)) as { participant: string }).participant;
    const args = ['worker', 'bonus', participant, '--assignment', session, '--amount', '0.50', '--reason', 'careful work on every item'];

    // killed once its bonus is recorded as being paid (before, during or just after the pay call)
    const memory = taskModels(h.db.connection).memory;
    const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
      cwd: paths.root,
      env: { ...process.env, ...env, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    for (let i = 0; i < 2400; i++) {
      const docs = await memory.find({}).lean();
      if (docs.some((d) => d._id.startsWith('bonus:') && (d.value as { state?: string }).state !== 'created')) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const again = await runCli([...args, '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    const third = await runCli(args, env);
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/was paid already; nothing sent/);
    const sub = (await h.running.prolific.getSubmission(session)) as { bonus_payments: number[] };
    expect(sub.bonus_payments).toEqual([50]);

    // a crash between the pay call and its record: the next call finds the payment on the submission and pays nothing
    const platform = ctx.backend('prolific');
    const direct = {
      workerId: participant,
      assignmentId: session,
      amount: '0.25',
      reason: 'a direct bonus',
      uniqueRequestToken: 'qrelay-test-direct',
    };
    await platform.sendBonus(direct);
    await memory.updateOne({ _id: 'bonus:qrelay-test-direct' }, { $set: { 'value.state': 'paying' } });
    await platform.sendBonus(direct);
    expect((await memory.findById('bonus:qrelay-test-direct').lean())?.value).toMatchObject({ state: 'paid' });
    expect((await platform.listBonusPayments(session)).map((b) => b.amount)).toEqual(['0.50', '0.25']);

    const blocked = await runCli(['worker', 'block', participant, '--reason', 'answers copied from elsewhere', '--batch', 'pro-c'], env);
    expect(blocked.code, stderrLines(blocked.stderr).join('\n')).toBe(0);
    expect(blocked.stdout).toContain(`worker ${participant}: blocked on prolific`);
    expect(await h.running.prolific.availableStudies(w.workerId)).toEqual([]);
    const workers = await runCli(['workers', 'pro-c', '--json'], env);
    expect(workers.code, workers.stderr).toBe(0);
    const table = JSON.parse(workers.stdout) as {
      workers: { workerId: string; blocked: boolean | null }[];
      platform: { reachable: boolean };
    };
    expect(table.platform.reachable).toBe(true);
    expect(table.workers.map((x) => [x.workerId, x.blocked])).toEqual([[participant, true]]);
    const message = await runCli(
      ['worker', 'message', participant, '--subject', 'Thank you', '--text', 'Your bonus is paid.', '--batch', 'pro-c'],
      env,
    );
    expect(message.code, message.stderr).toBe(0);
    expect(message.stdout).toContain(`message sent to 1 worker: ${participant}`);
    const unblocked = await runCli(['worker', 'unblock', participant, '--batch', 'pro-c'], env);
    expect(unblocked.code, unblocked.stderr).toBe(0);
  });
});
