import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, renderReport, type Report } from '../../src/reports/index.js';
import { simulatedBatch } from './fixtures.js';
import { launchChromium } from '../support/chromium.js';

/**
 * The html report in a real browser (Chromium through playwright-core, found by test/support/chromium.ts), opened
 * from a file as a user would: the charts render with their data, the page fetches
 * nothing, logs no error (a Content-Security-Policy violation would be one), and hostile
 * ids stay text.
 */

const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
const WORKERS = [HOSTILE, 'w-bob', 'w-carol', 'w-dave', 'w-erin', 'w-yes', 'w-fast'];

/** What the page-side callbacks use of the browser's globals (the project compiles without the DOM lib). */
interface BrowserGlobals {
  __pwned?: number;
}
interface SvgElement {
  getAttribute(name: string): string | null;
  querySelector(selector: string): { textContent: string | null } | null;
}

let dir: string;
let url: string;
let report: Report;
let browser: Browser;
let page: Page;
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  report = buildReport(simulatedBatch({ items: 90, batch: `sim <b>${HOSTILE}</b>`, workers: WORKERS }), {
    generatedAt: '2026-05-05T10:00:00.000Z',
  });
  dir = mkdtempSync(join(tmpdir(), 'qrelay-report-'));
  const file = join(dir, 'report.html');
  writeFileSync(file, renderReport(report, 'html'));
  url = pathToFileURL(file).href;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url, { waitUntil: 'load' });
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the html report in Chromium', () => {
  it('loads from a file without any other request, error or script', async () => {
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    await expect(page.locator('script').count()).resolves.toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned)).toBeUndefined();
  });

  it('shows hostile ids as text', async () => {
    await expect(page.locator('h1').textContent()).resolves.toBe(`qrelay report: sim <b>${HOSTILE}</b>`);
    await expect(page.locator('#workers tbody th').first().textContent()).resolves.toBe(HOSTILE);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator(`#chart-workers .point[data-worker="${HOSTILE.replace(/"/g, '\\"')}"]`).count()).resolves.toBe(1);
  });

  it('names and describes each chart for assistive technology', async () => {
    for (const name of ['Progress over time', 'Time to decided per item', 'Worker quality']) {
      const chart = page.getByRole('img', { name, exact: true });
      await expect(chart.count()).resolves.toBe(1);
      const description = await chart.evaluate((svg) => (svg as unknown as SvgElement).querySelector('desc')?.textContent ?? '');
      expect(description.length).toBeGreaterThan(20);
      const box = await chart.boundingBox();
      expect(box!.width).toBeGreaterThan(400);
      expect(box!.height).toBeGreaterThan(200);
    }
  });

  it('draws progress over time from the throughput series', async () => {
    const buckets = report.latency.throughput.buckets;
    const votes = page.locator('#chart-progress [data-series="valid-votes"]');
    const points = (await votes.locator('polyline').getAttribute('points'))!.trim().split(' ');
    expect(points).toHaveLength(buckets.length + 1);
    // cumulative: the line never goes down (SVG y grows downwards)
    const ys = points.map((p) => Number(p.split(',')[1]));
    for (let i = 1; i < ys.length; i++) expect(ys[i]!).toBeLessThanOrEqual(ys[i - 1]!);
    expect(ys.at(-1)!).toBeLessThan(ys[0]!);
    await expect(votes.locator('circle').count()).resolves.toBe(buckets.length);
    await expect(page.locator('#chart-progress [data-series="decided-items"] circle').count()).resolves.toBe(buckets.length);
    await expect(votes.locator('circle').last().locator('title').textContent()).resolves.toContain(
      String(buckets.at(-1)!.cumulativeValidVotes),
    );
  });

  it('draws the latency distribution with every item that reached 3 valid votes, and its p50 and p90', async () => {
    const counts = await page
      .locator('#chart-latency rect.bar')
      .evaluateAll((bars) => bars.map((b) => Number((b as unknown as SvgElement).getAttribute('data-count'))));
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(report.latency.timeToTarget.itemsDecided);
    for (const bar of await page.locator('#chart-latency rect.bar').all()) expect((await bar.boundingBox())!.height).toBeGreaterThan(0);
    await expect(page.locator('#chart-latency [data-marker="p50"]').count()).resolves.toBe(1);
    await expect(page.locator('#chart-latency [data-marker="p90"]').count()).resolves.toBe(1);
  });

  it('plots each worker’s check pass rate against agreement, flagged workers apart', async () => {
    const plotted = report.workers.filter((w) => w.checks.passRate !== null && w.agreement.rate !== null);
    await expect(page.locator('#chart-workers .point').count()).resolves.toBe(plotted.length);
    await expect(page.locator('#chart-workers .point.flagged').count()).resolves.toBe(plotted.filter((w) => w.flags.length > 0).length);
    const yes = page.locator('#chart-workers .point[data-worker="w-yes"]');
    await expect(yes.locator('title').textContent()).resolves.toMatch(/^w-yes: check pass rate .*flags: .*always-same-answer/);
  });

  it('folds the long item table, and keeps every item in it', async () => {
    const details = page.locator('#items details');
    await expect(details.count()).resolves.toBe(1);
    await expect(details.evaluate((d) => (d as unknown as { open: boolean }).open)).resolves.toBe(false);
    await expect(page.locator('#items tbody tr').count()).resolves.toBe(report.items);
  });
});
