import request from 'supertest';
import type { Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { ProblemSchema, buildOpenApiDocument, registry } from '../src/api/openapi.js';
import { notificationKey } from '../src/api/v1/notifications.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { collectBatch } from '../src/pipeline/collect.js';
import { publishBatch } from '../src/pipeline/publish.js';
import { newWorker, useMarketplace } from './marketplace/support.js';
import { honest, importSampleBatch, sampleLines, tempDir, testContext, work } from './pipeline/support.js';

/**
 * Issue 17, section 6: the REST API answers exactly what /openapi.json says. Every route of
 * the document is called with good and bad requests (missing batch, bad names, bad bodies,
 * no token, an unsupported method); each answer's status code must be one the document
 * lists for that route, and its body must validate against the schema the document gives
 * for that code (the zod schemas the document is generated from). A route added to the
 * document without cases here fails the test, as does an answer the document does not
 * describe. Errors have one shape: the Problem schema.
 */

const h = useMarketplace();
const TOKEN = 'api-contract-test-token';
const auth = { Authorization: `Bearer ${TOKEN}` };
const dir = tempDir('qrelay-contract-');
const doc = buildOpenApiDocument('test');
let app: ReturnType<typeof createApp>;

type Method = 'get' | 'post' | 'delete';
interface RouteDef {
  method: string;
  path: string;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
const routes = registry.definitions.flatMap((d) => (d.type === 'route' ? [d.route as unknown as RouteDef] : []));
const exercised = new Set<string>();

/** Checks one answer against the document: a listed status, a listed media type, a body of the listed schema. */
function conforms(method: Method, template: string, res: Response): void {
  const where = `${method.toUpperCase()} ${template} answered ${res.status} ${JSON.stringify(res.body ?? res.text).slice(0, 300)}`;
  exercised.add(`${method} ${template}`);
  const op = (doc.paths?.[template] as Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }> | undefined)?.[
    method
  ];
  expect(op, `${method} ${template} is not in the document`).toBeDefined();
  const documented = op!.responses[String(res.status)];
  expect(documented, `${where}: status not in the document (it lists ${Object.keys(op!.responses).join(', ')})`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
  if (documented!.content) expect(Object.keys(documented!.content), where).toContain(type);
  const route = routes.find((r) => r.method === method && r.path === template);
  // codes every route has (added by the document builder) answer with the Problem schema
  const schema = (route?.responses[String(res.status)]?.content?.[type]?.schema ??
    (type === 'application/problem+json' ? ProblemSchema : undefined)) as ZodType | undefined;
  if (schema && typeof (schema as { safeParse?: unknown }).safeParse === 'function' && type.endsWith('json')) {
    const parsed = schema.safeParse(res.body);
    expect(parsed.success, `${where}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`).toBe(true);
  }
  if (type === 'application/problem+json') {
    expect(ProblemSchema.safeParse(res.body).success, where).toBe(true);
    // no server paths in what a client is told
    expect(JSON.stringify(res.body), where).not.toMatch(/\/tmp\/|qrelay-upload-|\/work\//);
  }
}

const ndjson = (lines: readonly string[]) => `${lines.join('\n')}\n`;

beforeAll(async () => {
  const config = loadConfig({ ...process.env });
  app = createApp({ config, logger: createLogger('silent'), connection: h.db.connection, apiToken: TOKEN });
  // one collected batch (ct-a) and one draft batch (ct-d)
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, 'ct-a', 8);
  await publishBatch(ctx, 'ct-a', { preset: 'quick', target: h.running.url }, 'local');
  const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
  for (const w of workers)
    for (const hit of await ctx.models.hits.find({ batch: 'ct-a' }).lean()) await work(h.running, ctx, hit._id, w.workerId, honest);
  await collectBatch(ctx, 'ct-a');
  await importSampleBatch(ctx, dir, 'ct-d', 4, 20);
});

describe('the REST API against /openapi.json', () => {
  it('answers every route with documented status codes and bodies', async () => {
    const r = () => request(app);
    const cases = sampleLines('escalations.jsonl').slice(40, 44);

    conforms('get', '/healthz', await r().get('/healthz'));
    conforms('get', '/api/v1/batches', await r().get('/api/v1/batches'));

    const imp = '/api/v1/batches';
    conforms('post', imp, await r().post('/api/v1/batches?batch=ct-i').set(auth).type('application/x-ndjson').send(ndjson(cases)));
    conforms(
      'post',
      imp,
      await r()
        .post('/api/v1/batches?batch=ct-b')
        .set(auth)
        .type('application/x-ndjson')
        .send(ndjson(sampleLines('escalations.bridge.jsonl'))),
    );
    const empty = await r().post('/api/v1/batches?batch=ct-e').set(auth).type('application/x-ndjson').send('');
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual([{ line: 0, field: '', reason: 'holds no records (it is empty or has only blank lines)' }]);
    conforms('post', imp, empty);
    const bad = await r()
      .post('/api/v1/batches?batch=ct-e')
      .set(auth)
      .type('application/x-ndjson')
      .send(ndjson(['{"query_id": 1}', 'not json']));
    expect(bad.status).toBe(400);
    conforms('post', imp, bad);
    conforms('post', imp, await r().post('/api/v1/batches?batch=a%7Cb').set(auth).type('application/x-ndjson').send(ndjson(cases)));
    conforms('post', imp, await r().post('/api/v1/batches').set(auth).type('application/x-ndjson').send(ndjson(cases)));
    conforms('post', imp, await r().post('/api/v1/batches?batch=ct-e').set(auth).send({ a: 1 }));
    conforms('post', imp, await r().post('/api/v1/batches?batch=ct-e').type('application/x-ndjson').send(ndjson(cases)));
    conforms('post', imp, await r().post('/api/v1/batches?batch=ct-a').set(auth).type('application/x-ndjson').send(ndjson(cases))); // published: 409

    for (const batch of ['ct-a', 'ct-d', 'missing', 'a|b']) {
      const b = encodeURIComponent(batch);
      conforms('get', '/api/v1/batches/{batch}', await r().get(`/api/v1/batches/${b}`));
      // with and without the token: the reads of worker data answer 401 without it
      for (const part of ['hits', 'votes', 'labels', 'workers']) {
        conforms('get', `/api/v1/batches/{batch}/${part}`, await r().get(`/api/v1/batches/${b}/${part}`));
        conforms('get', `/api/v1/batches/{batch}/${part}`, await r().get(`/api/v1/batches/${b}/${part}`).set(auth));
      }
      for (const q of ['', '?format=md', '?format=csv&table=items', '?format=html', '?format=pdf'])
        conforms('get', '/api/v1/batches/{batch}/report', await r().get(`/api/v1/batches/${b}/report${q}`).set(auth));
      conforms('get', '/api/v1/batches/{batch}/report', await r().get(`/api/v1/batches/${b}/report`));
      conforms(
        'post',
        '/api/v1/batches/{batch}/publish',
        await r().post(`/api/v1/batches/${b}/publish`).set(auth).send({ dryRun: true, target: h.running.url, preset: 'quick' }),
      );
      conforms(
        'post',
        '/api/v1/batches/{batch}/publish',
        await r().post(`/api/v1/batches/${b}/publish`).set(auth).send({ dryRun: true, preset: 'no-such-preset' }),
      );
      conforms(
        'post',
        '/api/v1/batches/{batch}/publish',
        await r().post(`/api/v1/batches/${b}/publish`).set(auth).send({ target: h.running.url }),
      ); // no scheduler here: 503, or 4xx first
      conforms('post', '/api/v1/batches/{batch}/publish', await r().post(`/api/v1/batches/${b}/publish`).send({ dryRun: true }));
      for (const action of ['review', 'expire', 'cleanup']) {
        conforms('post', `/api/v1/batches/{batch}/${action}`, await r().post(`/api/v1/batches/${b}/${action}`).set(auth));
        conforms('post', `/api/v1/batches/{batch}/${action}`, await r().post(`/api/v1/batches/${b}/${action}`));
      }
    }
    // no round of a draft batch can run: refused at once (409), never queued to fail in the background
    const draftReview = await r().post('/api/v1/batches/ct-d/review').set(auth);
    expect(draftReview.status, JSON.stringify(draftReview.body)).toBe(409);
    expect(draftReview.body.detail).toMatch(/^batch ct-d is not published yet: publish it first/);

    conforms('post', '/api/v1/jobs/housekeeping', await r().post('/api/v1/jobs/housekeeping').set(auth));
    conforms('post', '/api/v1/jobs/housekeeping', await r().post('/api/v1/jobs/housekeeping'));
    const key = notificationKey(TOKEN);
    conforms('post', '/api/v1/notifications/{key}', await r().post('/api/v1/notifications/wrong-key').send({ Events: [] }));
    conforms('post', '/api/v1/notifications/{key}', await r().post(`/api/v1/notifications/${key}`).send({ Events: 'no' }));
    conforms(
      'post',
      '/api/v1/notifications/{key}',
      await r()
        .post(`/api/v1/notifications/${key}`)
        .send({ EventDocVersion: '2014-08-15', EventDocId: 'd', Events: [{ EventType: 'HITReviewable', HITId: 'UNKNOWN' }] }),
    );

    // the document's status report of a published batch says null where a quote may be null
    const draft = await r().get('/api/v1/batches/ct-d');
    expect(draft.body.cost.quote).toBeNull();
    const quote = (doc.components?.schemas?.BatchStatus as { properties: { cost: { properties: { quote: unknown } } } }).properties.cost
      .properties.quote;
    expect(quote).toEqual({ anyOf: [{ $ref: '#/components/schemas/CostQuote' }, { type: 'null' }] });

    // the requester's actions and reads (src/api/v1/console-actions.ts): no token, missing
    // batch or worker, bad bodies, and good calls on the collected batch
    const assignment = (await testContext(h.db).models.assignments.findOne({ batch: 'ct-a' }).lean())!;
    const worker = assignment.workerId;
    const first = JSON.parse(sampleLines('escalations.jsonl')[0]!) as { query_id: string; chunk_id: string };
    const mutations: [string, string, Record<string, unknown>][] = [
      ['/api/v1/workers/{worker}/block', `/api/v1/workers/${worker}/block`, { batch: 'ct-a', reason: 'contract test' }],
      ['/api/v1/workers/{worker}/unblock', `/api/v1/workers/${worker}/unblock`, { batch: 'ct-a', reason: 'contract test' }],
      [
        '/api/v1/workers/{worker}/bonus',
        `/api/v1/workers/${worker}/bonus`,
        { batch: 'ct-a', assignment: assignment._id, amount: '0.05', reason: 'contract test' },
      ],
      [
        '/api/v1/workers/message',
        '/api/v1/workers/message',
        { batch: 'ct-a', workers: [worker], subject: 'Thanks', text: 'contract test' },
      ],
      [
        '/api/v1/workers/{worker}/qualification',
        `/api/v1/workers/${worker}/qualification`,
        { batch: 'ct-a', qualification: 'contract-test', value: 1 },
      ],
      [
        '/api/v1/assignments/{assignment}/override',
        `/api/v1/assignments/${assignment._id}/override`,
        { action: 'approve', reason: 'contract test' },
      ],
      [
        '/api/v1/batches/{batch}/manual-labels',
        '/api/v1/batches/ct-a/manual-labels',
        { query: first.query_id, chunk: first.chunk_id, label: 'yes', note: 'contract test' },
      ],
    ];
    for (const [template, concrete, body] of mutations) {
      conforms('post', template, await r().post(concrete).send(body));
      conforms('post', template, await r().post(concrete).set(auth).send({}));
      conforms('post', template, await r().post(concrete).set(auth).send(body));
    }
    conforms(
      'post',
      '/api/v1/batches/{batch}/manual-labels',
      await r().post('/api/v1/batches/missing/manual-labels').set(auth).send({ query: 'q', chunk: 'c', label: 'yes', note: 'n' }),
    );
    conforms('delete', '/api/v1/batches/{batch}', await r().delete('/api/v1/batches/ct-a').set(auth));
    conforms('delete', '/api/v1/batches/{batch}', await r().delete('/api/v1/batches/ct-d'));
    conforms('delete', '/api/v1/batches/{batch}', await r().delete('/api/v1/batches/missing').set(auth));
    conforms('delete', '/api/v1/batches/{batch}', await r().delete('/api/v1/batches/ct-d').set(auth));
    for (const b of ['ct-a', 'missing']) {
      for (const part of ['items', 'manual-labels', 'audit', 'overview']) {
        conforms('get', `/api/v1/batches/{batch}/${part}`, await r().get(`/api/v1/batches/${b}/${part}`));
        conforms('get', `/api/v1/batches/{batch}/${part}`, await r().get(`/api/v1/batches/${b}/${part}`).set(auth));
      }
      const answers = `/api/v1/batches/${b}/workers/${worker}/answers`;
      conforms('get', '/api/v1/batches/{batch}/workers/{worker}/answers', await r().get(answers));
      conforms('get', '/api/v1/batches/{batch}/workers/{worker}/answers', await r().get(answers).set(auth));
      conforms('get', '/api/v1/workers', await r().get(`/api/v1/workers?batch=${b}`));
      conforms('get', '/api/v1/workers', await r().get(`/api/v1/workers?batch=${b}`).set(auth));
    }
    conforms('get', '/api/v1/workers', await r().get('/api/v1/workers').set(auth));
    conforms('get', '/api/v1/overview', await r().get('/api/v1/overview'));

    // the LLM steps as jobs (src/api/v1/llm.ts): no scheduler here, so a valid request is 503
    conforms('post', '/api/v1/debates', await r().post('/api/v1/debates').send({ candidates: [], model: 'm' }));
    conforms('post', '/api/v1/debates', await r().post('/api/v1/debates').set(auth).send({ candidates: [], model: 'm' }));
    conforms(
      'post',
      '/api/v1/debates',
      await r()
        .post('/api/v1/debates')
        .set(auth)
        .send({ candidates: cases.map((c) => JSON.parse(c) as unknown), model: 'm' }),
    );
    conforms('get', '/api/v1/debates/{id}', await r().get('/api/v1/debates/no-such-job'));
    conforms('get', '/api/v1/debates/{id}/{file}', await r().get('/api/v1/debates/no-such-job/escalations'));
    conforms('get', '/api/v1/debates/{id}/{file}', await r().get('/api/v1/debates/no-such-job/not-a-file'));
    conforms('post', '/api/v1/batches/{batch}/adjudicate', await r().post('/api/v1/batches/ct-a/adjudicate').send({ model: 'm' }));
    conforms('post', '/api/v1/batches/{batch}/adjudicate', await r().post('/api/v1/batches/ct-a/adjudicate').set(auth).send({}));
    conforms(
      'post',
      '/api/v1/batches/{batch}/adjudicate',
      await r().post('/api/v1/batches/missing/adjudicate').set(auth).send({ model: 'm' }),
    );
    conforms(
      'post',
      '/api/v1/batches/{batch}/adjudicate',
      await r().post('/api/v1/batches/ct-a/adjudicate').set(auth).send({ model: 'm' }),
    );
    conforms('get', '/api/v1/adjudications/{id}', await r().get('/api/v1/adjudications/no-such-job'));

    // every route of the document was called
    const documented = Object.entries(doc.paths ?? {}).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`));
    expect([...exercised].sort()).toEqual(documented.sort());
  });

  it('answers 405 with Allow for a method a route does not support, 404 for a path that is no route (GET)', async () => {
    for (const [path, concrete] of Object.entries(doc.paths ?? {}).map(([p]) => [p, p.replace(/\{[^}]+\}/g, 'ct-a')] as const)) {
      const res = await request(app).trace(concrete);
      expect(res.status, `TRACE ${path}`).toBe(405);
      const allowed = Object.keys(doc.paths![path] as object).map((m) => m.toUpperCase());
      for (const m of allowed) expect(res.headers.allow).toContain(m);
      expect(ProblemSchema.safeParse(JSON.parse(res.text)).success).toBe(true);
    }
    const put = await request(app).put('/api/v1/batches').set(auth).send({});
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    expect((await request(app).get('/api/v1/no-such-thing')).status).toBe(404);
  });
});
