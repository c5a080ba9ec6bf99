import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { ListBonusPaymentsCommand, ListWorkerBlocksCommand } from '@aws-sdk/client-mturk';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionModels } from '../../src/actions/models.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { paths } from '../../src/paths.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { serveApp } from './support.js';
import { honest, importSampleBatch, tempDir, testContext, work, type Answerer } from '../pipeline/support.js';

/**
 * The console in a real browser (Chromium through playwright-core): log in with the API
 * token, block a worker, pay a bonus, decide a contested item; each effect is checked on
 * the marketplace (ListWorkerBlocks, ListBonusPayments) or in the stored decision. Pages
 * are photographed at 390 and 1440 px into test-artifacts/console/ (gitignored), and must
 * not scroll sideways at either width. The decide form's radios sit beside their own words;
 * the batch page's tables page, sort and search without script. A hostile worker comment
 * must stay text.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-console-browser-');
const TOKEN = 'console-browser-test-token';
const BATCH = 'con-b';
const ARTIFACTS = join(paths.root, 'test-artifacts', 'console');
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> & "quotes"';

interface BrowserGlobals {
  __pwned?: number;
  document: { documentElement: { scrollWidth: number } };
}

let server: Server;
let base: string;
let browser: Browser;
let w: { a: string; b: string; c: string };
let bonusAssignment: string;

/** Answers every real item against the truth (checks right): splits votes so items are contested. */
const contrary: Answerer = (item, truth) => (item.kind === 'check' ? item.expected : truth === 'yes' ? 'no' : 'yes');

