/**
 * One bot at work on the worker site, as a person's browser: log in, take the
 * qualification test a HIT asks for, find HITs, accept one, open its frame, read the form,
 * take the time the items take (human time divided by the marketplace's clock speed, so
 * that the marketplace's accept and submit times are a person's), post the form, pause,
 * and again, until told to stop. What it submitted is kept for the bench's figures.
 */
import { attr, elements } from '@qrelay/marketplace';
import { parse } from 'parse5';
import type { Judgment } from './behaviour.js';
import type { BotSpec } from './crowd.js';
import { formFields, readHitForm, type ItemWork } from './hit-form.js';
import { frameSource, pageText, SiteClient, siteForms, type Page } from './site-client.js';

export interface Submission {
  assignmentId: string;
  hitId: string;
  /** Marketplace-clock-free: real time of the post. */
  at: number;
  items: { key: string; answer: Judgment; ms: number; copies: number; pastes: number; focusLosses: number }[];
}

export interface BotRecord {
  name: string;
  workerId?: string;
  kind: string;
  params: Record<string, number | string | boolean>;
  exam: 'not-asked' | 'passed' | 'failed';
  /** The test's score as the result page shows it; null when it showed none (scored later by the requester). */
  examScore?: number | null;
  submissions: Submission[];
  /** Accepts that another worker beat it to, and other refusals it got over. */
  refused: number;
  errors: string[];
}

export interface BotRun {
  base: string;
  /** Marketplace time per real time. */
  clockSpeed: number;
  /** The qualification tests' answer keys: question id -> the right selection. */
  examKey: ReadonlyMap<string, string>;
  /** The score the HITs ask for. */
  passScore: number;
  stopped: () => boolean;
  /** Told of each submission (the bench ends a batch in which nobody can submit any more). */
  submitted?: () => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sleeps `ms` of real time in slices, returning early once the run stops. */
async function wait(run: BotRun, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!run.stopped() && Date.now() < end) await sleep(Math.min(500, end - Date.now()));
}

function expect(page: Page, status: number, what: string): void {
  if (page.status !== status)
    throw new Error(`${what}: ${page.url} answered ${page.status}, not ${status}: ${pageText(page.html).slice(0, 200)}`);
}

async function login(site: SiteClient, bot: BotSpec): Promise<void> {
  const page = await site.get('/worker/login');
  const form = siteForms(page.html).find((f) => f.action === '/worker/login');
  if (!form) throw new Error(`login: ${page.url} shows no login form`);
  const posted = await site.post('/worker/login', [
    ...form.fields.filter(([n]) => n !== 'name' && n !== 'password'),
    ['name', bot.name],
    ['password', bot.password],
  ]);
  expect(posted, 303, 'login');
}

/** Requests every qualification the site offers to request, and answers its test as the bot would. */
async function takeTests(site: SiteClient, bot: BotSpec, run: BotRun, record: BotRecord): Promise<void> {
  const page = await site.get('/worker/qualifications');
  expect(page, 200, 'qualifications');
  for (const request of siteForms(page.html).filter((f) => /^\/worker\/qualifications\/[^/]+\/request$/.test(f.action))) {
    const answer = await site.post(request.action, request.fields);
    if (answer.status === 303) continue; // granted at once, or sent to the requester
    expect(answer, 200, 'qualification request');
    const testForm = siteForms(answer.html).find((f) => /\/test$/.test(f.action));
    if (!testForm) continue;
    const doc = parse(answer.html);
    const form = [...elements(doc)].find((e) => e.tagName === 'form' && attr(e, 'action') === testForm.action)!;
    const options = new Map<string, string[]>();
    for (const e of elements(form)) {
      const name = attr(e, 'name');
      if (e.tagName !== 'input' || attr(e, 'type') !== 'radio' || name === undefined) continue;
      options.set(name, [...(options.get(name) ?? []), attr(e, 'value') ?? 'on']);
    }
    const fields: [string, string][] = [...testForm.fields];
    for (const [name, values] of options) {
      const right = run.examKey.get(name.replace(/^q\./, ''));
      const wrong = values.filter((v) => v !== right);
      const knows = right !== undefined && values.includes(right) && bot.rng.chance(bot.behaviour.examAccuracy);
      fields.push([name, knows ? right : bot.rng.pick(wrong.length ? wrong : values)]);
    }
    // a person reads the test: a few minutes of human time
    await wait(run, (1000 * bot.rng.between(240, 600)) / run.clockSpeed);
    const result = await site.post(testForm.action, fields);
    expect(result, 200, 'qualification test');
    const score = /Your score: (\d+)/.exec(pageText(result.html));
    record.examScore = score ? Number(score[1]) : null;
    record.exam = record.examScore !== null && record.examScore >= run.passScore ? 'passed' : 'failed';
  }
}

