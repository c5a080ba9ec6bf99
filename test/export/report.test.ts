import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import type { AppContext } from '../../src/api/context.js';
import { loadConfig } from '../../src/config.js';
import { sampleOracle, samplePopulation } from '../../src/demo/sample.js';
import { createLogger } from '../../src/log.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { importFile } from '../../src/pipeline/import.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, sampleLines, tempDir, testContext, writeLines } from '../pipeline/support.js';
import { runCli } from '../support/cli.js';
import { checkReportContract, ReportContract } from '../../src/reports/index.js';
import type { HolesMattered } from '../../src/qrels/index.js';
import { workInSpells } from '../support/simulation.js';

/**
 * The JSON report contract (docs/interfaces.md) checked on what
 * `qrelay report <batch> --format json` prints, as a child process, after a real small
 * batch: the sample's first 18 cases under the `dream` preset, worked on the bundled
 * marketplace by the sample's simulated population. Then the same report over REST.
 */

const h = useMarketplace({ clockSpeed: 20_000 });
const dir = tempDir('qrelay-report-');
const BATCH = 'rep';
const CASES = 18;

async function admin(path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${h.running.url}/admin/simulation${path}`, {
    method: body === undefined ? 'POST' : 'PUT',
    headers: { authorization: `Bearer ${h.running.adminToken}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

/** The simulated population works in spells; a collection round follows each (as the demo does). */
async function simulatedBatch(): Promise<void> {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, BATCH, CASES);
  await publishBatch(ctx, BATCH, { preset: 'dream', target: h.running.url, concurrency: 4 }, 'local');
  await admin('/oracle', sampleOracle(CASES));
  await admin('/population', samplePopulation());
  const { complete } = await workInSpells(h.running, async () => (await collectBatch(ctx, BATCH)).followUp.complete);
  if (!complete) throw new Error('the simulated batch did not complete within a simulated week');
}

const auth = { Authorization: 'Bearer report-test-token' };

function appContext(): AppContext {
  return {
    config: loadConfig({ ...process.env }),
    logger: createLogger('silent'),
    connection: h.db.connection,
    apiToken: 'report-test-token',
  };
}

