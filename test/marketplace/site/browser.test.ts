import { CreateHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import { relevanceQuestion } from '../hit-pages.js';
import { hitParams, useMarketplace } from '../support.js';
import { launchChromium } from '../../support/chromium.js';

/**
 * The worker site in a real browser (Chromium through playwright-core, found by test/support/chromium.ts), with
 * qrelay's own HIT page in the sandboxed frame: log in, preview (inputs disabled), accept,
 * answer inside the frame, submit, and find the answers through ListAssignmentsForHIT
 * (the real AWS SDK). Another worker cannot open the first one's assignment.
 */

const PASSWORD = 'a long enough password';
const h = useMarketplace();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

async function loggedIn(name: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(`${h.running.url}/worker/hits`);
  expect(page.url()).toBe(`${h.running.url}/worker/login?next=%2Fworker%2Fhits`);
  await page.getByLabel('Name or worker id').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${h.running.url}/worker/hits`);
  return { page, problems };
}

describe('the worker site in Chromium', () => {
  it('takes a worker from login through the HIT frame to an assignment the Requester API returns', async () => {
    const alice = await h.running.workers.createWorker({ displayName: 'alice', password: PASSWORD });
    await h.running.workers.createWorker({ displayName: 'bob', password: PASSWORD });
    const { HIT } = await h.client().send(
      new CreateHITCommand(
        hitParams({
          Title: 'Judge two passages',
          Question: relevanceQuestion([{ key: 'cccc000000000001' }, { key: 'cccc000000000002' }]),
        }),
      ),
    );
    const { page, problems } = await loggedIn('alice');

    await page.getByRole('link', { name: 'Preview' }).click();
    await page.waitForURL(`${h.running.url}/worker/hits/${HIT!.HITId}`);
    const preview = page.frameLocator('#hit-frame');
    await expect(preview.locator('#preview-notice').isVisible()).resolves.toBe(true);
    const disabled = await preview
      .locator('form input, form textarea, form button')
      .evaluateAll((els) => els.map((e) => (e as unknown as { disabled: boolean }).disabled));
    expect(disabled.length).toBeGreaterThan(8);
    expect(disabled.every(Boolean)).toBe(true);

    await page.getByRole('button', { name: 'Accept & work' }).click();
    await page.waitForURL(/\/worker\/assignments\/[A-Z0-9]+$/);
    const assignmentId = page.url().split('/').pop()!;
    const frame = page.frameLocator('#hit-frame');
    await expect(frame.locator('#preview-notice').isVisible()).resolves.toBe(false);
    await frame.locator('[data-sim-key="cccc000000000001"] input[type=radio][value=yes]').check();
    await frame.locator('[data-sim-key="cccc000000000001"] textarea').fill('clear & direct <evidence>');
    await frame.locator('[data-sim-key="cccc000000000002"] input[type=radio][value=no]').check();
    await frame.locator('[data-sim-key="cccc000000000002"] input[type=checkbox]').check();
    await frame.locator('#submit-button').click();
    // the frame's answer page tells the site page to move on
    await page.waitForURL(`${h.running.url}/worker/assignments/${assignmentId}?notice=submitted`);
    await expect(page.locator('.notice').textContent()).resolves.toBe('Your work was submitted. Thank you!');

    const { Assignments } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: HIT!.HITId }));
    expect(Assignments).toHaveLength(1);
    expect(Assignments![0]).toMatchObject({ AssignmentId: assignmentId, WorkerId: alice.workerId, AssignmentStatus: 'Submitted' });
    const answers = parseAnswersXml(Assignments![0]!.Answer!);
    expect(answers.map((a) => a.questionIdentifier)).toEqual([
      'item1_answer',
      'item1_comment',
      'item1_ms',
      'item1_copies',
      'item1_pastes',
      'item1_focus_losses',
      'item2_answer',
      'item2_difficult',
      'item2_comment',
      'item2_ms',
      'item2_copies',
      'item2_pastes',
      'item2_focus_losses',
    ]);
    const value = new Map(answers.map((a) => [a.questionIdentifier, a.freeText]));
    expect(value.get('item1_answer')).toBe('yes');
    expect(value.get('item1_comment')).toBe('clear & direct <evidence>');
    expect(value.get('item2_answer')).toBe('no');
    expect(value.get('item2_difficult')).toBe('yes');
    expect(value.get('item2_comment')).toBe('');
    expect(value.get('item1_ms')).toMatch(/^\d+$/);
    expect(Assignments![0]!.Answer).toContain('<FreeText>clear &amp; direct &lt;evidence&gt;</FreeText>');
    expect(problems).toEqual([]);

    // bob, logged in elsewhere, gets nothing of alice's assignment
    const bob = await loggedIn('bob');
    const response = await bob.page.goto(`${h.running.url}/worker/assignments/${assignmentId}`);
    expect(response!.status()).toBe(404);
    await expect(bob.page.locator('h1').textContent()).resolves.toBe('No such assignment');
    await expect(bob.page.locator('#hit-frame').count()).resolves.toBe(0);
    await bob.page.goto(`${h.running.url}/worker/assignments`);
    await expect(bob.page.content()).resolves.not.toContain(assignmentId);
    await page.context().close();
    await bob.page.context().close();
  });
});
