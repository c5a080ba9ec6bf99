import { CreateHITCommand, ListAssignmentsForHITCommand } from '@aws-sdk/client-mturk';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../../support/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAnswersXml } from '@qrelay/marketplace';
import { classicMturkPage, crowdFormPage, htmlQuestionOf } from '../mturk-page-fixtures.js';
import { hitParams, useMarketplace } from '../support.js';

/**
 * HIT pages written for MTurk (its externalHIT_v1.js, its <crowd-form>) in a real browser
 * on the worker site: the frame loads the marketplace's copies of MTurk's scripts, a
 * preview cannot submit, and the worker's answers arrive through ListAssignmentsForHIT.
 */

const PASSWORD = 'a long enough password';
const h = useMarketplace();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

let n = 0;
async function workerOnHit(page: string): Promise<{ page: Page; problems: string[]; hitId: string; workerId: string }> {
  n++;
  const worker = await h.running.workers.createWorker({ displayName: `browser-mturk-${n}`, password: PASSWORD });
  const { HIT } = await h
    .client()
    .send(new CreateHITCommand(hitParams({ Title: `An MTurk page ${n}`, Question: htmlQuestionOf(page), MaxAssignments: 1 })));
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const tab = await context.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  tab.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await tab.goto(`${h.running.url}/worker/login`);
  await tab.getByLabel('Name or worker id').fill(worker.displayName);
  await tab.getByLabel('Password').fill(PASSWORD);
  await tab.getByRole('button', { name: 'Log in' }).click();
  await tab.waitForURL(`${h.running.url}/worker/hits`);
  await tab.goto(`${h.running.url}/worker/hits/${HIT!.HITId}`);
  return { page: tab, problems, hitId: HIT!.HITId!, workerId: worker.workerId };
}

async function submittedAnswer(hitId: string, workerId: string): Promise<Map<string, string>> {
  const { Assignments } = await h.client().send(new ListAssignmentsForHITCommand({ HITId: hitId }));
  expect(Assignments).toHaveLength(1);
  expect(Assignments![0]).toMatchObject({ WorkerId: workerId, AssignmentStatus: 'Submitted' });
  return new Map(parseAnswersXml(Assignments![0]!.Answer!).map((a) => [a.questionIdentifier, a.freeText ?? '']));
}

describe('HIT pages written for MTurk, in Chromium', () => {
  it('externalHIT_v1.js: turkGetParam and turkSetAssignmentID work, the preview cannot submit, the form submits', async () => {
    const { page, problems, hitId, workerId } = await workerOnHit(classicMturkPage());
    const preview = page.frameLocator('#hit-frame');
    await expect(preview.locator('#submitButton').isDisabled()).resolves.toBe(true);
    await expect(preview.locator('#submitButton').inputValue()).resolves.toBe('You must ACCEPT the HIT before you can submit the results.');
    await page.getByRole('button', { name: 'Accept & work' }).click();
    await page.waitForURL(/\/worker\/assignments\/[A-Z0-9]+$/);
    const assignmentId = page.url().split('/').pop()!;
    const frame = page.frameLocator('#hit-frame');
    await expect(frame.locator('#worker-id').textContent()).resolves.toBe(workerId);
    await expect(frame.locator('#assignmentId').inputValue()).resolves.toBe(assignmentId);
    await frame.getByLabel('no').check();
    await frame.getByLabel('Comment').fill('read it twice & <sure>');
    await frame.locator('#submitButton').click();
    await page.waitForURL(`${h.running.url}/worker/assignments/${assignmentId}?notice=submitted`);
    expect(Object.fromEntries(await submittedAnswer(hitId, workerId))).toEqual({ relevance: 'no', comment: 'read it twice & <sure>' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('crowd-html-elements.js: <crowd-form> renders its inputs, honours onsubmit, and posts taskAnswers', async () => {
    const { page, problems, hitId, workerId } = await workerOnHit(crowdFormPage());
    const preview = page.frameLocator('#hit-frame');
    await expect(preview.getByRole('button', { name: 'Submit' }).isDisabled()).resolves.toBe(true);
    await expect(preview.locator('.crowd-preview-notice').isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Accept & work' }).click();
    await page.waitForURL(/\/worker\/assignments\/[A-Z0-9]+$/);
    const assignmentId = page.url().split('/').pop()!;
    const frame = page.frameLocator('#hit-frame');
    // the page's own onsubmit refuses until a choice is made
    await frame.getByRole('button', { name: 'Submit' }).click();
    await expect(frame.locator('body').getAttribute('data-refused')).resolves.toBe('yes');
    await frame.getByLabel('Relevant', { exact: true }).check();
    await frame.getByLabel('Difficult').check();
    await frame.getByLabel('Comment').fill('clear "match"');
    await frame.getByLabel('Confidence (1-5)').fill('4');
    await frame.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${h.running.url}/worker/assignments/${assignmentId}?notice=submitted`);
    const answer = await submittedAnswer(hitId, workerId);
    expect([...answer.keys()]).toEqual(['taskAnswers']);
    expect(JSON.parse(answer.get('taskAnswers')!)).toEqual([
      { relevant: { yes: true }, notRelevant: { no: false }, difficult: { yes: true }, comment: 'clear "match"', confidence: 4 },
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
