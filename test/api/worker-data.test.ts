import { ListBonusPaymentsCommand } from '@aws-sdk/client-mturk';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionModels } from '../../src/actions/models.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from '../pipeline/support.js';

/**
 * Worker data over REST (real HTTP, the dev database, the bundled marketplace): every read
 * whose documented answer carries worker ids asks for the token (a contract over
 * /openapi.json), a malformed worker or assignment id is a 400 naming the field (never a
 * 502 from the platform), and identical bonus requests at once pay, answer and audit once.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-worker-data-');
const TOKEN = 'worker-data-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };
const BATCH = 'wd-a';
let app: ReturnType<typeof createApp>;
let worker: string;
let assignment: string;

beforeAll(async () => {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, BATCH, 4);
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url, budgetUsd: 10 }, 'local');
  worker = (await newWorker(h)).workerId;
  assignment = await work(h.running, ctx, `${BATCH}|0`, worker, honest);
  await collectBatch(ctx, BATCH);
  const config = loadConfig({ ...process.env, MTURK_TARGET: h.running.url });
  app = createApp({ config, logger: createLogger('silent'), connection: h.db.connection, apiToken: TOKEN });
});

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<
    string,
    Record<string, { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

/** Whether a schema (refs followed) has a property that holds worker ids (`workers: 12`, a count, holds none). */
function carriesWorkerIds(doc: Doc, node: unknown, seen = new Set<string>()): boolean {
  if (Array.isArray(node)) return node.some((n) => carriesWorkerIds(doc, n, seen));
  if (!node || typeof node !== 'object') return false;
  const o = node as Schema;
  if (typeof o.$ref === 'string') {
    if (seen.has(o.$ref)) return false;
    seen.add(o.$ref);
    return carriesWorkerIds(doc, doc.components.schemas[o.$ref.replace('#/components/schemas/', '')], seen);
  }
  const props = (o.properties ?? {}) as Record<string, Schema>;
  const counts = (s: Schema) => s.type === 'integer' || s.type === 'number';
  if (Object.entries(props).some(([k, s]) => /^worker(Id|Ids|s)?$/.test(k) && !counts(s))) return true;
  return Object.values(o).some((v) => carriesWorkerIds(doc, v, seen));
}

const concrete = (template: string) =>
  template.replace('{batch}', BATCH).replace('{worker}', worker).replace('{assignment}', assignment) +
  (template === '/api/v1/workers' ? `?batch=${BATCH}` : '');