describe('qrelay report', () => {
  it('prints one JSON object with every contract field, of its type, after a simulated batch', { timeout: 600_000 }, async () => {
    await simulatedBatch();
    const res = await runCli(['report', BATCH, '--format', 'json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim().startsWith('{') && res.stdout.endsWith('}\n')).toBe(true);
    const report = checkReportContract(JSON.parse(res.stdout));
    expect(report.batch).toBe(BATCH);
    expect(report.items).toBe(CASES);
    expect(report.labels).toBeGreaterThan(0);
    // a label has its majority of 3 decided: 3 votes, or 2 agreeing where a lost vote was not
    // collected again (the `recollect: when-undecided` default)
    expect(report.votes).toBeGreaterThanOrEqual(2 * report.labels);
    expect(report.votes).toBeLessThanOrEqual(3 * report.items);
    expect(report.cost.total).toBe(report.cost.rewards + report.cost.fees + report.cost.bonuses);
    expect(report.cost.total).toBeGreaterThan(0);
    expect(report.latency.timeToTarget.p50Seconds).toBeGreaterThan(0);
    expect(report.fleissKappa).not.toBeNull();
  });

  it('writes any format to a file with --out', async () => {
    const out = join(dir, 'items.csv');
    const res = await runCli(['report', BATCH, '--format', 'csv', '--table', 'items', '--out', out]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(`wrote ${out} (csv, items table)\n`);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(CASES + 1);
    expect(lines[0]).toMatch(/^item,/);
  });
});

describe('qrelay report --runs: did the holes matter', () => {
  const evalDir = join('test', 'fixtures', 'eval', 'small');
  const runs = ['bm25.run', 'dense.run', 'hybrid.run', 'weak.run'].flatMap((r) => ['--runs', join(evalDir, r)]);

  it('adds the section: runs under the base and the adjudicated qrels', { timeout: 120_000 }, async () => {
    const args = [
      'report',
      BATCH,
      '--base',
      join(evalDir, 'base.qrels'),
      '--adjudicated',
      join(evalDir, 'new.qrels'),
      ...runs,
      '--measure',
      'AP',
    ];
    const [md, json] = await Promise.all([runCli([...args, '--format', 'md']), runCli([...args, '--format', 'json'])]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('## Did the holes matter?');
    expect(md.stdout).toMatch(/^\| hybrid\.run \| \d+\.\d% \| \d+\.\d% \| 0\.4482 \| 0\.6087 \| \+0\.16\d \| .+ \| 2 → 1 \(\+1\) \|$/m);
    const section = (
      JSON.parse(json.stdout) as {
        holesMattered: { measure: string; runs: Array<{ system: string }>; swapped: Array<{ above: string; below: string }> };
      }
    ).holesMattered;
    expect(section.measure).toBe('AP');
    expect(section.runs.map((r) => r.system)).toEqual(['bm25.run', 'dense.run', 'hybrid.run', 'weak.run']);
    expect(section.swapped.map((p) => [p.above, p.below])).toEqual([['hybrid.run', 'dense.run']]);
  });

  it('says in one line what is missing without adjudicated qrels', { timeout: 120_000 }, async () => {
    const res = await runCli(['report', BATCH, '--base', join(evalDir, 'base.qrels'), ...runs]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      `qrelay: batch ${BATCH}: no adjudicated qrels to compare the runs under; run export-qrels first, or give the file`,
    );
  });

  it(
    "lists the comparisons the batch's labels changed, with pFlip, the intervals and what settling them costs",
    { timeout: 300_000 },
    async () => {
      // the batch's own pairs: a base that judges one other document per query, the crowd's labels exported over it
      const cases = sampleLines('escalations.jsonl')
        .slice(0, CASES)
        .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string });
      const queries = [...new Set(cases.map((c) => c.query_id))];
      const chunks = (q: string) => cases.filter((c) => c.query_id === q).map((c) => c.chunk_id);
      const base = writeLines(
        dir,
        'holes-base.qrels',
        queries.map((q) => `${q} 0 base-doc 1`),
      );
      const adjudicated = join(dir, 'holes-adjudicated.jsonl');
      const exported = await runCli(['export-qrels', BATCH, '--base', base, '--out', adjudicated, '--posterior']);
      expect(exported.code, exported.stderr).toBe(0);
      const records = readFileSync(adjudicated, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { query_id: string; doc_id: string; rel: number; p_relevant: number });
      const pRelevant = new Map(records.map((r) => [`${r.query_id} ${r.doc_id}`, r.p_relevant]));
      const foundRelevant = (q: string) => chunks(q).filter((c) => records.some((r) => r.query_id === q && r.doc_id === c && r.rel >= 1));
      expect(queries.some((q) => foundRelevant(q).length > 0)).toBe(true);
      // one run finds only the base's document; the other the chunks the crowd found relevant first, then it
      const ranked = (name: string, docs: (q: string) => string[]) =>
        writeLines(
          dir,
          name,
          queries.flatMap((q) => docs(q).map((d, i) => `${q} Q0 ${d} ${i + 1} ${100 - i} ${name}`)),
        );
      const runs = [ranked('base-only.run', () => ['base-doc']), ranked('crowd-first.run', (q) => [...foundRelevant(q), 'base-doc'])];
      const args = ['report', BATCH, '--base', base, '--adjudicated', adjudicated, ...runs.flatMap((r) => ['--runs', r])];
      const [md, json] = await Promise.all([runCli([...args, '--format', 'md']), runCli([...args, '--format', 'json'])]);
      expect(json.code, json.stderr).toBe(0);
      const report = JSON.parse(json.stdout) as {
        cost: { perLabel: number | null };
        holesMattered: Pick<HolesMattered, 'comparisons' | 'toSettle' | 'costPerLabel' | 'labelPosteriors'>;
      };
      const section = report.holesMattered;
      expect(section.labelPosteriors).toBe(true);
      expect(section.costPerLabel).toBe(report.cost.perLabel);
      const [comparison] = section.comparisons;
      expect(section.comparisons).toHaveLength(1);
      expect([comparison!.above, comparison!.below, comparison!.orderChanged]).toEqual(['crowd-first.run', 'base-only.run', true]);
      expect(comparison!.withLabels!.low).toBeLessThanOrEqual(comparison!.interval!.low);
      expect(comparison!.withLabels!.high).toBeGreaterThanOrEqual(comparison!.interval!.high);
      expect(comparison!.pFlip).toBeGreaterThanOrEqual(0);
      expect(comparison!.verdict).toBe(comparison!.pFlip! < 0.05 ? 'settled' : 'depends on the labels');
      if (comparison!.settle) {
        expect(comparison!.settle.cost).toBe(comparison!.settle.labels * report.cost.perLabel!);
        // the labels named carry the batch's posteriors, as export-qrels --posterior wrote them
        for (const l of comparison!.settle.first) expect(l.p).toBe(pRelevant.get(`${l.query} ${l.doc}`));
      }
      expect(md.code, md.stderr).toBe(0);
      expect(md.stdout).toContain('Comparisons whose order or significance (Holm-adjusted p below 0.05) changed');
      expect(md.stdout).toContain('| ahead after | compared with | what changed | difference after |');
      expect(md.stdout).toMatch(
        new RegExp(`^\\| crowd-first\\.run \\| base-only\\.run \\| order swapped.* \\| ${comparison!.verdict} \\|`, 'm'),
      );
    },
  );
});

describe('GET /api/v1/batches/{batch}/report', () => {
  it('serves every format with its media type', async () => {
    const app = createApp(appContext());
    const json = await request(app).get(`/api/v1/batches/${BATCH}/report`).set(auth);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ReportContract.safeParse(json.body).success).toBe(true);
    const md = await request(app).get(`/api/v1/batches/${BATCH}/report?format=md`).set(auth);
    expect([md.status, md.headers['content-type']]).toEqual([200, 'text/markdown; charset=utf-8']);
    expect(md.text).toContain(BATCH);
    const html = await request(app).get(`/api/v1/batches/${BATCH}/report?format=html`).set(auth);
    expect([html.status, html.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
    expect(html.headers['content-security-policy']).toContain("default-src 'none'");
    expect(html.text).toMatch(/^<!DOCTYPE html>/i);
    const csv = await request(app).get(`/api/v1/batches/${BATCH}/report?format=csv&table=items`).set(auth);
    expect([csv.status, csv.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8; header=present']);
    expect(csv.text.trim().split('\n')).toHaveLength(CASES + 1);
  });

  it('answers problems: a bad format 400, no such batch 404, a batch not published 409', async () => {
    const ctx = testContext(h.db);
    await importFile(ctx, writeLines(dir, 'draft.jsonl', sampleLines('escalations.jsonl').slice(0, 2)), { batch: 'draft' });
    const app = createApp(appContext());
    const bad = await request(app).get(`/api/v1/batches/${BATCH}/report?format=pdf`).set(auth);
    expect([bad.status, bad.headers['content-type']]).toEqual([400, 'application/problem+json; charset=utf-8']);
    expect(bad.body.errors[0].field).toBe('query.format');
    expect((await request(app).get('/api/v1/batches/nothing-here/report').set(auth)).status).toBe(404);
    const draft = await request(app).get('/api/v1/batches/draft/report').set(auth);
    expect(draft.status).toBe(409);
    expect(draft.body.detail).toBe('batch draft is not published: there is nothing to report yet');
  });

  it('is described in /openapi.json with the four media types', async () => {
    const doc = (await request(createApp(appContext())).get('/openapi.json')).body as {
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const route = doc.paths['/api/v1/batches/{batch}/report']?.get;
    expect(Object.keys(route?.responses['200']?.content ?? {}).sort()).toEqual([
      'application/json',
      'text/csv',
      'text/html',
      'text/markdown',
    ]);
  });
});
