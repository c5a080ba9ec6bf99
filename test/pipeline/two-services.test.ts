import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ListHITsCommand } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HitDoc } from '../../src/db/models/index.js';
import { paths } from '../../src/paths.js';
import { useMarketplace } from '../marketplace/support.js';
import { freePort } from '../support/free-port.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

/**
 * Two `qrelay serve` processes on one database (what docs/deployment.md describes behind
 * a load balancer): agenda's job locks give every job to one of them, the batch's round
 * lease keeps collection rounds apart, and MTurk's UniqueRequestToken makes a HIT whose
 * creation two publishers attempt exist once.
 */
const h = useMarketplace();
const TOKEN = 'two-services-test-token';
const services: Array<{ child: ChildProcess; url: string; log: string[] }> = [];

async function startService(): Promise<{ child: ChildProcess; url: string; log: string[] }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'serve', '--no-marketplace', '--port', String(port)],
    {
      cwd: paths.root,
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        MTURK_TARGET: 'local',
        MARKETPLACE_URL: h.running.url,
        QRELAY_API_TOKEN: TOKEN,
        QRELAY_DATA_DIR: tempDir('qrelay-two-services-'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log: string[] = [];
  let partial = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    log.push(...lines);
  });
  child.stderr!.on('data', (d: Buffer) => log.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`qrelay serve exited (${child.exitCode}): ${log.join('\n')}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, log };
}

beforeAll(async () => {
  await importSampleBatch(testContext(h.db), tempDir(), 'multi', 45);
  services.push(...(await Promise.all([startService(), startService()])));
}, 120_000);

afterAll(async () => {
  await Promise.all(
    services.map(({ child }) =>
      child.exitCode === null ? new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))) : undefined,
    ),
  );
});

const post = (url: string, path: string, body: unknown = {}) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('two qrelay serve processes on one database', () => {
  it('publish each HIT once and run each queued job once, whichever process takes it', async () => {
    const ctx = testContext(h.db);
    // both are asked to publish at once, then to collect, many times
    const published = await Promise.all(
      services.map((s) => post(s.url, '/api/v1/batches/multi/publish', { target: 'local', preset: 'dream' })),
    );
    expect(published.map((r) => r.status)).toEqual([202, 202]);
    const jobs = (await Promise.all(published.map((r) => r.json()))) as Array<{ id: string }>;
    expect(new Set(jobs.map((j) => j.id)).size).toBe(2);
    const reviews = await Promise.all(Array.from({ length: 6 }, (_, i) => post(services[i % 2]!.url, '/api/v1/batches/multi/review')));
    expect(reviews.map((r) => r.status)).toEqual(Array(6).fill(202));

    // wait for both publish jobs to finish (agenda records it on the job)
    const agendaJobs = h.db.db.collection<{ name: string; lastFinishedAt?: Date }>('agendaJobs');
    for (;;) {
      const finished = await agendaJobs.countDocuments({ name: 'pipeline.publish', lastFinishedAt: { $type: 'date' } });
      if (finished === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const hits = await ctx.models.hits.find({ batch: 'multi' }).lean<HitDoc[]>();
    expect(hits.length).toBe(5);
    expect(hits.every((x) => x.state === 'published' && typeof x.hitId === 'string')).toBe(true);
    expect(new Set(hits.map((x) => x.hitId)).size).toBe(hits.length);
    const onPlatform = await h.client().send(new ListHITsCommand({ MaxResults: 100 }));
    expect(onPlatform.HITs?.filter((x) => x.RequesterAnnotation?.includes('multi')).length).toBe(hits.length);

    // each publish job ran exactly once, across both processes
    const runs = services.flatMap((s) => s.log).filter((line) => line.includes('"msg":"batch published"'));
    expect(runs).toHaveLength(2);
  });
});