describe('reads of worker data', () => {
  it('every route whose answer carries worker ids refuses a request without the token (401), as documented', async () => {
    const doc = (await request(app).get('/openapi.json')).body as Doc;
    const carrying = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get && Object.values(ops.get.responses['200']?.content ?? {}).some((c) => carriesWorkerIds(doc, c.schema)))
      .map(([path]) => path);
    // the routes the issue names are among them (the audit log's subject is a worker id: listed by name)
    const named = [
      '/api/v1/workers',
      '/api/v1/batches/{batch}/items',
      '/api/v1/batches/{batch}/report',
      '/api/v1/batches/{batch}/workers',
      '/api/v1/batches/{batch}/votes',
      '/api/v1/batches/{batch}/labels',
    ];
    expect(carrying).toEqual(expect.arrayContaining(named));
    const secured = new Set([...carrying, '/api/v1/batches/{batch}/audit', '/api/v1/batches/{batch}/workers/{worker}/answers']);
    for (const path of secured) {
      const op = doc.paths[path]!.get!;
      expect(op.security, path).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['401', '403']));
      const url = concrete(path);
      const anonymous = await request(app).get(url);
      expect(anonymous.status, url).toBe(401);
      expect(anonymous.headers['content-type'], url).toMatch(/^application\/problem\+json/);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="qrelay"');
      expect(anonymous.body.detail).toMatch(/worker data: send Authorization: Bearer <QRELAY_API_TOKEN>/);
      expect(JSON.stringify(anonymous.body)).not.toContain(worker);
      expect((await request(app).get(url).set('Authorization', 'Bearer wrong-token')).status, url).toBe(403);
      expect((await request(app).head(url)).status, `HEAD ${url}`).toBe(401);
      const allowed = await request(app).get(url).set(auth);
      expect(allowed.status, `${url}: ${JSON.stringify(allowed.body).slice(0, 200)}`).toBe(200);
      // one worker's answers carry the worker in their address; the audit log has no action yet
      if (!path.endsWith('/audit') && !path.endsWith('/answers')) expect(allowed.text, url).toContain(worker);
    }
    // however the address is written, as long as Express routes it
    for (const variant of [
      `/API/V1/BATCHES/${BATCH}/WORKERS`,
      `/api/v1/batches/${BATCH}/Votes/`,
      `/api/v1/Workers?batch=${BATCH}`,
      `/api/v1//workers?batch=${BATCH}`,
      `/api/v1/batches/${BATCH}/%69tems`,
      `/api/v1/batches/${BATCH}/report/?format=csv`,
    ]) {
      const res = await request(app).get(variant);
      expect(res.status === 401 || res.status === 404, `${variant}: ${res.status}`).toBe(true);
      expect(res.text, variant).not.toContain(worker);
    }
    // and the reads left open answer without worker ids
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!ops.get || secured.has(path) || path.includes('{id}') || path.includes('{file}')) continue;
      const res = await request(app).get(concrete(path));
      expect(ops.get.security, path).toBeUndefined();
      expect(res.text, path).not.toContain(worker);
    }
  });
});

describe('routes that change state', () => {
  it('every one of the document, whose answer may name workers, refuses a request without the token (401) or a wrong one (403), as documented', async () => {
    const doc = (await request(app).get('/openapi.json')).body as Doc;
    // the MTurk notifications carry their secret in the address instead (notifications.ts)
    const keyed = '/api/v1/notifications/{key}';
    const changing = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops)
        .filter((method) => method !== 'get')
        .map((method) => [method as 'post' | 'delete', path] as const),
    );
    expect(changing.map(([m, p]) => `${m} ${p}`)).toEqual(
      expect.arrayContaining(['post /api/v1/workers/{worker}/block', 'post /api/v1/workers/message', 'delete /api/v1/batches/{batch}']),
    );
    for (const [method, path] of changing) {
      const op = doc.paths[path]![method]!;
      const where = `${method.toUpperCase()} ${path}`;
      if (path === keyed) {
        expect(op.security, where).toBeUndefined();
        continue;
      }
      expect(op.security, where).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op.responses), where).toEqual(expect.arrayContaining(['401', '403']));
      const url = concrete(path);
      const anonymous = await request(app)[method](url).send({});
      expect(anonymous.status, where).toBe(401);
      expect(anonymous.headers['content-type'], where).toMatch(/^application\/problem\+json/);
      expect(anonymous.headers['www-authenticate'], where).toBe('Bearer realm="qrelay"');
      expect(anonymous.body.detail, where).toBe('this route changes state: send Authorization: Bearer <QRELAY_API_TOKEN>');
      expect(JSON.stringify(anonymous.body), where).not.toContain(worker);
      const wrong = await request(app)[method](url).set('Authorization', 'Bearer wrong-token').send({});
      expect(wrong.status, where).toBe(403);
      expect(wrong.text, where).not.toContain(worker);
    }
  });
});

