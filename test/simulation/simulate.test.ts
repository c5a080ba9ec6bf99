import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MTurkClient } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '../../src/config.js';
import { paths } from '../../src/paths.js';
import type { Forecast } from '../../src/simulation/forecast.js';
import { createdAt, spawnCli, useDemoEnvironment } from '../demo/support.js';
import { listAllHits } from '../support/mturk.js';
import { keepAliveSdkHandler } from '../../src/keep-alive-agents.js';

/**
 * `qrelay simulate` end to end, as a user runs it: a batch imported (never published), a
 * real marketplace serving at MARKETPLACE_URL, then the simulation with a truth file. The
 * forecast has the fields; the same seed gives byte-identical output but for the
 * wall times; the copy has 3 valid votes and a label per case, and `report` and
 * `export-qrels` work on it, marked simulated; the real marketplace neither lists the
 * simulation's HITs nor has its clock moved.
 */

const e = useDemoEnvironment();
const CASES = 27;

function run(args: string[]) {
  const cli = spawnCli(args, e.env);
  return cli.exited.then(({ code }) => ({ code, stdout: cli.stdout(), stderr: cli.stderr() }));
}

function client(): MTurkClient {
  return new MTurkClient({
    endpoint: e.marketplaceUrl,
    region: 'us-east-1',
    credentials: { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY },
    requestHandler: keepAliveSdkHandler(),
  });
}

/** The forecast without the fields that measure the machine (wall times). */
const repeatable = (f: Forecast) => ({
  ...f,
  wallSeconds: 0,
  wall: { ...f.wall, copySeconds: 0, publishSeconds: 0, crowdSeconds: 0, roundsSeconds: 0, endSeconds: 0 },
});

