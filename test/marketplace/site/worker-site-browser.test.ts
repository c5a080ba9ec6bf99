import { CreateHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import { relevanceQuestion } from '../hit-pages.js';
import { hitParams, useMarketplace } from '../support.js';
import { launchChromium } from '../../support/chromium.js';

/**
 * The worker site in Chromium, on a phone and with scripts off (issue 33, items 3, 4 and 9):
 * qrelay's own HIT page submits with JavaScript disabled (its form names MTurk's address,
 * which the site points at the assignment, and the site fills its assignmentId); the
 * worker's "Your answers" shows what they entered, not the page's timers and counts; at
 * 390 px the HIT list is no wider than the screen and its Preview link is in view.
 */

const PASSWORD = 'a long enough password';
const h = useMarketplace();
let browser: Browser;

/** What the page-side callbacks use of the browser's globals (the project compiles without the DOM lib). */
interface BrowserGlobals {
  innerWidth: number;
  document: { documentElement: { scrollWidth: number } };
}

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function logIn(context: BrowserContext, name: string): Promise<Page> {
  await h.running.workers.createWorker({ displayName: name, password: PASSWORD });
  const page = await context.newPage();
  await page.goto(`${h.running.url}/worker/login`);
  await page.getByLabel('Name or worker id').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${h.running.url}/worker/hits`);
  return page;
}

const createHit = async (title: string, keys: string[]) =>
  (await h.client().send(new CreateHITCommand(hitParams({ Title: title, Question: relevanceQuestion(keys.map((key) => ({ key }))) })))).HIT!
    .HITId!;

describe('the worker site in Chromium', () => {
  it('submits a HIT page with JavaScript disabled, and shows the worker their answers without the telemetry', async () => {
    const hitId = await createHit('Judge two passages, no script', ['dddd000000000001', 'dddd000000000002']);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
    const page = await logIn(context, 'carol');

    await page.goto(`${h.running.url}/worker/hits/${hitId}`);
    // the preview, its script off, is not disabled: sent anyway, it records nothing and says to accept first
    const preview = page.frameLocator('#hit-frame');
    await preview.locator('[data-sim-key="dddd000000000001"] input[type=radio][value=yes]').check();
    await preview.locator('[data-sim-key="dddd000000000002"] input[type=radio][value=yes]').check();
    await preview.locator('#submit-button').click();
    await preview.getByRole('heading', { name: 'Preview only' }).waitFor();
    await page.getByRole('button', { name: 'Accept & work' }).click();
    await page.waitForURL(/\/worker\/assignments\/[A-Z0-9]+$/);
    const assignmentId = page.url().split('/').pop()!;
    const frame = page.frameLocator('#hit-frame');
    // the form as served: MTurk's address pointed at this assignment, its id filled in, no script needed
    await expect(frame.locator('#hit-form').getAttribute('action')).resolves.toMatch(/\/submit\/[^/]+\/mturk\/externalSubmit$/);
    await expect(frame.locator('#assignmentId').inputValue()).resolves.toBe(assignmentId);
    // every item's answer is required by the browser itself: a half-filled form is not sent
    await frame.locator('[data-sim-key="dddd000000000001"] input[type=radio][value=yes]').check();
    await frame.locator('#submit-button').click();
    await expect(frame.locator('#hit-form').count()).resolves.toBe(1);
    await frame.locator('[data-sim-key="dddd000000000001"] textarea').fill('stated in the first sentence');
    await frame.locator('[data-sim-key="dddd000000000002"] input[type=radio][value=no]').check();
    await frame.locator('#submit-button').click();
    await frame.getByRole('heading', { name: 'Submitted' }).waitFor();

    const { Assignments } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hitId }));
    expect(Assignments).toHaveLength(1);
    expect(Assignments![0]).toMatchObject({ AssignmentId: assignmentId, AssignmentStatus: 'Submitted' });
    const value = new Map(parseAnswersXml(Assignments![0]!.Answer!).map((a) => [a.questionIdentifier, a.freeText]));
    expect(value.get('item1_answer')).toBe('yes');
    expect(value.get('item1_comment')).toBe('stated in the first sentence');
    expect(value.get('item2_answer')).toBe('no');
    // the requester still gets the page's telemetry (with scripts off, nothing was measured)
    expect(value.get('item1_ms')).toBe('0');
    expect(value.get('item2_focus_losses')).toBe('0');

    await page.goto(`${h.running.url}/worker/assignments/${assignmentId}`);
    const shown = await page.locator('table.answers tbody td:first-child').allTextContents();
    expect(shown).toEqual(['item1_answer', 'item1_comment', 'item2_answer', 'item2_comment']);
    await expect(page.locator('table.answers').textContent()).resolves.not.toMatch(/_ms|_copies|_pastes|_focus_losses|assignmentId/);
    await context.close();
  });

  it('at 390 px shows the HIT list within the screen, its Preview link in view', async () => {
    await createHit('Judge one passage on a phone', ['eeee000000000001']);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await logIn(context, 'dave');
    const pageWidth = await page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(390);
    const lists = await page
      .locator('table.hits')
      .evaluateAll((els) => els.map((e) => (e as unknown as { getBoundingClientRect(): { right: number } }).getBoundingClientRect().right));
    expect(lists.length).toBeGreaterThan(0);
    for (const right of lists) expect(right).toBeLessThanOrEqual(390);
    const previews = page.getByRole('link', { name: 'Preview' });
    expect(await previews.count()).toBeGreaterThan(0);
    for (const preview of await previews.all()) {
      await expect(preview.isVisible()).resolves.toBe(true);
      const box = (await preview.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    // and it starts the work: the preview opens
    await previews.first().click();
    await page.waitForURL(/\/worker\/hits\/[A-Z0-9]+$/);
    await expect(page.getByRole('button', { name: 'Accept & work' }).isVisible()).resolves.toBe(true);
    await context.close();
  });
});