/** One HIT: accept, open, work, submit. False when the HIT was gone or refused. */
async function workOne(
  site: SiteClient,
  bot: BotSpec,
  run: BotRun,
  record: BotRecord,
  accept: { action: string; fields: [string, string][] },
) {
  const accepted = await site.post(accept.action, accept.fields);
  if (accepted.status !== 303 || !accepted.location?.startsWith('/worker/assignments/')) {
    record.refused++;
    return false;
  }
  const assignmentId = accepted.location.slice('/worker/assignments/'.length).split('?')[0]!;
  const work = await site.get(accepted.location);
  expect(work, 200, 'assignment page');
  const src = frameSource(work.html);
  if (!src) throw new Error(`assignment ${assignmentId}: its page shows no HIT frame`);
  const frame = await site.get(src);
  expect(frame, 200, 'HIT frame');
  const form = readHitForm(frame.html, `the frame of assignment ${assignmentId}`);
  const nth = record.submissions.length;
  const done = new Map<string, ItemWork>(form.items.map((item) => [item.key, bot.behaviour.work(item, nth)]));
  const humanMs = [...done.values()].reduce((s, w) => s + w.ms, 0) + 1000 * bot.rng.between(10, 40);
  await wait(run, humanMs / run.clockSpeed);
  if (run.stopped()) return false;
  const action = new URL(form.action, src).toString();
  const fields = formFields(form, done);
  const sent =
    form.method === 'post' ? await site.post(action, fields) : await site.get(`${action}?${new URLSearchParams(fields).toString()}`);
  if (sent.status !== 200) {
    record.errors.push(`submit ${assignmentId}: ${sent.status} ${pageText(sent.html).slice(0, 160)}`);
    return false;
  }
  run.submitted?.();
  record.submissions.push({
    assignmentId,
    hitId: new URL(src).searchParams.get('hitId') ?? '',
    at: Date.now(),
    items: [...done].map(([key, w]) => ({
      key,
      answer: w.answer,
      ms: Math.round(w.ms),
      copies: w.events.copy,
      pastes: w.events.paste,
      focusLosses: w.events['focus-loss'],
    })),
  });
  return true;
}

const ACCEPT = /^\/worker\/hits\/[A-Z0-9]+\/accept$/;

export async function runBot(bot: BotSpec, run: BotRun): Promise<BotRecord> {
  const record: BotRecord = {
    name: bot.name,
    kind: bot.behaviour.kind,
    params: bot.params,
    exam: 'not-asked',
    submissions: [],
    refused: 0,
    errors: [],
  };
  const site = new SiteClient(run.base);
  await wait(run, 1000 * bot.arrivalSeconds);
  let testsTaken = false;
  let failures = 0;
  while (!run.stopped()) {
    try {
      const list = await site.get('/worker/hits');
      if (list.status === 303) {
        await login(site, bot);
        continue;
      }
      expect(list, 200, 'HIT list');
      const accepts = siteForms(list.html).filter((f) => ACCEPT.test(f.action));
      if (accepts.length === 0) {
        if (!testsTaken && /Request the qualification/.test(pageText(list.html))) {
          testsTaken = true;
          await takeTests(site, bot, run, record);
          if (record.exam === 'failed') return record; // no retake within a run
          continue;
        }
        await wait(run, 3000);
        continue;
      }
      // people take one of the first few HITs listed
      const pick = bot.rng.pick(accepts.slice(0, 5));
      if (await workOne(site, bot, run, record, pick)) await wait(run, (1000 * bot.behaviour.pauseSeconds()) / run.clockSpeed);
      failures = 0;
    } catch (err) {
      failures++;
      record.errors.push((err as Error).message.slice(0, 300));
      await wait(run, Math.min(30_000, 1000 * 2 ** failures));
    }
  }
  return record;
}