describe('qrelay simulate', () => {
  it('forecasts a batch from a copy on a private simulated marketplace, repeatably', { timeout: 900_000 }, async () => {
    const lines = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, CASES);
    writeFileSync(join(e.dataDir, 'cases.jsonl'), `${lines.join('\n')}\n`);
    const truth = lines.map((l) => JSON.parse(l) as { query_id: string; chunk_id: string; hidden_label: string });
    // TREC qrels, one of the two truth formats
    writeFileSync(
      join(e.dataDir, 'truth.qrels'),
      truth.map((c) => `${c.query_id} 0 ${c.chunk_id} ${c.hidden_label === 'yes' ? 1 : 0}\n`).join(''),
    );
    for (const args of [
      ['import', join(e.dataDir, 'cases.jsonl'), '--batch', 'b', '--kind', 'escalations'],
      ['import', join(paths.samples, 'gold.jsonl'), '--batch', 'b', '--kind', 'gold'],
    ]) {
      const r = await run(args);
      expect(r.code, r.stderr).toBe(0);
    }

    // the marketplace that serves real clients, running beside the simulation
    const market = spawnCli(['marketplace', '--port', new URL(e.marketplaceUrl).port, '--host', '127.0.0.1'], e.env);
    try {
      await market.waitFor(/serving|listening|http:\/\//i, 120_000);
      const mturk = client();
      try {
        const first = await run(['simulate', 'b', '--truth', join(e.dataDir, 'truth.qrels'), '--seed', 's1', '--json']);
        expect(first.code, first.stderr).toBe(0);
        const f = JSON.parse(first.stdout) as Forecast;
        expect(f).toMatchObject({
          batch: 'b-sim',
          simulated: true,
          seed: 's1',
          items: CASES,
          labels: expect.any(Number),
          unresolved: expect.any(Number),
        });
        for (const k of ['fleissKappa', 'krippendorffAlpha', 'accuracy', 'cost', 'latency', 'votes', 'workers'])
          expect(f).toHaveProperty(k);
        expect(f.accuracy).toMatchObject({
          accuracy: expect.any(Number),
          balancedAccuracy: expect.any(Number),
          ci95: [expect.any(Number), expect.any(Number)],
        });
        expect(f.cost).toMatchObject({ quote: expect.any(Number), total: expect.any(Number) });
        expect(f.latency).toMatchObject({ p50Seconds: expect.any(Number), p90Seconds: expect.any(Number) });
        expect(f.labels + f.unresolved).toBe(CASES);
        // every vote collected, counted or not: at least 3 per case
        const perCase = new Map<string, number>();
        for (const v of f.votes) {
          expect(['yes', 'no']).toContain(v.answer);
          perCase.set(`${v.query_id}/${v.chunk_id}`, (perCase.get(`${v.query_id}/${v.chunk_id}`) ?? 0) + 1);
        }
        expect(perCase.size).toBe(CASES);
        expect(Math.min(...perCase.values())).toBeGreaterThanOrEqual(3);
        expect(f.workers.length).toBeGreaterThan(0);
        for (const w of f.workers)
          expect(w).toMatchObject({
            workerId: expect.any(String),
            kind: expect.any(String),
            assignments: expect.any(Number),
            discardedAssignments: expect.any(Number),
            blocked: expect.any(Boolean),
            flags: expect.any(Array),
          });

        // the name is taken: refused without --replace; the same seed gives the same forecast
        const refused = await run(['simulate', 'b', '--truth', join(e.dataDir, 'truth.qrels'), '--seed', 's1', '--json']);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(/batch b-sim already exists: give --replace/);
        const again = await run(['simulate', 'b', '--truth', join(e.dataDir, 'truth.qrels'), '--seed', 's1', '--json', '--replace']);
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.stringify(repeatable(JSON.parse(again.stdout) as Forecast))).toBe(JSON.stringify(repeatable(f)));

        // the copy is a batch like any other, marked simulated; the source is untouched
        const status = await run(['status', 'b-sim', '--json']);
        expect(JSON.parse(status.stdout)).toMatchObject({
          batch: 'b-sim',
          simulated: true,
          state: 'complete',
          items: { total: CASES, complete: CASES },
        });
        expect(JSON.parse((await run(['status', 'b', '--json'])).stdout)).toMatchObject({ batch: 'b', state: 'draft' });
        const report = await run(['report', 'b-sim']);
        expect(report.code, report.stderr).toBe(0);
        expect(JSON.parse(report.stdout)).toMatchObject({ batch: 'b-sim', simulated: true, items: CASES });
        const out = join(e.dataDir, 'sim.trec');
        const exported = await run(['export-qrels', 'b-sim', '--base', join(paths.samples, 'qrels', 'base.tsv'), '--out', out, '--json']);
        expect(exported.code, exported.stderr).toBe(0);
        expect(JSON.parse(exported.stdout)).toMatchObject({ batch: 'b-sim', simulated: true, human: { labels: f.labels } });

        // the real marketplace: none of the simulation's HITs, and its clock on real time
        expect((await listAllHits(mturk)).filter((h) => h.RequesterAnnotation?.includes('b-sim'))).toHaveLength(0);
        const probe = await createdAt(e.marketplaceUrl);
        expect(Math.abs(probe.getTime() - Date.now())).toBeLessThan(30_000);
      } finally {
        mturk.destroy();
      }
    } finally {
      market.child.kill('SIGINT');
      await market.exited;
    }
  });

  it('names the line of a bad truth file', { timeout: 120_000 }, async () => {
    writeFileSync(
      join(e.dataDir, 'bad.jsonl'),
      '{"query_id":"q1","chunk_id":"c1","label":"yes"}\n{"query_id":"q1","chunk_id":"c2","label":"maybe"}\n',
    );
    const r = await run(['simulate', 'b', '--truth', join(e.dataDir, 'bad.jsonl'), '--as', 'b-bad']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `qrelay: ${join(e.dataDir, 'bad.jsonl')}:2: field label: expected yes or no (or 1/0, true/false), got "maybe"`,
    );
  });
});
