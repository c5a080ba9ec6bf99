import { ListWorkerBlocksCommand } from '@aws-sdk/client-mturk';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionModels } from '../../src/actions/models.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { urlSegment } from '../../src/console/url.js';
import { createLogger } from '../../src/log.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, importSampleBatch, tempDir, testContext, work } from '../pipeline/support.js';

/**
 * The console's forms with hostile ids (real HTTP, the real dev database and marketplace).
 * Assignments whose worker and assignment ids are paths (`../batches/victim/delete?`)
 * are put in the database as a platform nobody checked could have answered them; every
 * form on the batch's and the worker's pages is resolved as a browser resolves it and
 * sent: each reaches the action it names for the id it names (refused there, as no such
 * id is an MTurk id), and the draft batch `victim` survives. Then the session: a
 * logged-out cookie is refused, and login attempts are limited per address.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-hostile-');
const TOKEN = 'hostile-ids-test-token';
const BATCH = 'hos-a';
const VICTIM = 'victim';
const HOSTILE_WORKERS = ['../batches/victim/delete?', '../../console/batches/victim/delete#', '..', 'A1/../../batches/victim/delete'];
const HOSTILE_ASSIGNMENTS = ['../../batches/victim/delete?x=', '..', '%2e%2e/batches/victim/delete'];
let app: ReturnType<typeof createApp>;
let honestWorker: string;
let hostileAssignmentIds: string[] = [];
const copiesIds = () => hostileAssignmentIds;

beforeAll(async () => {
  const ctx = testContext(h.db);
  await importSampleBatch(ctx, dir, BATCH, 4);
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url, budgetUsd: 10 }, 'local');
  honestWorker = (await newWorker(h)).workerId;
  await work(h.running, ctx, `${BATCH}|0`, honestWorker, honest);
  await collectBatch(ctx, BATCH);
  await importSampleBatch(ctx, dir, VICTIM, 2, 10);
  // what an unchecked platform could have handed over: the honest assignment under hostile ids
  const real = await ctx.models.assignments.collection.findOne({ batch: BATCH });
  const copies = HOSTILE_WORKERS.map((workerId, i) => ({
    ...real,
    _id: HOSTILE_ASSIGNMENTS[i % HOSTILE_ASSIGNMENTS.length]! + (i >= HOSTILE_ASSIGNMENTS.length ? `#${i}` : ''),
    workerId,
  }));
  await ctx.models.assignments.collection.insertMany(copies as never[]);
  hostileAssignmentIds = copies.map((c) => c._id);
  // room on the HIT for them, so that the batch's numbers stay consistent
  await ctx.models.hits.updateOne({ _id: real!.hit as string }, { $inc: { maxAssignments: copies.length } });
  const config = loadConfig({ ...process.env, MTURK_TARGET: h.running.url });
  app = createApp({ config, logger: createLogger('silent'), connection: h.db.connection, apiToken: TOKEN });
});

async function login(from?: string): Promise<string> {
  const req = request(app).post('/console/login').type('form');
  if (from) req.set('X-Forwarded-For', from);
  const res = await req.send({ token: TOKEN, next: '/' });
  expect(res.status).toBe(303);
  return res.headers['set-cookie']![0]!.split(';')[0]!;
}

const unescapeHtml = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#x27|#x3D|#x60);/g,
    (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#x3D': '=', '#x60': '`' })[e]!,
  );

interface Form {
  action: URL;
  fields: Record<string, string>;
}

/** Every POST form of a page, its action resolved against the page's address as a browser does. */
function postForms(html: string, pageUrl: string): Form[] {
  const out: Form[] = [];
  for (const m of html.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const fields: Record<string, string> = {};
    for (const i of m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[i[1]!] = unescapeHtml(i[2]!);
    out.push({ action: new URL(unescapeHtml(m[1]!), pageUrl), fields });
  }
  return out;
}

/** The values a person would fill in, per action. */
const filled: Record<string, Record<string, string>> = {
  block: { reason: 'hostile id test' },
  unblock: { reason: 'hostile id test' },
  bonus: { assignmentId: 'A1', amount: '0.05', reason: 'hostile id test' },
  message: { subject: 'hi', text: 'hostile id test' },
  qualify: { qualification: 'dream-exam', value: '1' },
  override: { decision: 'reject', reason: 'hostile id test' },
};

const WORKER_ACTION = /^\/console\/workers\/([^/]+)\/(block|unblock|bonus|message|qualify)$/;
const ASSIGNMENT_ACTION = /^\/console\/assignments\/([^/]+)\/override$/;

describe('console forms with hostile worker and assignment ids', () => {
  it('every form reaches the action it names, for the id it names, and nothing else happens', async () => {
    const cookie = await login();
    // a worker page for each (no address can name the worker `..`: its forms are on the batch's page)
    const pages = [
      `/console/batches/${BATCH}`,
      ...HOSTILE_WORKERS.filter((w) => w !== '..').map((w) => `/console/batches/${BATCH}/workers/${encodeURIComponent(w)}`),
    ];
    const audit = actionModels(h.db.connection).audit;
    const auditBefore = await audit.countDocuments({});
    let sent = 0;
    for (const page of pages) {
      const res = await request(app).get(page).set('Cookie', cookie);
      expect(res.status, `${page}: ${/<p class="error"[^>]*>([^<]*)/.exec(res.text)?.[1]}`).toBe(200);
      for (const form of postForms(res.text, `http://127.0.0.1${page}`)) {
        const path = form.action.pathname;
        if (path === '/console/logout' || path === `/console/batches/${BATCH}/label`) continue;
        const w = WORKER_ACTION.exec(path);
        const a = ASSIGNMENT_ACTION.exec(path);
        expect(w ?? a, `${page}: a form posts to ${form.action.href}`).not.toBeNull();
        expect(form.action.search, form.action.href).toBe('');
        const id = decodeURIComponent((w ?? a)![1]!).trim();
        if (w) expect([honestWorker, ...HOSTILE_WORKERS], path).toContain(id);
        else expect(HOSTILE_ASSIGNMENTS.some((h) => id.startsWith(h)) || /^[A-Z0-9]+$/.test(id), path).toBe(true);
        // the honest worker's forms are sent on their own test below
        if (id === honestWorker) continue;
        const post = await request(app)
          .post(path)
          .set('Cookie', cookie)
          .type('form')
          .send({ ...form.fields, ...filled[w ? w[2]! : 'override'] });
        sent++;
        expect(post.status, path).toBe(303);
        const back = new URL(post.headers.location!, 'http://127.0.0.1');
        if (w) {
          // refused with a message naming what is wrong (no MTurk worker id has this shape)
          expect(back.searchParams.get('error') ?? `no error: ${post.headers.location}`, path).toContain('is not a worker id');
        } else {
          // the override the form names, on the assignment it names (the one stored under that id)
          expect(back.searchParams.get('notice') ?? `no notice: ${post.headers.location}`, path).toMatch(
            new RegExp(`^assignment ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: its votes are excluded`),
          );
        }
      }
    }
    expect(sent).toBeGreaterThanOrEqual((HOSTILE_WORKERS.length - 1) * 5 + 1);
    // the draft batch is still there, and no action was recorded
    expect((await request(app).get(`/api/v1/batches/${VICTIM}`)).status).toBe(200);
    expect(await testContext(h.db).models.batches.findById(VICTIM).lean()).not.toBeNull();
    expect(await audit.countDocuments({ action: 'delete' })).toBe(0);
    const added = await audit
      .find({})
      .sort({ at: -1 })
      .limit((await audit.countDocuments({})) - auditBefore)
      .lean();
    expect(
      added.every((e) => e.action === 'override' && copiesIds().includes(e.subject)),
      JSON.stringify(added),
    ).toBe(true);
  });

  it('a hostile id typed into the address is one segment too: refused, the draft batch kept', async () => {
    const cookie = await login();
    const page = await request(app).get(`/console/batches/${BATCH}`).set('Cookie', cookie);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    for (const w of HOSTILE_WORKERS) {
      const res = await request(app)
        .post(`/console/workers/${urlSegment(w)}/block`)
        .set('Cookie', cookie)
        .type('form')
        .send({ _csrf: csrf, reason: 'x', return: `/console/batches/${BATCH}` });
      expect(res.status).toBe(303);
      expect(new URL(res.headers.location!, 'http://x').searchParams.get('error')).toContain('is not a worker id');
    }
    expect(await testContext(h.db).models.batches.findById(VICTIM).lean()).not.toBeNull();
  });

  it("the honest worker's Block form still blocks that worker, and only that worker", async () => {
    const cookie = await login();
    const page = await request(app).get(`/console/batches/${BATCH}`).set('Cookie', cookie);
    const block = postForms(page.text, `http://127.0.0.1/console/batches/${BATCH}`).find(
      (f) => f.action.pathname === `/console/workers/${honestWorker}/block`,
    )!;
    expect(block).toBeDefined();
    const res = await request(app)
      .post(block.action.pathname)
      .set('Cookie', cookie)
      .type('form')
      .send({ ...block.fields, reason: 'checked by the test' });
    expect(new URL(res.headers.location!, 'http://x').searchParams.get('notice')).toBe(`worker ${honestWorker} blocked`);
    const blocks = (await h.client().send(new ListWorkerBlocksCommand({}))).WorkerBlocks ?? [];
    expect(blocks.map((b) => b.WorkerId)).toEqual([honestWorker]);
  });
});

describe('console sessions', () => {
  it('a logged-out cookie is refused: pages, actions and its CSRF token alike', async () => {
    const cookie = await login();
    const page = await request(app).get(`/console/batches/${BATCH}`).set('Cookie', cookie);
    expect(page.status).toBe(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const out = await request(app).post('/console/logout').set('Cookie', cookie).type('form').send({ _csrf: csrf });
    expect(out.status).toBe(303);
    expect(out.headers['set-cookie']![0]).toMatch(/Max-Age=0/);
    // the same cookie, copied before logging out
    const again = await request(app).get(`/console/batches/${BATCH}`).set('Cookie', cookie);
    expect(again.status).toBe(401);
    expect(again.text).toContain('name="token"');
    expect((await request(app).get(`/console/batches/${BATCH}/live`).set('Cookie', cookie)).status).toBe(401);
    const act = await request(app)
      .post(`/console/batches/${VICTIM}/delete`)
      .set('Cookie', cookie)
      .type('form')
      .send({ _csrf: csrf, return: '/' });
    expect(act.status).toBe(401);
    expect(await testContext(h.db).models.batches.findById(VICTIM).lean()).not.toBeNull();
    // another session of the owner is not affected
    expect(
      (
        await request(app)
          .get('/')
          .set('Cookie', await login())
      ).text,
    ).toContain('Batches');
  });

  it('limits wrong tokens per address: 100 guesses at once, then the right token waits too; the owner elsewhere logs in', async () => {
    const stranger = '203.0.113.66';
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        request(app)
          .post('/console/login')
          .set('X-Forwarded-For', stranger)
          .type('form')
          .send({ token: `guess-${i}`, next: '/' }),
      ),
    );
    const statuses = guesses.map((g) => g.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(94);
    const right = await request(app).post('/console/login').set('X-Forwarded-For', stranger).type('form').send({ token: TOKEN });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(right.headers['set-cookie']).toBeUndefined();
    expect(right.text).toContain('too many wrong tokens from this address');
    // the owner, at another address, is not locked out by the stranger
    await login('198.51.100.7');
    await login();
  });
});
