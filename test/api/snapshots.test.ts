import mongoose from 'mongoose';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_STALENESS, batchAnswers } from '../../src/api/answers.js';
import type { AppContext } from '../../src/api/context.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createPipelineContext } from '../../src/pipeline/context.js';
import { preparePublish } from '../../src/pipeline/publish.js';
import { actionModels } from '../../src/db/models/actions.js';
import { touchBatch, touchManualLabels } from '../../src/pipeline/revision.js';
import { useTestDatabase } from '../support/db.js';
import { importSampleBatch, tempDir, testContext } from '../pipeline/support.js';

const auth = { Authorization: 'Bearer snapshot-test-token' };
const noCache = { 'Cache-Control': 'no-cache' };

/**
 * Status and report are served from snapshots (src/api/snapshot.ts) keyed by the batch's
 * fingerprint, which the app keeps in memory: what this process changes through the
 * pipeline is seen at the next request (in every app on its connection); what another
 * process changes within ANSWER_STALENESS.maxStaleMs. A snapshot seen to be out of date is
 * rebuilt once in the background while requests get the one before (stale-while-revalidate);
 * a request with `Cache-Control: no-cache` waits for the rebuild.
 */
const t = useTestDatabase();
const apps: ReturnType<typeof createApp>[] = [];

beforeAll(async () => {
  const ctx = testContext(t);
  await importSampleBatch(ctx, tempDir(), 'snap', 18);
  await preparePublish(ctx, 'snap', { target: 'local', preset: 'dream' }, 'local');
  const appContext = (): AppContext => ({
    config: loadConfig({ ...process.env }),
    logger: createLogger('silent'),
    connection: t.connection,
    apiToken: 'snapshot-test-token',
  });
  apps.push(createApp(appContext()), createApp(appContext())); // two "processes" on one database
});