describe('a read-only token (QRELAY_API_READ_TOKEN)', () => {
  it('reads worker data and changes nothing', async () => {
    const config = loadConfig({ ...process.env, MTURK_TARGET: h.running.url, QRELAY_API_READ_TOKEN: 'read-only-token' });
    const reader = createApp({ config, logger: createLogger('silent'), connection: h.db.connection, apiToken: TOKEN });
    const read = { Authorization: 'Bearer read-only-token' };
    const workers = await request(reader).get(`/api/v1/workers?batch=${BATCH}`).set(read);
    expect(workers.status).toBe(200);
    expect(workers.text).toContain(worker);
    expect((await request(reader).get(`/api/v1/batches/${BATCH}/report`).set(read)).status).toBe(200);
    const block = await request(reader).post(`/api/v1/workers/${worker}/block`).set(read).send({ reason: 'must not happen' });
    expect(block.status).toBe(403);
    expect(block.body.detail).toBe('the read-only token (QRELAY_API_READ_TOKEN) cannot change state: send QRELAY_API_TOKEN');
    expect((await request(reader).delete(`/api/v1/batches/${BATCH}`).set(read)).status).toBe(403);
    // the full token still does both; without a read token configured, the read token is just wrong
    expect((await request(reader).get(`/api/v1/workers?batch=${BATCH}`).set(auth)).status).toBe(200);
    expect((await request(app).get(`/api/v1/workers?batch=${BATCH}`).set(read)).status).toBe(403);
  });
});

describe('malformed worker and assignment ids', () => {
  const bad = ['nobody', 'a1b2', 'A', 'A-1', 'A1_2', '..', '../batches/x/delete?', `A${'1'.repeat(64)}`, 'A1 ', 'ÄA1'];

  it('are a 400 naming the field on block, unblock, bonus, qualification and message, never a 5xx', async () => {
    const routes: [string, Record<string, unknown>][] = [
      ['block', { reason: 'bad id test' }],
      ['unblock', { reason: 'bad id test' }],
      ['bonus', { assignmentId: assignment, amount: '0.05', reason: 'bad id test' }],
      ['qualification', { qualification: 'x', value: 1 }],
    ];
    for (const id of bad) {
      for (const [action, body] of routes) {
        const res = await request(app)
          .post(`/api/v1/workers/${encodeURIComponent(id)}/${action}`)
          .set(auth)
          .send(body);
        const where = `${action} ${JSON.stringify(id)}`;
        // `..` never reaches the route (the path is resolved first): a 404, not a platform error
        if (id === '..') {
          expect(res.status, where).toBeLessThan(500);
          continue;
        }
        expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.errors[0], where).toMatchObject({ field: 'path.worker', reason: expect.stringContaining('^A[A-Z0-9]+$') });
      }
      const msg = await request(app)
        .post('/api/v1/workers/message')
        .set(auth)
        .send({ workerIds: [worker, id], subject: 's', text: 't' });
      expect(msg.status, JSON.stringify(id)).toBe(400);
      expect(msg.body.errors[0]).toMatchObject({ field: 'body.workerIds.1' });
    }
    for (const id of ['nope', '../x', 'a'.repeat(65)]) {
      const res = await request(app)
        .post(`/api/v1/workers/${worker}/bonus`)
        .set(auth)
        .send({ assignmentId: id, amount: '0.05', reason: 'bad id test' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ field: 'body.assignmentId' });
      const override = await request(app)
        .post(`/api/v1/assignments/${encodeURIComponent(id)}/override`)
        .set(auth)
        .send({ decision: 'approve', reason: 'x' });
      expect(override.status).toBe(400);
      expect(override.body.errors[0]).toMatchObject({ field: 'path.assignment' });
    }
  });
});

describe('a Prolific participant id on an MTurk target', () => {
  it('is a 404 (no such worker on MTurk) saying the target wants an MTurk WorkerId, never a 502 from the platform', async () => {
    const prolific = '0123456789abcdef01234567';
    const calls: [string, Record<string, unknown>][] = [
      [`/api/v1/workers/${prolific}/block`, { reason: 'wrong platform', batch: BATCH }],
      [`/api/v1/workers/${prolific}/unblock`, { batch: BATCH }],
      ['/api/v1/workers/message', { workerIds: [prolific], subject: 's', text: 't', batch: BATCH }],
    ];
    for (const [url, body] of calls) {
      const res = await request(app).post(url).set(auth).send(body);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.detail, url).toMatch(
        /is not an MTurk WorkerId \(\^A\[A-Z0-9\]\+\$, at most 64 characters\), and the target is MTurk/,
      );
    }
  });
});