beforeAll(async () => {
  const ctx = testContext(h.db);
  // 24 items in 6 HITs (two of them worked): more items than a page of 10 holds
  await importSampleBatch(ctx, dir, BATCH, 24);
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url, budgetUsd: 20 }, 'local');
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => newWorker(h)));
  w = { a: a!.workerId, b: b!.workerId, c: c!.workerId };
  bonusAssignment = await work(h.running, ctx, `${BATCH}|0`, w.a, honest);
  await work(h.running, ctx, `${BATCH}|1`, w.a, honest);
  for (const hit of [`${BATCH}|0`, `${BATCH}|1`]) await work(h.running, ctx, hit, w.b, honest);
  // worker c disagrees everywhere and leaves a hostile comment on one item
  for (const hit of [`${BATCH}|0`, `${BATCH}|1`]) {
    const doc = await ctx.models.hits.findById(hit).lean();
    const truth = new Map((await ctx.models.items.find({ batch: BATCH }).lean()).map((r) => [r.key, r.label ?? undefined]));
    const view = await h.running.workers.acceptHit(w.c, doc!.hitId!);
    const fields: Record<string, string> = { assignmentId: view.assignmentId };
    for (const item of doc!.items) {
      fields[`item${item.position}_answer`] = contrary(item, truth.get(item.key));
      fields[`item${item.position}_ms`] = '20000';
      if (item.kind === 'real') fields[`item${item.position}_comment`] = HOSTILE;
      if (item.kind === 'real') fields[`item${item.position}_difficult`] = 'yes';
    }
    await h.running.workers.submitAssignment(w.c, view.assignmentId, fields);
  }
  await collectBatch(ctx, BATCH);

  ({ server, base } = await serveApp(h, TOKEN));
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function logIn(width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${base}/`);
  await page.fill('#token', 'not-the-token');
  await page.click('form[action="/console/login"] button');
  await page.waitForSelector('text=That is not the API token.');
  await page.fill('#token', TOKEN);
  await page.click('form[action="/console/login"] button');
  await page.waitForSelector('#batches');
  return page;
}

const notice = async (page: Page) => (await page.waitForSelector('p.notice')).textContent();
const noSidewaysScroll = async (page: Page, width: number) =>
  expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );

describe('the console in Chromium', () => {
  it(
    'logs in with the API token, blocks a worker, pays a bonus and decides an item; the marketplace agrees',
    { timeout: 180_000 },
    async () => {
      const page = await logIn(1440);
      expect(await page.locator('#batches').textContent()).toContain(BATCH);
      await page.click(`a[href="/console/batches/${BATCH}"]`);
      await page.waitForSelector('#workers-table');
      expect(await page.locator('#agreement').textContent()).toMatch(/95% interval/);
      expect(await page.locator('#chart-progress').count()).toBe(1);
      expect(await page.locator('#chart-spend').count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, 'batch-1440.png'), fullPage: false });

      // block worker c from the workers table
      const row = page.locator(`tr[data-worker="${w.c}"]`);
      await row.locator('input[name="reason"]').fill('disagrees with everyone');
      await row.locator('button', { hasText: 'Block' }).click();
      expect(await notice(page)).toContain(`worker ${w.c} blocked`);
      const blocks = (await h.client().send(new ListWorkerBlocksCommand({}))).WorkerBlocks ?? [];
      expect(blocks).toContainEqual(expect.objectContaining({ WorkerId: w.c, Reason: 'disagrees with everyone' }));
      expect(await page.locator(`tr[data-worker="${w.c}"] .blocked`).textContent()).toBe('blocked');

      // pay worker a a bonus from their page
      await page.goto(`${base}/console/batches/${BATCH}/workers/${w.a}`);
      await page.selectOption('#bonus-form select[name="assignmentId"]', bonusAssignment);
      await page.fill('#bonus-form input[name="amount"]', '0.40');
      await page.fill('#bonus-form input[name="reason"]', 'clear comments');
      await page.click('#bonus-form button');
      expect(await notice(page)).toContain(`bonus of $0.40 paid to ${w.a}`);
      const paid = (await h.client().send(new ListBonusPaymentsCommand({ AssignmentId: bonusAssignment }))).BonusPayments ?? [];
      expect(paid).toEqual([expect.objectContaining({ WorkerId: w.a, BonusAmount: '0.40', Reason: 'clear comments' })]);
      await page.screenshot({ path: join(ARTIFACTS, 'worker-1440.png'), fullPage: false });

      // decide the first contested item
      await page.goto(`${base}/console/batches/${BATCH}#decide`);
      const first = page.locator('article.decide').first();
      const title = (await first.locator('h3').textContent()) ?? '';
      // the heading reads "<query> · <chunk> contested"
      const [queryId, rest] = title.split(' · ');
      const chunkId = rest!.split(' ')[0];
      await first.locator('input[name="label"][value="no"]').check();
      await first.locator('input[name="note"]').fill('decided in the browser');
      await first.locator('button', { hasText: 'Decide' }).click();
      expect(await notice(page)).toContain(`query ${queryId} chunk ${chunkId} decided: no`);
      const stored = await actionModels(h.db.connection).manualLabels.find({ batch: BATCH }).lean();
      expect(stored).toEqual([expect.objectContaining({ queryId, chunkId, label: 'no', note: 'decided in the browser', who: 'console' })]);

      // the hostile comment is shown as text and never runs
      await page.goto(`${base}/console/batches/${BATCH}?items=attention#items`);
      expect(await page.locator('#items-table').textContent()).toContain('<script>window.__pwned=2</script>');
      expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned)).toBeUndefined();
      await page.close();
    },
  );

  it('is readable at 390 px: no sideways scrolling, tables as cards', { timeout: 120_000 }, async () => {
    const page = await logIn(390);
    await noSidewaysScroll(page, 390);
    await page.screenshot({ path: join(ARTIFACTS, 'batches-390.png'), fullPage: false });
    await page.goto(`${base}/console/batches/${BATCH}`);
    await noSidewaysScroll(page, 390);
    await page.screenshot({ path: join(ARTIFACTS, 'batch-390.png'), fullPage: false });
    await page.goto(`${base}/console/batches/${BATCH}#workers`);
    await page.screenshot({ path: join(ARTIFACTS, 'workers-390.png'), fullPage: false });
    // each cell of a stacked table shows its column name
    const label = await page
      .locator('#workers-table td[data-label="Agreement"]')
      .first()
      .evaluate(
        (td) =>
          (globalThis as unknown as { getComputedStyle(e: unknown, p: string): { content: string } }).getComputedStyle(td, '::before')
            .content,
      );
    expect(label).toBe('"Agreement"');
    await page.goto(`${base}/console/batches/${BATCH}/workers/${w.c}`);
    await noSidewaysScroll(page, 390);
    await page.screenshot({ path: join(ARTIFACTS, 'worker-390.png'), fullPage: false });
    await page.close();
  });

  it('refuses a form without its CSRF token and pages without a session', { timeout: 60_000 }, async () => {
    const page = await logIn(1440);
    const res = await page.request.post(`${base}/console/workers/${w.b}/block`, {
      form: { reason: 'forged', return: '/' },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(403);
    expect((await h.client().send(new ListWorkerBlocksCommand({}))).WorkerBlocks?.map((b) => b.WorkerId)).not.toContain(w.b);
    const anonymous = await browser.newPage();
    const r = await anonymous.goto(`${base}/console/batches/${BATCH}`);
    expect(r?.status()).toBe(401);
    expect(await anonymous.locator('#token').count()).toBe(1);
    await anonymous.close();
    await page.close();
  });

  for (const width of [390, 1440]) {
    it(
      `at ${width} px: each decide radio sits beside its own word, and no page is wider than the window`,
      { timeout: 120_000 },
      async () => {
        const page = await logIn(width);
        await noSidewaysScroll(page, width);
        await page.goto(`${base}/console/batches/${BATCH}#decide`);
        await noSidewaysScroll(page, width);
        const forms = (await page.evaluate(RADIO_GEOMETRY)) as RadioGeometry[][];
        expect(forms.length).toBeGreaterThan(0);
        for (const options of forms) {
          expect(options.map((o) => o.word)).toEqual(['yes', 'no']);
          options.forEach((o, i) => {
            const own = distance(o.radio, o.text);
            for (const [j, other] of options.entries()) if (j !== i) expect(own).toBeLessThan(distance(o.radio, other.text));
            // a radio of its usual size, and its word on one line
            expect(o.radio.right - o.radio.left).toBeLessThanOrEqual(24);
            expect(o.text.bottom - o.text.top).toBeLessThan(30);
          });
        }
        await page
          .locator('article.decide')
          .first()
          .screenshot({ path: join(ARTIFACTS, `decide-${width}.png`) });
        // no header or URL broken inside a word
        expect(await page.evaluate(BROKEN_WORDS)).toEqual([]);
        await page.goto(`${base}/console/batches/${BATCH}/workers/${w.a}`);
        await noSidewaysScroll(page, width);
        const anonymous = await browser.newPage({ viewport: { width, height: 900 } });
        await anonymous.goto(`${base}/`);
        await noSidewaysScroll(anonymous, width);
        await anonymous.close();
        await page.close();
      },
    );
  }

  it('pages, sorts and searches the workers and items tables, without script', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.fill('#token', TOKEN);
    await page.click('form[action="/console/login"] button');
    await page.waitForSelector('#batches');
    /** Clicks what loads another page (no script: a link or a GET form) and waits for it. */
    const load = async (click: () => Promise<void>) => {
      const before = page.url();
      await click();
      await page.waitForURL((u) => u.toString() !== before);
    };

    // items: a page of 10 of 24, the next page, the page size kept
    await page.goto(`${base}/console/batches/${BATCH}#items`);
    await page.selectOption('#items select[name="isize"]', '10');
    await load(() => page.click('#items form.filter button'));
    const rows = page.locator('#items-table tbody tr');
    expect(await rows.count()).toBe(10);
    expect(await page.locator('#items .range').textContent()).toBe('1–10 of 24');
    const firstOnPage1 = await rows.first().getAttribute('id');
    await load(() => page.locator('#items nav.pages a[rel="next"]').first().click());
    expect(await rows.count()).toBe(10);
    expect(await page.locator('#items .range').textContent()).toBe('11–20 of 24');
    expect(await rows.first().getAttribute('id')).not.toBe(firstOnPage1);
    await page.screenshot({ path: join(ARTIFACTS, 'items-page-2-1440.png'), fullPage: false });

    // sorting by a header, then the other way
    await load(() => page.locator('#items-table thead a', { hasText: 'Votes' }).click());
    expect(await page.locator('#items-table th[aria-sort="ascending"]').textContent()).toContain('Votes');
    const votes = async () =>
      (await page.locator('#items-table td[data-label="Votes"]').allTextContents()).map((t) => {
        const [, yes, no] = /(\d+) yes · (\d+) no/.exec(t)!;
        return Number(yes) + Number(no);
      });
    const ascending = await votes();
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await load(() => page.locator('#items-table thead a', { hasText: 'Votes' }).click());
    expect(await page.locator('#items-table th[aria-sort="descending"]').count()).toBe(1);
    const descending = await votes();
    expect(descending).toEqual([...descending].sort((a, b) => b - a));
    expect(descending[0]).toBeGreaterThan(0);

    // searching by a query id keeps only its items
    const cell = (await page.locator('#items-table td[data-label="Query · chunk"]').first().textContent())!;
    const queryId = cell.trim().split(' ')[0]!;
    await page.fill('#items input[type="search"]', queryId);
    await load(() => page.click('#items form.filter button'));
    const found = await page.locator('#items-table td[data-label="Query · chunk"]').allTextContents();
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThan(24);
    for (const t of found) expect(t.trim().startsWith(`${queryId} `)).toBe(true);

    // workers: search, sort and a page size, the items' state kept
    await page.fill('#workers input[type="search"]', w.b);
    await load(() => page.click('#workers form.filter button'));
    expect(await page.locator('#workers-table tbody tr').count()).toBe(1);
    expect(await page.locator('#workers-table tbody tr').getAttribute('data-worker')).toBe(w.b);
    expect(await page.locator('#items input[type="search"]').inputValue()).toBe(queryId);
    await page.fill('#workers input[type="search"]', '');
    await load(() => page.click('#workers form.filter button'));
    expect(await page.locator('#workers-table tbody tr').count()).toBe(3);
    // a page size from a link, the form showing it, and the next page
    await page.goto(`${base}/console/batches/${BATCH}?wsize=2#workers`);
    expect(await page.locator('#workers-table tbody tr').count()).toBe(2);
    expect(await page.locator('#workers select[name="wsize"]').inputValue()).toBe('2');
    await load(() => page.locator('#workers nav.pages a[rel="next"]').first().click());
    expect(await page.locator('#workers-table tbody tr').count()).toBe(1);
    expect(await page.locator('#workers .range').textContent()).toBe('3–3 of 3');
    await load(() => page.locator('#workers-table thead a', { hasText: 'Checks' }).click());
    expect(await page.locator('#workers-table th[aria-sort="ascending"]').textContent()).toContain('Checks');
    const checks = (await page.locator('#workers-table td[data-label="Checks"]').allTextContents()).map((t) =>
      // "2/2 100%"; a worker without checks shows no rate and sorts first
      Number(/(\d+)%/.exec(t)?.[1] ?? -1),
    );
    expect(checks).toEqual([...checks].sort((a, b) => a - b));
    await context.close();
  });
});

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface RadioGeometry {
  word: string;
  radio: Box;
  text: Box;
}

