import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListAssignmentsForHITCommand, ListBonusPaymentsCommand, ListWorkerBlocksCommand, MTurkClient } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY, loadConfig } from '../../src/config.js';
import { paths } from '../../src/paths.js';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/log.js';
import { runCli, type CliResult } from '../support/cli.js';
import { listAllHits } from '../support/mturk.js';
import { createdAt, spawnCli, useDemoEnvironment, type SpawnedCli } from './support.js';
import { keepAliveSdkHandler } from '../../src/keep-alive-agents.js';

/**
 * The requester's console on what `npm start` leaves: `qrelay start` (a child process, a
 * fresh data directory, free ports) runs the demo and serves; then, as a requester would,
 * the console page, `qrelay workers sample --json`, a block that shows in the bundled
 * marketplace's ListWorkerBlocks and an unblock that removes it, a bonus command run twice
 * that pays once, a manual label that reaches the exported JSONL qrels as `manual` — and
 * the bundled marketplace's clock and timestamps on real time, the demo's HITs included.
 */

const e = useDemoEnvironment();
const CASES = 18;
let start: SpawnedCli;
let client: MTurkClient;

const cli = async (...args: string[]): Promise<CliResult> => {
  const r = await runCli(args, e.env);
  expect(r.code, `qrelay ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

beforeAll(async () => {
  start = spawnCli(['start', '--sample-size', String(CASES)], e.env);
  await start.waitFor(/^ {2}marketplace {2}.*worker site \S+\n/m, 600_000);
  client = new MTurkClient({
    endpoint: e.marketplaceUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
    requestHandler: keepAliveSdkHandler(),
  });
});

afterAll(async () => {
  client?.destroy();
  if (start && start.child.exitCode === null && start.child.signalCode === null) {
    start.child.kill('SIGINT');
    await start.exited;
  }
});

const secondsFromNow = (t: Date | undefined) => (t === undefined ? 0 : Math.abs(t.getTime() - Date.now()) / 1000);

describe('the console on the npm start demo', () => {
  it('hands the demo to the bundled marketplace on its real-time clock', async () => {
    expect(start.stdout()).toMatch(/^hand-over: .* HITs, .* assignments, .* workers now on the bundled marketplace at .* · done$/m);
    const hits = (await listAllHits(client)).filter((h) => h.RequesterAnnotation?.startsWith('qrelay:sample|'));
    expect(hits.length).toBeGreaterThan(0);
    const times: Array<[string, Date | undefined]> = [];
    for (const h of hits) {
      times.push([`${h.HITId} CreationTime`, h.CreationTime], [`${h.HITId} Expiration`, h.Expiration]);
      const { Assignments = [] } = await client.send(new ListAssignmentsForHITCommand({ HITId: h.HITId }));
      expect(Assignments.length).toBeGreaterThan(0);
      for (const a of Assignments)
        for (const k of ['AcceptTime', 'SubmitTime', 'AutoApprovalTime', 'ApprovalTime', 'RejectionTime', 'Deadline'] as const)
          times.push([`${a.AssignmentId} ${k}`, a[k]]);
    }
    for (const [what, t] of times) expect(secondsFromNow(t), what).toBeLessThan(60);
    expect(secondsFromNow(await createdAt(e.marketplaceUrl))).toBeLessThan(30);
  });

  it('serves the console page at /', async () => {
    const token = readFileSync(join(e.dataDir, 'api-token'), 'utf8').trim();
    const login = await fetch(`${e.apiUrl}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, next: '/' }),
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const page = await fetch(`${e.apiUrl}/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('<h1>Batches</h1>');
    expect(html).toContain('sample');
  });

  it('lists the workers, blocks and unblocks one, pays a bonus once, and a manual label reaches the qrels', async () => {
    const listed = JSON.parse((await cli('workers', 'sample', '--json')).stdout) as {
      batch: string;
      workers: Array<{ workerId: string; assignmentIds: string[]; blocked: boolean | null }>;
    };
    expect(listed.batch).toBe('sample');
    expect(listed.workers.length).toBeGreaterThan(0);
    const worker = listed.workers.find((w) => w.blocked === false)!;
    expect(worker).toBeDefined();
    const assignment = worker.assignmentIds[0]!;

    await cli('worker', 'block', worker.workerId, '--reason', 'checking the console');
    const blocks = async () =>
      ((await client.send(new ListWorkerBlocksCommand({ MaxResults: 100 }))).WorkerBlocks ?? []).map((b) => b.WorkerId);
    expect(await blocks()).toContain(worker.workerId);
    await cli('worker', 'unblock', worker.workerId);
    expect(await blocks()).not.toContain(worker.workerId);

    const bonus = ['worker', 'bonus', worker.workerId, '--assignment', assignment, '--amount', '0.50', '--reason', 'careful work'];
    await cli(...bonus);
    await cli(...bonus);
    const paid = (await client.send(new ListBonusPaymentsCommand({ AssignmentId: assignment }))).BonusPayments ?? [];
    expect(paid.map((p) => [p.WorkerId, p.BonusAmount])).toEqual([[worker.workerId, '0.50']]);

    // an item the crowd decided, decided again by hand the other way
    const crowd = readFileSync(join(e.dataDir, 'out', 'sample', 'qrels.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { query_id: string; doc_id: string; rel: number; source: string })
      .find((q) => q.source === 'human-majority')!;
    const label = crowd.rel > 0 ? 'no' : 'yes';
    await cli('label', 'sample', '--query', crowd.query_id, '--chunk', crowd.doc_id, '--label', label, '--note', 'read it twice');
    const out = join(e.dataDir, 'manual.jsonl');
    await cli('export-qrels', 'sample', '--base', join(paths.root, 'samples', 'qrels', 'base.trec'), '--out', out);
    const line = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { query_id: string; doc_id: string; rel: number; source: string })
      .find((q) => q.query_id === crowd.query_id && q.doc_id === crowd.doc_id);
    expect(line).toMatchObject({ source: 'manual', rel: label === 'yes' ? 1 : 0 });
  });

  it('with the marketplace stopped, lists what qrelay holds and says in one line that the platform does not answer', async () => {
    start.child.kill('SIGINT');
    expect((await start.exited).code, start.stderr()).toBe(0);

    const r = await runCli(['workers', 'sample', '--json'], e.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `qrelay: the crowd platform at ${e.marketplaceUrl} does not answer: blocks and qualification scores are unknown (null in --json)\n`,
    );
    const listed = JSON.parse(r.stdout) as {
      workers: Array<{ blocked: boolean | null; qualifications: unknown; assignments: { submitted: number } }>;
      platform: { reachable: boolean; note: string };
    };
    expect(listed.platform).toMatchObject({ target: e.marketplaceUrl, reachable: false });
    expect(listed.workers.length).toBeGreaterThan(0);
    for (const w of listed.workers) expect(w).toMatchObject({ blocked: null, qualifications: null });
    expect(listed.workers.every((w) => w.assignments.submitted > 0)).toBe(true);

    // the REST route and the console page say the same, from a serving process of their own
    const app = createApp({
      config: loadConfig({ ...process.env, ...e.env }),
      logger: createLogger('silent'),
      connection: e.db.connection,
      apiToken: 'console-on-demo-token',
    });
    const rest = await request(app).get('/api/v1/workers?batch=sample').set('Authorization', 'Bearer console-on-demo-token');
    expect(rest.status).toBe(200);
    expect(rest.body.platform).toEqual(listed.platform);
    expect(rest.body.workers).toEqual(listed.workers);
    const login = await request(app)
      .post('/console/login')
      .type('form')
      .send({ token: 'console-on-demo-token', next: '/console/batches/sample' });
    expect(login.status).toBe(303);
    const page = await request(app).get('/console/batches/sample').set('Cookie', login.headers['set-cookie']![0]!.split(';')[0]!);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`the crowd platform at ${e.marketplaceUrl} does not answer: blocks and qualification scores are unknown`);
  });
});