describe('text for the platform with ASCII control characters', () => {
  it('is a 400 naming the field on block, unblock, bonus, qualification, override and message, never a 502 from the platform', async () => {
    const bad = 'careless\u0011answers';
    const calls: [string, Record<string, unknown>, string][] = [
      [`/api/v1/workers/${worker}/block`, { reason: bad }, 'body.reason'],
      [`/api/v1/workers/${worker}/unblock`, { reason: bad }, 'body.reason'],
      [`/api/v1/workers/${worker}/bonus`, { assignmentId: assignment, amount: '0.05', reason: bad }, 'body.reason'],
      [`/api/v1/workers/${worker}/qualification`, { qualification: 'x', value: 1, reason: bad }, 'body.reason'],
      [`/api/v1/assignments/${assignment}/override`, { decision: 'approve', reason: bad }, 'body.reason'],
      ['/api/v1/workers/message', { workerIds: [worker], subject: bad, text: 't' }, 'body.subject'],
      ['/api/v1/workers/message', { workerIds: [worker], subject: 's', text: '   ' }, 'body.text'],
      // and an amount the document now refuses too: no cent
      [`/api/v1/workers/${worker}/bonus`, { assignmentId: assignment, amount: '00', reason: 'r' }, 'body.amount'],
    ];
    for (const [url, body, field] of calls) {
      const res = await request(app).post(url).set(auth).send(body);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.errors[0], url).toMatchObject({ field });
    }
    // tabs and line breaks are text, and what the document's pattern says the server takes
    const doc = (await request(app).get('/openapi.json')).body as Doc;
    const blockBody = (
      doc.paths['/api/v1/workers/{worker}/block']!.post as unknown as {
        requestBody: { content: { 'application/json': { schema: { properties: { reason: { pattern: string } } } } } };
      }
    ).requestBody.content['application/json'].schema.properties.reason.pattern;
    const pattern = new RegExp(blockBody);
    expect(pattern.test('line one\n\tline two')).toBe(true);
    expect(pattern.test(bad)).toBe(false);
    expect(pattern.test('  ')).toBe(false);
    const block = await request(app)
      .post(`/api/v1/workers/${worker}/block`)
      .set(auth)
      .send({ reason: 'line one\n\tline two', batch: BATCH });
    expect(block.status, JSON.stringify(block.body)).toBe(200);
    expect((await request(app).post(`/api/v1/workers/${worker}/unblock`).set(auth).send({ batch: BATCH })).status).toBe(200);
  });
});

describe('a bonus asked for three times at once', () => {
  it('is paid once: one answer says paid, the others already paid, and the audit log records one payment', async () => {
    const body = { assignmentId: assignment, amount: '0.40', reason: 'three at once' };
    const answers = await Promise.all([1, 2, 3].map(() => request(app).post(`/api/v1/workers/${worker}/bonus`).set(auth).send(body)));
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    const flags = answers.map((a) => [a.body.paid, a.body.alreadyPaid]);
    expect(flags.filter(([paid, already]) => paid === true && already === false)).toHaveLength(1);
    expect(flags.filter(([paid, already]) => paid === false && already === true)).toHaveLength(2);
    expect(new Set(answers.map((a) => a.body.uniqueRequestToken)).size).toBe(1);
    const payments = (await h.client().send(new ListBonusPaymentsCommand({ AssignmentId: assignment }))).BonusPayments ?? [];
    expect(payments.filter((p) => p.Reason === 'three at once')).toHaveLength(1);
    const audit = await actionModels(h.db.connection).audit.find({ batch: BATCH, action: 'bonus' }).lean();
    expect(audit.map((e) => e.outcome)).toEqual(['done']);
    const overview = (await request(app).get(`/api/v1/batches/${BATCH}/overview`)).body;
    expect(overview.bonusCents).toBe(48);
  });
});
