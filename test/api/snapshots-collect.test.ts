import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from '../pipeline/support.js';

/**
 * A collection round (reconcile, review, labels) changes the batch's status and report: the
 * snapshots served meanwhile (src/api/answers.ts) are those from before until their rebuild
 * in the background is done; a request with `Cache-Control: no-cache` waits for it, and
 * every request after it has the new answer, under a new ETag, gzipped or not.
 */
const h = useMarketplace();
const auth = { Authorization: 'Bearer collect-snapshot-token' };
const noCache = { 'Cache-Control': 'no-cache' };

describe('snapshots across a collection round', () => {
  it('answers the status and report from before until the rebuild, then the reviewed votes under a new ETag', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, tempDir(), 'swr', 4, 40);
    await publishBatch(ctx, 'swr', { preset: 'quick', target: h.running.url }, 'local');
    const app = createApp({
      config: loadConfig({ ...process.env }),
      logger: createLogger('silent'),
      connection: h.db.connection,
      apiToken: 'collect-snapshot-token',
    });
    const status = await request(app).get('/api/v1/batches/swr').set('Accept-Encoding', 'identity').expect(200);
    const report = await request(app).get('/api/v1/batches/swr/report').set(auth).set('Accept-Encoding', 'identity').expect(200);
    await request(app)
      .get('/api/v1/batches/swr/report')
      .set(auth)
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', report.headers.etag as string)
      .expect(304);
    expect(report.body.assignments).toBe(0);

    const [a, b] = await Promise.all([1, 2].map(() => newWorker(h)));
    for (const w of [a!, b!]) await work(h.running, ctx, 'swr|0', w.workerId, honest);
    const round = await collectBatch(ctx, 'swr');
    expect(round.review.decided).toBe(2);

    for (const [path, before, headers] of [
      ['/api/v1/batches/swr', status, {}],
      ['/api/v1/batches/swr/report', report, auth],
    ] as const) {
      const etag = before.headers.etag as string;
      // the first request after the round: the answer from before, whole (here: the client has it)
      await request(app).get(path).set(headers).set('Accept-Encoding', 'identity').set('If-None-Match', etag).expect(304);
      const rebuilt = await request(app).get(path).set(headers).set(noCache).set('Accept-Encoding', 'identity').expect(200);
      expect(rebuilt.headers.etag).not.toBe(etag);
      expect(rebuilt.body).not.toEqual(before.body);
      // after the rebuild, every request: the new answer, plain or gzipped (each its own ETag)
      const plain = await request(app).get(path).set(headers).set('Accept-Encoding', 'identity').expect(200);
      expect(plain.headers.etag).toBe(rebuilt.headers.etag);
      expect(plain.headers['content-encoding']).toBeUndefined();
      const zipped = await request(app).get(path).set(headers).set('Accept-Encoding', 'gzip').expect(200);
      expect(zipped.body).toEqual(rebuilt.body);
      await request(app)
        .get(path)
        .set(headers)
        .set('Accept-Encoding', 'gzip')
        .set('If-None-Match', zipped.headers.etag as string)
        .expect(304);
    }
    const after = await request(app).get('/api/v1/batches/swr/report').set(auth).expect(200);
    expect(after.body.assignments).toBe(2);
  });
});
