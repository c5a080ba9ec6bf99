import type { Agenda } from 'agenda';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/api/context.js';
import { notificationKey } from '../../src/api/v1/notifications.js';
import { loadConfig } from '../../src/config.js';
import { createAgenda, stopJobs } from '../../src/jobs/agenda.js';
import { createLogger } from '../../src/log.js';
import { useMarketplace, newWorker } from '../marketplace/support.js';
import { honest, sampleLines, testContext, work } from './support.js';

const h = useMarketplace();
const TOKEN = 'pipeline-api-test-token';
let ctx: AppContext;
let agenda: Agenda;
const auth = { Authorization: `Bearer ${TOKEN}` };

beforeAll(async () => {
  const logger = createLogger('silent');
  const config = loadConfig({ ...process.env });
  const pipeline = testContext(h.db);
  agenda = createAgenda({
    db: h.db.db,
    logger,
    processEvery: 100,
    pipeline: { ctx: pipeline, defaultTarget: h.running.url, collectEvery: '2 seconds' },
  });
  await agenda.start();
  ctx = { config, logger, connection: h.db.connection, apiToken: TOKEN, agenda };
});
afterAll(async () => {
  await stopJobs(agenda, 5000);
});

/** Polls a condition; `timeoutMs` is a generous safety net against a hang, not a speed target. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 240_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ndjson = (lines: readonly string[]) => `${lines.join('\n')}\n`;

describe('REST /api/v1/batches', () => {
  it('imports NDJSON bodies, and answers a bad file with every error as problem+json', async () => {
    const app = createApp(ctx);
    const denied = await request(app)
      .post('/api/v1/batches?batch=api-a')
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson(sampleLines('escalations.jsonl').slice(0, 8)));
    expect(denied.status).toBe(401);

    const ok = await request(app)
      .post('/api/v1/batches?batch=api-a')
      .set(auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson(sampleLines('escalations.jsonl').slice(0, 8)));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ batch: 'api-a', kind: 'escalations', counts: { records: 8, inserted: 8 } });
    const gold = await request(app)
      .post('/api/v1/batches?batch=api-a&kind=gold')
      .set(auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson(sampleLines('gold.jsonl')));
    expect(gold.status).toBe(201);

    const lines = sampleLines('escalations.jsonl').slice(10, 13);
    lines[0] = lines[0]!.replace(/"chunk":"[^"]*"/, '"chunk":""');
    lines[2] = '{"query_id": 1';
    const bad = await request(app)
      .post('/api/v1/batches?batch=api-b')
      .set(auth)
      .set('Content-Type', 'application/x-ndjson')
      .send(ndjson(lines));
    expect(bad.status).toBe(400);
    expect(bad.type).toBe('application/problem+json');
    expect(bad.body.errors).toEqual([
      { line: 1, field: 'chunk', reason: 'must not be empty' },
      { line: 3, field: '', reason: expect.stringMatching(/JSON/) },
    ]);
    expect(bad.body.moreErrors).toBe(0);

    const json = await request(app).post('/api/v1/batches?batch=api-b').set(auth).send({ query_id: 'q' });
    expect(json.status).toBe(415);
    const list = await request(app).get('/api/v1/batches');
    expect(list.body).toEqual([expect.objectContaining({ batch: 'api-a', state: 'draft' })]);
  });

  it('quotes a dry run, then plans and publishes through the job', async () => {
    const app = createApp(ctx);
    const dry = await request(app)
      .post('/api/v1/batches/api-a/publish')
      .set(auth)
      .send({ preset: 'quick', target: h.running.url, dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ dryRun: true, hits: 2, quote: { total: 6 * 66 } });
    const over = await request(app)
      .post('/api/v1/batches/api-a/publish')
      .set(auth)
      .send({ preset: 'quick', target: h.running.url, budgetUsd: 1 });
    expect(over.status).toBe(400);
    expect(over.body.detail).toMatch(/over the budget of \$1\.00/);
    const missing = await request(app).post('/api/v1/batches/nope/publish').set(auth).send({ preset: 'quick' });
    expect(missing.status).toBe(404);

    const queued = await request(app).post('/api/v1/batches/api-a/publish').set(auth).send({ preset: 'quick', target: h.running.url });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    expect(queued.body).toMatchObject({ batch: 'api-a', job: 'pipeline.publish' });
    await until('the HITs', async () => {
      const res = await request(app).get('/api/v1/batches/api-a/hits');
      return res.body.length === 2 && res.body.every((x: { state: string }) => x.state === 'published') && res.body;
    });
    const again = await request(app).post('/api/v1/batches/api-a/publish').set(auth).send({ preset: 'quick', target: 'sandbox' });
    expect(again.status).toBe(409);
  });

  it('collects on a notification and on its own, and serves votes, labels and workers', async () => {
    const app = createApp(ctx);
    const pipeline = testContext(h.db);
    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const w of workers) for (const hit of ['api-a|0', 'api-a|1']) await work(h.running, pipeline, hit, w.workerId, honest);
    const hit0 = (await pipeline.models.hits.findById('api-a|0').lean())!.hitId!;

    const wrongKey = await request(app).post('/api/v1/notifications/nope').send({ Events: [] });
    expect(wrongKey.status).toBe(404);
    const note = await request(app)
      .post(`/api/v1/notifications/${notificationKey(TOKEN)}`)
      .send({
        EventDocVersion: '2014-08-15',
        EventDocId: 'doc-1',
        Events: [
          { EventType: 'AssignmentSubmitted', HITId: hit0, AssignmentId: 'X' },
          { EventType: 'HITReviewable', HITId: 'UNKNOWN' },
        ],
      });
    expect(note.status).toBe(202);
    expect(note.body).toEqual({ batches: ['api-a'], hits: 2 });

    const status = await until('the batch to complete', async () => {
      const res = await request(app).get('/api/v1/batches/api-a');
      return res.body.state === 'complete' && res.body;
    });
    expect(status).toMatchObject({
      items: { total: 8, complete: 8, labelled: 8 },
      assignments: { total: 6, approved: 6 },
      validVotes: 24,
      accuracy: { value: 1, compared: 8 },
    });
    expect(status.fleissKappa.value).toBeGreaterThan(0.99);

    const votes = await request(app).get('/api/v1/batches/api-a/votes').set(auth);
    expect(votes.body).toHaveLength(24);
    expect(votes.body.every((v: { counts: boolean; ms: number }) => v.counts && v.ms === 15000)).toBe(true);
    const labels = await request(app).get('/api/v1/batches/api-a/labels').set(auth);
    expect(labels.body).toHaveLength(8);
    expect(labels.body[0]).toMatchObject({ method: 'majority', complete: true, validVotes: 3 });
    const ws = await request(app).get('/api/v1/batches/api-a/workers').set(auth);
    expect(ws.body).toHaveLength(3);
    expect(ws.body[0]).toMatchObject({
      assignments: { submitted: 2, counted: 2 },
      checks: { total: 2, passed: 2 },
      medianMsPerItem: 15000,
    });

    // a repeated collection round may still hold the batch: cleanup answers 409 until it is done
    const cleaned = await until('cleanup after any running round', async () => {
      const res = await request(app).post('/api/v1/batches/api-a/cleanup').set(auth);
      return !(res.status === 409 && /another collection round/.test(String(res.body.detail))) && res;
    });
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(200);
    expect(cleaned.body).toMatchObject({ deleted: 2, remaining: [], closed: true });
    expect((await request(app).get('/api/v1/batches/api-a')).body.state).toBe('closed');
    // the repeated collection ended with the batch
    await until(
      'the collect job to be cancelled',
      async () => (await h.db.db.collection('agendaJobs').countDocuments({ name: 'pipeline.collect' })) === 0,
    );
  });

  it('describes every pipeline route in /openapi.json, with bearer security on mutations', async () => {
    const res = await request(createApp(ctx)).get('/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, { security?: unknown }>>;
    for (const p of [
      '/api/v1/batches',
      '/api/v1/batches/{batch}',
      '/api/v1/batches/{batch}/hits',
      '/api/v1/batches/{batch}/votes',
      '/api/v1/batches/{batch}/labels',
      '/api/v1/batches/{batch}/workers',
    ]) {
      expect(paths[p], p).toBeDefined();
    }
    expect(paths['/api/v1/batches']!.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(paths['/api/v1/batches/{batch}/publish']!.post!.security).toEqual([{ bearerAuth: [] }]);
    expect(res.body.components.schemas.BatchStatus).toBeDefined();
    // one error shape everywhere: a refused file's errors are in the Problem schema
    expect(JSON.stringify(res.body.components.schemas.Problem)).toContain('moreErrors');
    expect(res.body.components.schemas.ImportProblem).toBeUndefined();
  });
});
