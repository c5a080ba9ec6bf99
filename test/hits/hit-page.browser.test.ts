import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { XMLParser } from 'fast-xml-parser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryWord } from '../../src/hits/canary.js';
import { planHits } from '../../src/hits/plan.js';
import { debateFor, makeCases, makeGold, PRICING } from './fixtures.js';
import { launchChromium } from '../support/chromium.js';

/**
 * The HIT page in a real browser (Chromium through playwright-core, found by test/support/chromium.ts), served from
 * the HTMLQuestion XML exactly as planned: preview mode, submit gating, timers, the posted
 * fields, and a hostile chunk that must stay text.
 */

/** What the page-side callbacks use of the browser's globals (the project compiles without the DOM lib). */
interface BrowserGlobals {
  __pwned?: number;
  innerWidth: number;
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): { gridTemplateColumns: string };
}
const HOSTILE = 'Danger <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> ]]> </textarea> "quotes" & more.';

const cases = makeCases(9);
cases[0] = {
  ...cases[0]!,
  query: `hostile query <script>window.__pwned = 3</script>`,
  chunk: HOSTILE,
  debate: debateFor(HOSTILE, { refs: [['<script>window.__pwned = 1</script>'], ['"quotes" & more']] }),
};
const plan = planHits({ cases, gold: makeGold(3, 3) }, { seed: 'browser', layout: {}, pricing: PRICING });
const hit = plan.hits[0]!;
const html = (
  new XMLParser({ parseTagValue: false, trimValues: false }).parse(plan.questions[0]!.xml) as { HTMLQuestion: { HTMLContent: string } }
).HTMLQuestion.HTMLContent;
const ITEMS = hit.items.length;

let server: Server;
let base: string;
let browser: Browser;
const submissions: URLSearchParams[] = [];
const served: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    served.push(`${req.method} ${req.url?.split('?')[0]}`);
    if (req.method === 'GET' && req.url?.startsWith('/hit')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (req.method === 'POST' && req.url === '/mturk/externalSubmit') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        submissions.push(new URLSearchParams(body));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p>submitted</p>');
      });
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

