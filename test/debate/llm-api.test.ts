import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { useTestDatabase } from '../support/db.js';
import { startOpenAiServer, type OpenAiServer } from '../support/openai-server.js';
import { candidate, debateScript } from './scripted.js';

/** The debate and the adjudicator as jobs of `qrelay serve`, through the REST API. */

useTestDatabase();
const dir = mkdtempSync(join(tmpdir(), 'qrelay-llm-api-'));
const TOKEN = 'test-token-llm-api';
let llm: OpenAiServer;
let server: RunningServer;

beforeAll(async () => {
  llm = await startOpenAiServer(debateScript);
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    QRELAY_DATA_DIR: dir,
    QRELAY_API_TOKEN: TOKEN,
    OPENAI_BASE_URL: llm.url,
    OPENAI_API_KEY: 'sk-test',
  });
  server = await startServer(config, createLogger('silent'), { jobs: { processEvery: 200 } });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await llm?.close();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, token: string | null = TOKEN) =>
  fetch(`${server.url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
const get = async (path: string) => (await fetch(`${server.url}/api/v1${path}`)).json() as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a test reads the JSON as served

describe('LLM jobs over REST', () => {
  it(
    'POST /debates needs the token, validates, queues; status and progress until done; the files; then adjudicate the batch',
    { timeout: 400_000 },
    async () => {
      const body = {
        candidates: [candidate(1, 'agree-yes-1'), candidate(2, 'disagree'), candidate(3, 'agree-no-2')],
        model: 'm',
        batch: 'api-debate',
      };
      expect((await post('/debates', body, null)).status).toBe(401);
      const errorsOf = async (r: Response) => {
        expect(r.status).toBe(400);
        return ((await r.json()) as { errors: { field: string }[] }).errors.map((e) => e.field);
      };
      expect(await errorsOf(await post('/debates', { candidates: [], model: 'm' }))).toEqual(['body.candidates']);
      expect(await errorsOf(await post('/debates', { candidates: body.candidates }))).toEqual(['body.model']);
      expect(await errorsOf(await post('/debates', { candidates: [{ query_id: 'q' }], model: 'm' }))).toEqual(
        expect.arrayContaining(['body.candidates.0.query']),
      );

      const queued = await post('/debates', body);
      expect(queued.status).toBe(202);
      const job = (await queued.json()) as { id: string; state: string };
      expect(job.state).toBe('queued');
      await expect.poll(async () => (await get(`/debates/${job.id}`)).state, { timeout: 180_000, interval: 200 }).toBe('done');
      const done = await get(`/debates/${job.id}`);
      expect(done).toMatchObject({
        kind: 'debate',
        batch: 'api-debate',
        progress: { done: 3, total: 3 },
        result: { candidates: 3, consensus: 2, escalated: 1, imported: { batch: 'api-debate', escalations: 1, consensus: 2 } },
      });
      const escalations = await fetch(`${server.url}/api/v1/debates/${job.id}/escalations`);
      expect(escalations.headers.get('content-type')).toMatch(/application\/x-ndjson/);
      expect(
        (await escalations.text())
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { query_id: string }).query_id),
      ).toEqual(['q2']);

      // the same request again is the same job: nothing asked again
      const asked = llm.answered.length;
      const again = (await (await post('/debates', body)).json()) as { id: string; state: string };
      expect(again).toMatchObject({ id: job.id, state: 'done' });
      expect(llm.answered.length).toBe(asked);

      expect((await post('/batches/nope/adjudicate', { model: 'judge' })).status).toBe(404);
      const adj = await post('/batches/api-debate/adjudicate', { model: 'judge' });
      expect(adj.status).toBe(202);
      const adjJob = (await adj.json()) as { id: string };
      await expect.poll(async () => (await get(`/adjudications/${adjJob.id}`)).state, { timeout: 180_000, interval: 200 }).toBe('done');
      expect(await get(`/adjudications/${adjJob.id}`)).toMatchObject({
        kind: 'adjudicate',
        result: { cases: 1, yes: 1, failed: 0, cost: { debate: { usd: null, unpriced: ['m'] } } },
      });

      const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(openapi.paths)).toEqual(
        expect.arrayContaining([
          '/api/v1/debates',
          '/api/v1/debates/{id}',
          '/api/v1/debates/{id}/{file}',
          '/api/v1/batches/{batch}/adjudicate',
          '/api/v1/adjudications/{id}',
        ]),
      );
    },
  );
});