/** Each decide form's radios and the boxes of their words (run in the page). */
const RADIO_GEOMETRY = `(() => {
  const box = (r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
  return [...document.querySelectorAll('form.decide-form')].map((form) =>
    [...form.querySelectorAll('input[type="radio"]')].map((radio) => {
      const label = radio.closest('label');
      const range = document.createRange();
      range.selectNodeContents(label);
      const words = [...label.childNodes].filter((n) => n !== radio);
      range.setStartBefore(words[0]);
      range.setEndAfter(words[words.length - 1]);
      return { word: range.toString().trim(), radio: box(radio.getBoundingClientRect()), text: box(range.getBoundingClientRect()) };
    }),
  );
})()`;

/** Words of table headers, short-valued cells and the Target card that the layout broke across lines (run in the page). */
const BROKEN_WORDS = `(() => {
  const broken = [];
  const cells = 'th, .summary .target dd, #items-table td[data-label="Label"], #items-table td[data-label="Source"], #workers-table td[data-label="Worker"]';
  for (const el of document.querySelectorAll(cells)) {
    const text = el.textContent;
    const words = el.matches('dd') ? text.split(/(?<=\\/\\/)|(?=[.:\\/])/) : text.split(/\\s+/);
    let offset = 0;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    for (const word of words) {
      const at = text.indexOf(word, offset);
      offset = at + word.length;
      if (word.trim().length < 2) continue;
      // find the text node holding the word (words never span nodes here)
      let start = at;
      for (const node of nodes) {
        if (start < node.length) {
          if (start + word.length > node.length) break;
          const range = document.createRange();
          range.setStart(node, start);
          range.setEnd(node, start + word.length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(word);
          break;
        }
        start -= node.length;
      }
    }
  }
  return broken;
})()`;

/** From a point (a radio's centre) to the nearest point of a box. */
function distance(radio: Box, text: Box): number {
  const x = (radio.left + radio.right) / 2;
  const y = (radio.top + radio.bottom) / 2;
  const dx = Math.max(text.left - x, 0, x - text.right);
  const dy = Math.max(text.top - y, 0, y - text.bottom);
  return Math.hypot(dx, dy);
}
