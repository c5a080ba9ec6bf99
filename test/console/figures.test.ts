import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchReport } from '../../src/export/batch-report.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import type { BatchStatus } from '../../src/pipeline/status.js';
import { renderHtml } from '../../src/reports/index.js';
import { runCli } from '../support/cli.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { serveApp } from './support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from '../pipeline/support.js';

/**
 * One batch, three readers: the console's batch page, the HTML report and `qrelay status
 * --json` give the same count of decided items and the same interval of κ. The batch runs
 * under `recollect: when-undecided` with a discarded assignment, so that items decided by
 * two agreeing votes (never a third) are in it: the case where the figures used to disagree.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-console-figures-');
const TOKEN = 'console-figures-test-token';
const BATCH = 'fig-a';

let server: Server;
let base: string;

const missesCheck: Answerer = (item, truth) => (item.kind === 'check' ? (item.expected === 'yes' ? 'no' : 'yes') : (truth ?? 'yes'));
const against = (truth: string | undefined) => (truth === 'yes' ? 'no' : 'yes');

beforeAll(async () => {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, BATCH, 8, 120);
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
  const hits = await ctx.models.hits.find({ batch: BATCH }).sort({ index: 1 }).lean();
  const real = hits.flatMap((x) => x.items.filter((i) => i.kind === 'real').map((i) => i.key));
  // w2 answers two items against the truth: they tie 1–1 once w3's work is discarded (undecided),
  // and κ has disagreement to measure
  const flipped = new Set([real[1], real[5]]);
  const flips: Answerer = (item, truth) => (flipped.has(item.key) ? against(truth) : honest(item, truth));
  const [w1, w2, w3] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
  for (const hit of hits) {
    await work(h.running, ctx, hit._id, w1!.workerId, honest);
    await work(h.running, ctx, hit._id, w2!.workerId, flips);
    await work(h.running, ctx, hit._id, w3!.workerId, missesCheck);
  }
  await collectBatch(ctx, BATCH);

  ({ server, base } = await serveApp(h, TOKEN));
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

/** The console's batch page as text. */
async function consolePage(): Promise<string> {
  const login = await fetch(`${base}/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN, next: '/' }),
    redirect: 'manual',
  });
  expect(login.status).toBe(303);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const page = await fetch(`${base}/console/batches/${BATCH}`, { headers: { cookie } });
  expect(page.status).toBe(200);
  return textOf(await page.text());
}

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe('the figures of one batch', () => {
  it('console, report and qrelay status --json give the same decided count and κ interval', { timeout: 120_000 }, async () => {
    const cli = await runCli(['status', BATCH, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const status = JSON.parse(cli.stdout) as BatchStatus;
    // 8 items; two tied 1–1 after the discarded votes: 6 decided, each by two agreeing votes only
    expect(status.items).toMatchObject({ total: 8, decided: 6, complete: 6 });
    const kappa = status.agreementIntervals!.fleissKappa;
    expect(kappa.low).not.toBeNull();
    expect(kappa.high).not.toBeNull();
    const interval = `[${kappa.low!.toFixed(3)}, ${kappa.high!.toFixed(3)}]`;

    const { report } = await batchReport(testContext(h.db), BATCH);
    expect(report.latency.timeToTarget).toMatchObject({ itemsDecided: 6, itemsUndecided: 2 });
    expect(report.quality.agreementIntervals.fleissKappa).toEqual(kappa);
    const html = textOf(renderHtml(report));
    expect(html).toContain('Items decided 6 (2 undecided)');
    expect(html).toContain(`Fleiss' κ`);
    expect(html).toContain(`(95% ${interval})`);

    const page = await consolePage();
    expect(page).toContain('Items decided');
    expect(page).toContain('6 / 8');
    expect(page).toContain(`Fleiss' κ ${status.fleissKappa.value!.toFixed(3)} 95% interval ${interval}`);
    // the text status says the same
    const text = await runCli(['status', BATCH]);
    expect(text.stdout).toContain('6 of 8 decided');
    expect(text.stdout).toContain(`Fleiss κ ${status.fleissKappa.value!.toFixed(3)} ${interval}`);
  });
});