describe('status and report snapshots', () => {
  it('answers from the snapshot with its ETag (304 when the client has it), and anew after a change made elsewhere', async () => {
    const [one, two] = apps as [ReturnType<typeof createApp>, ReturnType<typeof createApp>];
    const first = await request(one).get('/api/v1/batches/snap').expect(200);
    expect(first.body.hits.byState.planned).toBe(2);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"/);
    await request(one).get('/api/v1/batches/snap').set('If-None-Match', etag).expect(304);
    const again = await request(one).get('/api/v1/batches/snap').expect(200);
    expect(again.body).toEqual(first.body);

    // another process publishes one HIT: the stage writes the HIT, then touches the batch
    const ctx = testContext(t);
    await ctx.models.hits.updateOne({ _id: 'snap|0' }, { $set: { state: 'published', hitId: 'SNAPHIT0' } });
    await touchBatch(ctx, 'snap');
    // the first request after it gets the snapshot from before (304) and starts its rebuild;
    // one that asks for no-cache waits for the rebuild; after it, every request has the new one
    await request(one).get('/api/v1/batches/snap').set('If-None-Match', etag).expect(304);
    const rebuilt = await request(one).get('/api/v1/batches/snap').set(noCache).set('If-None-Match', etag).expect(200);
    expect(rebuilt.body.hits.byState).toMatchObject({ planned: 1, published: 1 });
    expect(rebuilt.headers.etag).not.toBe(etag);
    await request(one)
      .get('/api/v1/batches/snap')
      .set('If-None-Match', rebuilt.headers.etag as string)
      .expect(304);
    // the second app never answered before the change: nothing older to serve
    const changed = await request(two).get('/api/v1/batches/snap').set('If-None-Match', etag).expect(200);
    expect(changed.body).toEqual(rebuilt.body);
  });

  it('shares snapshots through the database: a new process answers from the stored one without computing it', async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    const computed = await request(one).get('/api/v1/batches/snap').set('Accept-Encoding', 'identity').expect(200);
    const stored = t.db.collection<{ _id: string; body: Buffer }>('answer_snapshots');
    expect(await stored.countDocuments({ _id: 'status|snap' })).toBe(1);
    // mark the stored body: only an answer read from the store carries the mark
    const marked = { ...computed.body, marked: true };
    await stored.updateOne({ _id: 'status|snap' }, { $set: { body: Buffer.from(JSON.stringify(marked)), gzip: null } });
    const fresh = createApp({
      config: loadConfig({ ...process.env }),
      logger: createLogger('silent'),
      connection: t.connection,
      apiToken: 'snapshot-test-token',
    });
    expect((await request(fresh).get('/api/v1/batches/snap').expect(200)).body).toEqual(marked);
    // a change: the stored snapshot no longer holds, the answer is computed again
    await touchBatch(testContext(t), 'snap');
    expect((await request(fresh).get('/api/v1/batches/snap').set(noCache).expect(200)).body).toEqual(computed.body);
  });

  it('keeps answering a missing batch 404, never from a snapshot', async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    await request(one).get('/api/v1/batches/nosuch').expect(404);
    await request(one).get('/api/v1/batches/nosuch/report').set(auth).expect(404);
  });

  it('renders the report anew when the batch changes', async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    const before = await request(one).get('/api/v1/batches/snap/report').set(auth).expect(200);
    expect(before.body.hits).toBe(1); // HITs never created are left out of the report
    const ctx = testContext(t);
    await ctx.models.hits.updateOne({ _id: 'snap|1' }, { $set: { state: 'published', hitId: 'SNAPHIT1' } });
    await touchBatch(ctx, 'snap');
    const during = await request(one).get('/api/v1/batches/snap/report').set(auth).set('Accept-Encoding', 'identity').expect(200);
    const after = await request(one)
      .get('/api/v1/batches/snap/report')
      .set(auth)
      .set(noCache)
      .set('Accept-Encoding', 'identity')
      .expect(200);
    expect(after.body.hits).toBe(2);
    // the answer during the rebuild was the one from before, whole
    expect(during.body.hits).toBe(1);
    expect(after.headers['content-encoding']).toBeUndefined();
    expect(after.text).not.toContain('\n'); // compact JSON, for programs
    // the same snapshot, gzipped once for clients that take it, under its own ETag
    const zipped = await request(one).get('/api/v1/batches/snap/report').set(auth).set('Accept-Encoding', 'gzip').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.headers.etag).not.toBe(after.headers.etag);
    expect(zipped.body).toEqual(after.body);
  });

  it("shows another process's change once maxStaleMs has passed since it, however the requests before it were answered", async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    const before = await request(one).get('/api/v1/batches/snap').set('Accept-Encoding', 'identity').expect(200);
    // another process: its own connection, so none of its writes is announced to this one
    const other = await mongoose.createConnection(t.uri).asPromise();
    try {
      const ctx = createPipelineContext({ connection: other, config: loadConfig({ ...process.env }), logger: createLogger('silent') });
      await ctx.models.hits.updateOne({ _id: 'snap|0' }, { $set: { state: 'expired' } });
      await touchBatch(ctx, 'snap');
    } finally {
      await other.close();
    }
    // past the bound, the fingerprint is read again: a request that waits for the answer
    // sees the write, and so does every request once that rebuild is done
    await new Promise((r) => setTimeout(r, ANSWER_STALENESS.maxStaleMs + 50));
    const after = await request(one).get('/api/v1/batches/snap').set(noCache).set('Accept-Encoding', 'identity').expect(200);
    expect(after.body.hits.byState.expired).toBe((before.body.hits.byState.expired ?? 0) + 1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const next = await request(one).get('/api/v1/batches/snap').set('Accept-Encoding', 'identity').expect(200);
    expect(next.headers.etag).toBe(after.headers.etag);
  });

  it('renders the report anew after a manual label decided through the API (the action bumps the revision)', async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    const before = await request(one).get('/api/v1/batches/snap/report').set(auth).expect(200);
    expect(before.body.manualDecisions).toEqual([]);
    const item = await testContext(t).models.items.findOne({ batch: 'snap' }).lean<{ queryId: string; chunkId: string }>();
    await request(one)
      .post('/api/v1/batches/snap/manual-labels')
      .set('Authorization', 'Bearer snapshot-test-token')
      .send({ queryId: item!.queryId, chunkId: item!.chunkId, label: 'no', note: 'read it myself' })
      .expect(200);
    const after = await request(one).get('/api/v1/batches/snap/report').set(auth).expect(200);
    expect(after.body.manualDecisions).toEqual([expect.objectContaining({ label: 'no', note: 'read it myself' })]);
  });

  it('recomputes only what a manual label changes: the status keeps its ETag, the report its other sections, in every format', async () => {
    const [one] = apps as [ReturnType<typeof createApp>];
    const status = await request(one).get('/api/v1/batches/snap').set('Accept-Encoding', 'identity').expect(200);
    const before = await request(one).get('/api/v1/batches/snap/report').set(auth).expect(200);
    await request(one).get('/api/v1/batches/snap/report?format=md').set(auth).expect(200);
    const items = await testContext(t)
      .models.items.find({ batch: 'snap' })
      .sort({ _id: 1 })
      .lean<Array<{ queryId: string; chunkId: string }>>();
    const item = items[1]!;
    const stored = t.db.collection<{ _id: string; fingerprint: string }>('answer_snapshots');
    const statusFingerprint = (await stored.findOne({ _id: 'status|snap' }))?.fingerprint;
    expect(statusFingerprint).toEqual(expect.any(String));
    await request(one)
      .post('/api/v1/batches/snap/manual-labels')
      .set(auth)
      .send({ queryId: item.queryId, chunkId: item.chunkId, label: 'yes', note: 'a second look' })
      .expect(200);
    await request(one)
      .get('/api/v1/batches/snap')
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', status.headers.etag as string)
      .expect(304);
    expect((await stored.findOne({ _id: 'status|snap' }))?.fingerprint).toBe(statusFingerprint); // not computed again
    const after = await request(one).get('/api/v1/batches/snap/report').set(auth).expect(200);
    expect(after.body.manualDecisions).toContainEqual(
      expect.objectContaining({ queryId: item.queryId, label: 'yes', note: 'a second look' }),
    );
    const { manualDecisions: _before, generatedAt: _at, ...crowdBefore } = before.body as Record<string, unknown>;
    const { manualDecisions: _after, generatedAt: _at2, ...crowdAfter } = after.body as Record<string, unknown>;
    expect(crowdAfter).toEqual(crowdBefore);
    const md = await request(one).get('/api/v1/batches/snap/report?format=md').set(auth).expect(200);
    expect(md.text).toContain('a second look');
  });

  it('answers requests made while a write through the API is under way with the answers before it, and its own once it returns', async () => {
    const ctx = testContext(t);
    const answers = batchAnswers(ctx);
    const manualLabels = actionModels(t.connection).manualLabels;
    const items = await ctx.models.items
      .find({ batch: 'snap' })
      .sort({ _id: 1 })
      .lean<Array<{ _id: string; queryId: string; chunkId: string }>>();
    /** A write of a manual label on item n that waits at the gate once written. */
    const decide = (n: number, gate: Promise<void>, written: () => void) => async () => {
      const item = items[n]!;
      const doc = {
        batch: 'snap',
        queryId: item.queryId,
        chunkId: item.chunkId,
        label: 'yes',
        note: `held ${n}`,
        who: 'test',
        at: new Date(),
      };
      await manualLabels.updateOne({ _id: item._id }, { $set: doc }, { upsert: true });
      await touchManualLabels(ctx, 'snap');
      written();
      await gate;
    };
    const notes = async (fresh = false) =>
      ((await answers.report('snap', 'json', undefined, { fresh })).body.toString('utf8').match(/held \d/g) ?? []).sort();
    const phase = () => {
      let written!: () => void;
      let release!: () => void;
      return {
        wrote: new Promise<void>((r) => (written = r)),
        gate: new Promise<void>((r) => (release = r)),
        written: () => written(),
        release: () => release(),
      };
    };

    // while it runs, however long: the answer from before, at once; once it returns, its own
    const before = await answers.report('snap', 'json');
    const first = phase();
    const writing = answers.writing('snap', decide(2, first.gate, first.written));
    await first.wrote;
    expect(await answers.report('snap', 'json')).toBe(before);
    expect(await answers.report('snap', 'json')).toBe(before);
    // a request that asks for no-cache waits for the batch as it is: the write is in it
    expect(await notes(true)).toEqual(['held 2']);
    first.release();
    await writing;
    expect(await notes()).toEqual(['held 2']);

    // another write in this process (not through `writing`): the hold ends; the answer from
    // before serves until the rebuild, which a no-cache request waits for
    const held = await answers.report('snap', 'json');
    const second = phase();
    const again = answers.writing('snap', decide(3, second.gate, second.written));
    await second.wrote;
    expect(await answers.report('snap', 'json')).toBe(held);
    await touchBatch(ctx, 'snap');
    expect(await notes(true)).toEqual(['held 2', 'held 3']);
    expect(await notes()).toEqual(['held 2', 'held 3']);
    second.release();
    await again;
  });

  it('sees a change acknowledged to a client (a request that is not a read) at the next request, waiting for its rebuild', async () => {
    const ctx = testContext(t);
    const answers = batchAnswers(ctx);
    const before = await answers.status('snap');
    const expired = (a: { body: Buffer }) =>
      (JSON.parse(a.body.toString('utf8')) as { hits: { byState: { expired?: number } } }).hits.byState.expired ?? 0;
    await ctx.models.hits.updateOne({ _id: 'snap|1' }, { $set: { state: 'expired' } });
    await touchBatch(ctx, 'snap');
    // a job's change: the answer from before while it is rebuilt
    expect(await answers.status('snap')).toBe(before);
    await answers.status('snap', { fresh: true });
    await ctx.models.hits.updateOne({ _id: 'snap|1' }, { $set: { state: 'published' } });
    await touchBatch(ctx, 'snap');
    answers.acknowledged(); // as the answer to the request that made it leaves (acknowledgeWrites)
    const after = await answers.status('snap');
    expect(expired(after)).toBe(expired(before));
    expect(after.etag).toBe(before.etag); // the same batch again: the same bytes
    await ctx.models.hits.updateOne({ _id: 'snap|1' }, { $set: { state: 'expired' } });
    await touchBatch(ctx, 'snap');
    answers.acknowledged();
    expect(expired(await answers.status('snap'))).toBe(expired(before) + 1);
    await ctx.models.hits.updateOne({ _id: 'snap|1' }, { $set: { state: 'published' } });
    await touchBatch(ctx, 'snap');
  });
});
