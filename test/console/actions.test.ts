import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateQualificationTypeCommand,
  GetQualificationScoreCommand,
  ListBonusPaymentsCommand,
  ListWorkerBlocksCommand,
} from '@aws-sdk/client-mturk';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionModels } from '../../src/actions/models.js';
import type { AppContext } from '../../src/api/context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { exportQrels } from '../../src/export/index.js';
import { createLogger } from '../../src/log.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { paths } from '../../src/paths.js';
import { runCli } from '../support/cli.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from '../pipeline/support.js';

/**
 * The requester's actions over REST and the CLI, against the bundled marketplace through
 * the real SDK: every effect is checked on the platform (ListWorkerBlocks,
 * ListBonusPayments, GetQualificationScore), in the batch's numbers and in its audit log.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-console-');
const TOKEN = 'console-actions-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };
const BATCH = 'con-a';
let app: ReturnType<typeof createApp>;
let workers: { w1: string; w2: string; w3: string };
let discarded: string;
let honestAssignment: string;

const missesCheck: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));

beforeAll(async () => {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, BATCH, 8);
  // the checks alone decide, so that w3's one missed check leaves a discarded assignment to act
  // on (worker-level decisions would keep it counted: test/pipeline/worker-decisions.test.ts)
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url, budgetUsd: 10, workerDecisions: false }, 'local');
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
  workers = { w1: a!.workerId, w2: b!.workerId, w3: c!.workerId };
  honestAssignment = await work(h.running, ctx, `${BATCH}|0`, workers.w1, honest);
  await work(h.running, ctx, `${BATCH}|1`, workers.w1, honest);
  for (const hit of [`${BATCH}|0`, `${BATCH}|1`]) await work(h.running, ctx, hit, workers.w2, honest);
  discarded = await work(h.running, ctx, `${BATCH}|0`, workers.w3, missesCheck);
  await work(h.running, ctx, `${BATCH}|1`, workers.w3, honest);
  await collectBatch(ctx, BATCH);
  const config = loadConfig({ ...process.env, MTURK_TARGET: h.running.url });
  const appCtx: AppContext = { config, logger: createLogger('silent'), connection: h.db.connection, apiToken: TOKEN };
  app = createApp(appCtx);
});

const blocked = async () => ((await h.client().send(new ListWorkerBlocksCommand({}))).WorkerBlocks ?? []).map((b) => b.WorkerId);
const bonusesFor = async (assignmentId: string) =>
  (await h.client().send(new ListBonusPaymentsCommand({ AssignmentId: assignmentId }))).BonusPayments ?? [];

describe('REST actions under /api/v1', () => {
  it('lists the workers with checks, agreement, flags, blocks, scores and bonuses', async () => {
    const res = await request(app).get(`/api/v1/workers?batch=${BATCH}`).set(auth);
    expect(res.status).toBe(200);
    expect(res.body.batch).toBe(BATCH);
    const byId = new Map((res.body.workers as Array<{ workerId: string }>).map((w) => [w.workerId, w]));
    expect([...byId.keys()].sort()).toEqual([workers.w1, workers.w2, workers.w3].sort());
    expect(byId.get(workers.w3)).toMatchObject({
      assignments: { submitted: 2, discarded: 1, counted: 1 },
      assignmentIds: expect.arrayContaining([discarded]),
      checks: { total: 2, passed: 1 },
      flags: expect.arrayContaining(['low-check-pass-rate']),
      blocked: false,
      qualifications: {},
      bonuses: { count: 0, cents: 0 },
    });
    expect(byId.get(workers.w1)).toMatchObject({ assignments: { submitted: 2, counted: 2 }, checks: { total: 2, passed: 2 }, flags: [] });
  });

  it('blocks and unblocks on the platform, with the token only, repeat-safe and audited', async () => {
    expect((await request(app).post(`/api/v1/workers/${workers.w3}/block`).send({ reason: 'fails checks' })).status).toBe(401);
    const first = await request(app).post(`/api/v1/workers/${workers.w3}/block`).set(auth).send({ reason: 'fails checks' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ workerId: workers.w3, blocked: true, wasBlocked: false, batches: [BATCH] });
    expect(await blocked()).toContain(workers.w3);
    const again = await request(app).post(`/api/v1/workers/${workers.w3}/block`).set(auth).send({ reason: 'fails checks' });
    expect(again.body).toMatchObject({ wasBlocked: true });
    expect(
      (await request(app).get(`/api/v1/workers?batch=${BATCH}`).set(auth)).body.workers.find(
        (w: { workerId: string }) => w.workerId === workers.w3,
      ),
    ).toMatchObject({ blocked: true, blockReason: 'fails checks' });
    const unblock = await request(app).post(`/api/v1/workers/${workers.w3}/unblock`).set(auth).send({});
    expect(unblock.body).toMatchObject({ blocked: false, wasBlocked: true });
    expect(await blocked()).not.toContain(workers.w3);
    const missing = await request(app).post(`/api/v1/workers/${workers.w3}/block`).set(auth).send({});
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].field).toBe('body.reason');
  });

  it('pays a bonus once however often asked, counts it in the spend and holds it to the budget', async () => {
    const before = (await request(app).get(`/api/v1/batches/${BATCH}/overview`)).body;
    const body = { assignmentId: honestAssignment, amount: '0.50', reason: 'careful comments' };
    const first = await request(app).post(`/api/v1/workers/${workers.w1}/bonus`).set(auth).send(body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ paid: true, alreadyPaid: false, amountCents: 50, feeCents: 10 });
    const second = await request(app).post(`/api/v1/workers/${workers.w1}/bonus`).set(auth).send(body);
    expect(second.body).toMatchObject({ paid: false, alreadyPaid: true, uniqueRequestToken: first.body.uniqueRequestToken });
    const paid = await bonusesFor(honestAssignment);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ WorkerId: workers.w1, BonusAmount: '0.50', Reason: 'careful comments' });
    const after = (await request(app).get(`/api/v1/batches/${BATCH}/overview`)).body;
    expect(after.bonusCents).toBe(60);
    expect(after.spendCents).toBe(before.spendCents + 60);
    // the HITs commit 6 x $0.66 = $3.96 of the $10 budget: a $9 bonus ($10.80 with its fee) does not fit
    const over = await request(app)
      .post(`/api/v1/workers/${workers.w1}/bonus`)
      .set(auth)
      .send({ ...body, amount: '9.00' });
    expect(over.status).toBe(400);
    expect(over.body.detail).toMatch(/over its budget of \$10\.00/);
    expect(await bonusesFor(honestAssignment)).toHaveLength(1);
    const wrongWorker = await request(app).post(`/api/v1/workers/${workers.w2}/bonus`).set(auth).send(body);
    // no such assignment of this worker: 404, as for an assignment that does not exist
    expect(wrongWorker.status).toBe(404);
    expect(wrongWorker.body.detail).toContain(`was done by worker ${workers.w1}`);
  });

  it('messages a worker and sets, then revokes, a qualification score', async () => {
    const msg = await request(app)
      .post('/api/v1/workers/message')
      .set(auth)
      .send({ workerIds: [workers.w2], subject: 'Thanks', text: 'Good work on the relevance HITs.' });
    expect(msg.status, JSON.stringify(msg.body)).toBe(200);
    expect(msg.body).toMatchObject({ sent: [workers.w2], failed: [] });
    const type = await h.client().send(
      new CreateQualificationTypeCommand({
        Name: 'console-test-skill',
        Description: 'set by the console test',
        QualificationTypeStatus: 'Active',
      }),
    );
    const typeId = type.QualificationType!.QualificationTypeId!;
    const set = await request(app)
      .post(`/api/v1/workers/${workers.w2}/qualification`)
      .set(auth)
      .send({ qualification: 'console-test-skill', value: 7 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ qualificationTypeId: typeId, value: 7, revoked: false });
    const score = await h.client().send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: workers.w2 }));
    expect(score.Qualification).toMatchObject({ IntegerValue: 7, Status: 'Granted' });
    const revoke = await request(app)
      .post(`/api/v1/workers/${workers.w2}/qualification`)
      .set(auth)
      .send({ qualification: typeId, revoke: true, reason: 'test over' });
    expect(revoke.body).toMatchObject({ revoked: true, value: null });
    const afterRevoke = await h
      .client()
      .send(new GetQualificationScoreCommand({ QualificationTypeId: typeId, WorkerId: workers.w2 }))
      .then(
        (r) => r.Qualification?.Status,
        () => 'gone',
      );
    expect(afterRevoke).not.toBe('Granted');
    const unknown = await request(app)
      .post(`/api/v1/workers/${workers.w2}/qualification`)
      .set(auth)
      .send({ qualification: 'no-such-qualification', value: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^--qualification: no qualification type "no-such-qualification"/);
  });

  it('overrides a discarded assignment: its votes count again and the labels are recomputed', async () => {
    const before = (await request(app).get(`/api/v1/batches/${BATCH}`)).body;
    const res = await request(app)
      .post(`/api/v1/assignments/${discarded}/override`)
      .set(auth)
      .send({ decision: 'approve', reason: 'the check item was ambiguous' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      assignmentId: discarded,
      workerId: workers.w3,
      decision: 'approve',
      platform: 'already-approved',
      countsVotes: true,
    });
    const after = (await request(app).get(`/api/v1/batches/${BATCH}`)).body;
    // 4 more valid votes: the discarded assignment answered the 4 real items of HIT 0
    expect(after.validVotes).toBe(before.validVotes + 4);
    const w3 = (await request(app).get(`/api/v1/workers?batch=${BATCH}`).set(auth)).body.workers.find(
      (w: { workerId: string }) => w.workerId === workers.w3,
    );
    expect(w3.assignments.counted).toBe(2);
    const answers = (await request(app).get(`/api/v1/batches/${BATCH}/workers/${workers.w3}/answers`).set(auth)).body as Array<{
      assignmentId: string;
      review: string;
      kind: string;
    }>;
    expect(answers.filter((a) => a.assignmentId === discarded).every((a) => a.review === 'override: approve')).toBe(true);
    expect(answers.some((a) => a.kind === 'check')).toBe(true);
  });

  it('takes a manual label into the exported JSONL qrels with source manual, and lists it', async () => {
    const items = (await request(app).get(`/api/v1/batches/${BATCH}/items`).set(auth)).body as Array<{
      queryId: string;
      chunkId: string;
      label: string;
      source: string;
    }>;
    expect(items).toHaveLength(8);
    const item = items[0]!;
    const flipped = item.label === 'yes' ? 'no' : 'yes';
    const res = await request(app)
      .post(`/api/v1/batches/${BATCH}/manual-labels`)
      .set(auth)
      .send({ queryId: item.queryId, chunkId: item.chunkId, label: flipped, note: 'read it myself' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ label: flipped, previous: null, changed: true, who: 'api' });
    const listed = (await request(app).get(`/api/v1/batches/${BATCH}/manual-labels`)).body;
    expect(listed).toEqual([
      expect.objectContaining({ queryId: item.queryId, chunkId: item.chunkId, label: flipped, note: 'read it myself' }),
    ]);
    expect(
      ((await request(app).get(`/api/v1/batches/${BATCH}/items`).set(auth)).body as typeof items).find(
        (i) => i.queryId === item.queryId && i.chunkId === item.chunkId,
      ),
    ).toMatchObject({ label: flipped, source: 'manual' });
    const out = join(dir, 'merged.jsonl');
    await exportQrels(testContext(h.db), { batch: BATCH, base: join(paths.samples, 'qrels', 'base.tsv'), out });
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { query_id: string; doc_id: string; rel: number; source: string });
    expect(lines.find((l) => l.query_id === item.queryId && l.doc_id === item.chunkId)).toMatchObject({
      source: 'manual',
      rel: flipped === 'yes' ? 1 : 0,
    });
    const unknown = await request(app)
      .post(`/api/v1/batches/${BATCH}/manual-labels`)
      .set(auth)
      .send({ queryId: 'nope', chunkId: 'nope', label: 'yes', note: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/^--query "nope" --chunk "nope": batch con-a has no such escalated item/);
  });

  it('deletes a draft batch only, and keeps an audit log of who did what', async () => {
    await importSampleBatch(testContext(h.db), dir, 'con-draft', 3);
    expect((await request(app).delete('/api/v1/batches/con-draft')).status).toBe(401);
    const del = await request(app).delete('/api/v1/batches/con-draft').set(auth);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toMatchObject({ batch: 'con-draft', deleted: { items: 3 } });
    expect((await request(app).get('/api/v1/batches/con-draft')).status).toBe(404);
    const refused = await request(app).delete(`/api/v1/batches/${BATCH}`).set(auth);
    expect(refused.status).toBe(409);
    const audit = (await request(app).get(`/api/v1/batches/${BATCH}/audit`).set(auth)).body as Array<{
      who: string;
      action: string;
      outcome: string;
    }>;
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['block', 'unblock', 'bonus', 'message', 'qualify', 'revoke', 'override', 'label']),
    );
    expect(audit.every((a) => a.who === 'api')).toBe(true);
    expect(audit.filter((a) => a.action === 'bonus').map((a) => a.outcome)).toEqual(['done', 'already-done']);
  });

  it('describes every action in /openapi.json, with bearer security on the mutations', async () => {
    const doc = (await request(app).get('/openapi.json')).body as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    for (const [path, method] of [
      ['/api/v1/workers/{worker}/block', 'post'],
      ['/api/v1/workers/{worker}/unblock', 'post'],
      ['/api/v1/workers/{worker}/bonus', 'post'],
      ['/api/v1/workers/message', 'post'],
      ['/api/v1/workers/{worker}/qualification', 'post'],
      ['/api/v1/assignments/{assignment}/override', 'post'],
      ['/api/v1/batches/{batch}/manual-labels', 'post'],
      ['/api/v1/batches/{batch}', 'delete'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
    }
    for (const path of ['/api/v1/workers', '/api/v1/batches/{batch}/items', '/api/v1/batches/{batch}/audit', '/api/v1/overview'])
      expect(doc.paths[path]?.get, path).toBeDefined();
  });
});

describe('the same actions on the command line', () => {
  const env = () => ({ MTURK_TARGET: h.running.url, MARKETPLACE_URL: h.running.url });

  it('lists the workers as JSON, blocks and unblocks, pays a repeated bonus once', { timeout: 180_000 }, async () => {
    const listed = await runCli(['workers', BATCH, '--json'], env());
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { workers: Array<{ workerId: string }> }).workers.map((w) => w.workerId).sort()).toEqual(
      [workers.w1, workers.w2, workers.w3].sort(),
    );

    const block = await runCli(['worker', 'block', workers.w2, '--reason', 'testing the CLI'], env());
    expect(block.code, block.stderr).toBe(0);
    expect(block.stdout).toContain(`worker ${workers.w2}: blocked on ${h.running.url}`);
    expect(await blocked()).toContain(workers.w2);
    const unblock = await runCli(['worker', 'unblock', workers.w2, '--batch', BATCH], env());
    expect(unblock.code, unblock.stderr).toBe(0);
    expect(await blocked()).not.toContain(workers.w2);

    const w2Assignment = (await testContext(h.db).models.assignments.findOne({ batch: BATCH, workerId: workers.w2 }).lean())!._id;
    const args = ['worker', 'bonus', workers.w2, '--assignment', w2Assignment, '--amount', '0.25', '--reason', 'thorough'];
    const first = await runCli(args, env());
    const second = await runCli(args, env());
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(first.stdout).toContain('paid a bonus of $0.25');
    expect(second.stdout).toContain('was paid already; nothing sent');
    expect(await bonusesFor(w2Assignment)).toHaveLength(1);

    const bad = await runCli(['worker', 'bonus', workers.w2, '--assignment', w2Assignment, '--amount', 'lots', '--reason', 'x'], env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^qrelay: --amount: expected a USD amount such as 0\.50/m);
  });

  it('labels by hand, overrides a review, lists batches', { timeout: 180_000 }, async () => {
    const item = (await testContext(h.db).models.labels.find({ batch: BATCH }).lean()).sort((a, b) => (a._id < b._id ? -1 : 1))[1]!;
    const label = await runCli(
      ['label', BATCH, '--query', item.queryId, '--chunk', item.chunkId, '--label', 'yes', '--note', 'decided on the CLI', '--json'],
      env(),
    );
    expect(label.code, label.stderr).toBe(0);
    expect(JSON.parse(label.stdout)).toMatchObject({
      batch: BATCH,
      queryId: item.queryId,
      chunkId: item.chunkId,
      label: 'yes',
      who: expect.stringMatching(/^cli/),
    });

    const override = await runCli(['review', 'override', honestAssignment, '--reject', '--reason', 'copied answers'], env());
    expect(override.code, override.stderr).toBe(0);
    expect(override.stdout).toContain('votes excluded; platform: kept-paid');
    const neither = await runCli(['review', 'override', honestAssignment, '--reason', 'x'], env());
    expect(neither.code).toBe(1);
    expect(neither.stderr).toContain('give exactly one of --approve or --reject');

    const batches = await runCli(['batches', '--json'], env());
    expect(batches.code, batches.stderr).toBe(0);
    expect(JSON.parse(batches.stdout)).toEqual([
      expect.objectContaining({ batch: BATCH, state: expect.any(String), items: 8, budgetCents: 1000, bonusCents: 60 + 30 }),
    ]);
  });

  it('a bonus command killed (SIGKILL) after recording the bonus, then run again, pays exactly once', { timeout: 180_000 }, async () => {
    const ctx = testContext(h.db);
    const w3Assignment = (await ctx.models.assignments.find({ batch: BATCH, workerId: workers.w3 }).lean())
      .map((a) => a._id)
      .find((id) => id !== discarded)!;
    const args = ['worker', 'bonus', workers.w3, '--assignment', w3Assignment, '--amount', '0.15', '--reason', 'crash test'];
    // every marketplace answer is slow, so the kill lands while SendBonus is in flight or about to be
    h.running.chaos.set({ slowShare: 1, slowMs: 1500 });
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
        cwd: paths.root,
        env: { ...process.env, ...env(), LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      });
      const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      const models = actionModels(h.db.connection);
      let recorded = null;
      for (let i = 0; i < 1200 && !recorded; i++) {
        await new Promise((r) => setTimeout(r, 50));
        recorded = await models.bonuses.findOne({ assignmentId: w3Assignment }).lean();
      }
      expect(recorded, 'the bonus was recorded before the kill').not.toBeNull();
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      h.running.chaos.set({ slowShare: 0 });
    }
    const again = await runCli(args, env());
    expect(again.code, again.stderr).toBe(0);
    expect(await bonusesFor(w3Assignment)).toEqual([expect.objectContaining({ WorkerId: workers.w3, BonusAmount: '0.15' })]);
    expect((await actionModels(h.db.connection).bonuses.find({ assignmentId: w3Assignment }).lean()).map((b) => b.state)).toEqual(['paid']);
  });
});