async function open(query: string, viewport = { width: 1000, height: 800 }): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${r.url().split('?')[0]}`));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => {
    errors.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(`${base}/hit?${query}`);
  return { page, requests, errors };
}

const work = (assignmentId: string) => `assignmentId=${assignmentId}&hitId=HIT1&workerId=W1&turkSubmitTo=${encodeURIComponent(base)}`;

describe('the HIT page in Chromium', () => {
  it('disables every input in preview mode and says so', async () => {
    const { page, errors } = await open(`assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE&hitId=HIT1&turkSubmitTo=${encodeURIComponent(base)}`);
    await expect(page.locator('#preview-notice').isVisible()).resolves.toBe(true);
    const states = await page
      .locator('form input, form textarea, form button')
      .evaluateAll((els) => els.map((e) => (e as unknown as { disabled: boolean }).disabled));
    expect(states.length).toBe(1 + ITEMS * 8 + 1);
    expect(states.every(Boolean)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses to work without a valid submission address', async () => {
    const { page } = await open('assignmentId=A1&turkSubmitTo=javascript:alert(1)');
    await expect(page.locator('#setup-error').isVisible()).resolves.toBe(true);
    await expect(page.locator('#submit-button').isDisabled()).resolves.toBe(true);
    await page.close();
  });

  it('keeps a hostile chunk as text: its script never runs', async () => {
    const { page, errors } = await open(work('A-HOSTILE'));
    expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).__pwned)).toBeUndefined();
    const first = page.locator(`[data-sim-key="${hit.items.find((i) => i.kind === 'real')!.key}"]`);
    await expect(first.locator('.chunk').textContent()).resolves.toBe(HOSTILE);
    await expect(first.locator('.query').textContent()).resolves.toContain('<script>window.__pwned = 3</script>');
    await expect(first.locator('.chunk mark').count()).resolves.toBe(2);
    await expect(page.locator('img').count()).resolves.toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('enables submit only when every item is answered, fills the timers and posts exactly the documented fields', async () => {
    const { page, requests, errors } = await open(work('ASSIGN-42'));
    const submit = page.locator('#submit-button');
    const started = Date.now();
    for (let i = 1; i <= ITEMS; i++) {
      await expect(submit.isDisabled()).resolves.toBe(true);
      const item = page.locator(`#item${i}`);
      await item.scrollIntoViewIfNeeded();
      await item.getByRole('radio', { name: i % 3 === 0 ? 'No' : 'Yes' }).check();
      if (i === 2) await item.getByRole('checkbox', { name: 'This one is difficult' }).check();
      if (i === 1) await item.getByLabel('Comment (optional)').fill('unsure & <b>bold</b>');
      await page.waitForTimeout(120);
    }
    await expect(submit.isEnabled()).resolves.toBe(true);
    await expect(page.locator('#progress').textContent()).resolves.toBe(`${ITEMS} of ${ITEMS} answered`);
    const elapsed = Date.now() - started;

    await Promise.all([page.waitForURL(`${base}/mturk/externalSubmit`), submit.click()]);
    const posted = submissions.at(-1)!;
    const expectedFields = [
      'assignmentId',
      ...Array.from({ length: ITEMS }, (_, k) => k + 1).flatMap((i) => [
        `item${i}_answer`,
        ...(i === 2 ? [`item${i}_difficult`] : []),
        `item${i}_comment`,
        `item${i}_ms`,
        `item${i}_copies`,
        `item${i}_pastes`,
        `item${i}_focus_losses`,
      ]),
    ];
    expect([...posted.keys()]).toEqual(expectedFields);
    expect(posted.get('assignmentId')).toBe('ASSIGN-42');
    expect(posted.get('item1_answer')).toBe('yes');
    expect(posted.get('item3_answer')).toBe('no');
    expect(posted.get('item2_difficult')).toBe('yes');
    expect(posted.get('item1_comment')).toBe('unsure & <b>bold</b>');
    const ms = Array.from({ length: ITEMS }, (_, k) => Number(posted.get(`item${k + 1}_ms`)));
    for (const value of ms) expect(value).toBeGreaterThan(0);
    // one item at a time: the timers never add up to more than the time spent
    expect(ms.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(elapsed + 1000);

    // nothing but the page and the submission went over the network
    expect(requests.filter((r) => !r.endsWith('/favicon.ico'))).toEqual([`GET ${base}/hit`, `POST ${base}/mturk/externalSubmit`]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('counts copies, pastes and focus losses on the item they concern, and a copy of an item carries its canary', async () => {
    const { page, errors } = await open(work('A-EVENTS'));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    // select item 3's whole section, as someone copying it into a chat would, and copy it
    const copied = await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { getElementById(id: string): unknown; createRange(): { selectNodeContents(n: unknown): void } };
        getSelection(): { removeAllRanges(): void; addRange(r: unknown): void; toString(): string };
      };
      const range = g.document.createRange();
      range.selectNodeContents(g.document.getElementById('item3'));
      const selection = g.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    });
    expect(copied).toContain(canaryWord(hit.items[2]!.key));
    await page.keyboard.press('Control+C');
    // paste into item 2's comment, then leave the page twice (a blur while away counts once)
    const comment = page.locator('#item2').getByLabel('Comment (optional)');
    await comment.click();
    await page.keyboard.press('Control+V');
    await comment.pressSequentially(' my own words');
    const leave = () =>
      page.evaluate(() => {
        const w = globalThis as unknown as { dispatchEvent(e: unknown): void; Event: new (t: string) => unknown };
        w.dispatchEvent(new w.Event('blur'));
        w.dispatchEvent(new w.Event('blur'));
        w.dispatchEvent(new w.Event('focus'));
      });
    await leave();
    await leave();
    // the visible page shows no canary: a 1-pixel box, clipped to nothing
    const box = await page.locator('#item3 .cue').boundingBox();
    expect(box!.width).toBeLessThanOrEqual(1);
    expect(box!.height).toBeLessThanOrEqual(1);
    await expect(
      page
        .locator('#item3 .cue')
        .evaluate((e) => (globalThis as unknown as { getComputedStyle(x: unknown): { clipPath: string } }).getComputedStyle(e).clipPath),
    ).resolves.toBe('inset(50%)');
    await expect(page.locator('#item3 .cue').getAttribute('aria-hidden')).resolves.toBe('true');
    for (let i = 1; i <= ITEMS; i++) await page.locator(`#item${i}`).getByRole('radio', { name: 'Yes' }).check();
    await Promise.all([page.waitForURL(`${base}/mturk/externalSubmit`), page.locator('#submit-button').click()]);
    const posted = submissions.at(-1)!;
    expect(posted.get('assignmentId')).toBe('A-EVENTS');
    expect(posted.get('item3_copies')).toBe('1');
    expect(posted.get('item2_pastes')).toBe('1');
    expect(posted.get('item2_focus_losses')).toBe('2');
    expect(posted.get('item2_comment')).toContain('my own words');
    for (let i = 1; i <= ITEMS; i++) {
      if (i !== 3) expect(posted.get(`item${i}_copies`)).toBe('0');
      if (i !== 2) expect(posted.get(`item${i}_pastes`)).toBe('0');
      if (i !== 2) expect(posted.get(`item${i}_focus_losses`)).toBe('0');
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it("submits with JavaScript disabled: the form names MTurk's address and the browser asks for every answer", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    const posted: URLSearchParams[] = [];
    // MTurk's address, answered here (a platform points it at the assignment's turkSubmitTo)
    await page.route('https://www.mturk.com/mturk/externalSubmit', async (route) => {
      posted.push(new URLSearchParams(route.request().postData() ?? ''));
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>submitted</p>' });
    });
    await page.goto(`${base}/hit?${work('ASSIGN-NOJS')}`);
    await expect(page.locator('#hit-form').getAttribute('action')).resolves.toBe('https://www.mturk.com/mturk/externalSubmit');
    // nothing is disabled or hidden behind the script
    await expect(page.locator('#submit-button').isEnabled()).resolves.toBe(true);
    for (let i = 1; i < ITEMS; i++) await page.locator(`#item${i}`).getByRole('radio', { name: 'Yes' }).check();
    await page.locator('#submit-button').click();
    await expect(page.locator('#hit-form').count()).resolves.toBe(1);
    expect(posted).toEqual([]);
    await page.locator(`#item${ITEMS}`).getByRole('radio', { name: 'No' }).check();
    await Promise.all([page.waitForURL('https://www.mturk.com/mturk/externalSubmit'), page.locator('#submit-button').click()]);
    expect(posted).toHaveLength(1);
    const fields = posted[0]!;
    for (let i = 1; i <= ITEMS; i++) expect(fields.get(`item${i}_answer`)).toBe(i === ITEMS ? 'no' : 'yes');
    expect(fields.get('item1_ms')).toBe('0');
    expect(fields.has('assignmentId')).toBe(true);
    await context.close();
  });

  it('has accessible labels for every control', async () => {
    const { page } = await open(work('A-LABELS'));
    await expect(page.getByRole('radio', { name: 'Yes' }).count()).resolves.toBe(ITEMS);
    await expect(page.getByRole('radio', { name: 'No' }).count()).resolves.toBe(ITEMS);
    await expect(page.getByRole('checkbox', { name: 'This one is difficult' }).count()).resolves.toBe(ITEMS);
    await expect(page.getByRole('textbox', { name: 'Comment (optional)' }).count()).resolves.toBe(ITEMS);
    await expect(
      page.getByRole('group', { name: 'Does the chunk contain enough evidence to support at least one answer?' }).count(),
    ).resolves.toBe(ITEMS);
    await page.close();
  });

  it('lays out side by side at 1000px and stacked without horizontal scrolling on a phone', async () => {
    const wide = await open(work('A-WIDE'));
    const columnsWide = await wide.page
      .locator('#item1 .evidence')
      .evaluate((e) => (globalThis as unknown as BrowserGlobals).getComputedStyle(e).gridTemplateColumns.split(' ').length);
    expect(columnsWide).toBe(2);
    await wide.page.close();
    const phone = await open(work('A-PHONE'), { width: 375, height: 740 });
    const columnsPhone = await phone.page
      .locator('#item1 .evidence')
      .evaluate((e) => (globalThis as unknown as BrowserGlobals).getComputedStyle(e).gridTemplateColumns.split(' ').length);
    expect(columnsPhone).toBe(1);
    const overflow = await phone.page.evaluate(() => {
      const w = globalThis as unknown as BrowserGlobals;
      return w.document.documentElement.scrollWidth - w.innerWidth;
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.page.close();
  });
});
