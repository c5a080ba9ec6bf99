import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import Handlebars from 'handlebars';
import { deleteDraftBatch } from '../actions/batches.js';
import { payBonus } from '../actions/bonus.js';
import { lazyActionContext } from '../actions/context.js';
import { setManualLabel } from '../actions/manual-labels.js';
import { overrideReview } from '../actions/override.js';
import { blockWorker, messageWorkers, qualifyWorker, unblockWorker } from '../actions/worker-actions.js';
import type { AppContext } from '../api/context.js';
import { CrowdCallError } from '../crowd/call-error.js';
import { UserError } from '../errors.js';
import { paths } from '../paths.js';
import { loadBatchesPage, loadBatchPage, loadLive, loadWorkerPage, type BatchPageQuery } from './load.js';
import {
  checkCsrf,
  csrfToken,
  newSession,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookieValue,
  setCookieHeader,
  tokenMatches,
  verifySessionCookie,
  type Session,
} from './session.js';
import { LoginLimiter } from './login-limit.js';
import { ConsoleSessions } from './session-store.js';
import { urlSegment } from './url.js';
import { safeReturnPath, withMessage } from './view-model.js';

/**
 * The requester's console, served by the API at `/`: log in once with the API token
 * (a signed session cookie after), the batches, a batch's page (charts, agreement with
 * intervals, workers, items, decisions, audit log), a worker's page (answers next to the
 * final labels, actions). Every form posts to `/console/...` with a CSRF token and runs
 * the same operation as the CLI and the REST route (src/actions/), logged as `console`.
 * Pages are rendered on the server (handlebars escapes every value) and work without
 * script; `console.js` only keeps a running batch's numbers current (polling).
 */

const TEMPLATE_DIR = join(paths.templates, 'console');
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'";

interface Templates {
  layout: Handlebars.TemplateDelegate;
  pages: Record<string, Handlebars.TemplateDelegate>;
  css: string;
  js: string;
}

let cached: Templates | undefined;
function templates(): Templates {
  if (cached) return cached;
  const hbs = Handlebars.create();
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  // a value placed in a URL path (a form's action): handlebars escapes HTML, not URLs, and
  // a worker id such as `../batches/x/delete?` must stay one segment, not move the form
  hbs.registerHelper('urlpart', (value: unknown) => urlSegment(String(value ?? '')));
  const read = (name: string) => readFileSync(join(TEMPLATE_DIR, name), 'utf8');
  const pages: Record<string, Handlebars.TemplateDelegate> = {};
  for (const name of ['login', 'batches', 'batch', 'worker', 'error']) pages[name] = hbs.compile(read(`${name}.hbs`));
  cached = { layout: hbs.compile(read('layout.hbs')), pages, css: read('console.css'), js: read('console.js') };
  return cached;
}

type Locals = { session: Session | null; csrf: string };

function render(res: Response, status: number, page: string, title: string, data: Record<string, unknown>): void {
  const t = templates();
  const locals = res.locals as Locals;
  const req = res.req;
  const body = t.pages[page]!({ ...data, csrf: locals.csrf, here: req.originalUrl });
  res
    .status(status)
    .set('Content-Security-Policy', CSP)
    .set('X-Content-Type-Options', 'nosniff')
    .set('Referrer-Policy', 'same-origin')
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      t.layout({
        title,
        body,
        loggedIn: locals.session !== null,
        csrf: locals.csrf,
        notice: typeof req.query.notice === 'string' ? req.query.notice : '',
        error: typeof req.query.error === 'string' ? req.query.error : '',
        liveUrl: data.liveUrl ?? '',
      }),
    );
}

/** A failure a person can act on becomes a message on the page they came from; anything else propagates. */
function actionMessage(err: unknown): string | null {
  if (err instanceof UserError) return err.message;
  if (err instanceof CrowdCallError) return `the crowd platform failed: ${err.message}`;
  return null;
}

export function consoleRouter(ctx: AppContext): Router {
  const router = Router();
  const actions = lazyActionContext(ctx, 'console');
  const form = express.urlencoded({ extended: false, limit: '64kb' });

  router.get(
    '/console/assets/console.css',
    (_req, res) => void res.type('text/css').set('Cache-Control', 'no-cache').send(templates().css),
  );
  router.get(
    '/console/assets/console.js',
    (_req, res) => void res.type('text/javascript').set('Cache-Control', 'no-cache').send(templates().js),
  );

  const sessions = new ConsoleSessions(ctx.connection);
  const logins = new LoginLimiter();

  // who is logged in (a signed cookie whose session is still open on the server), and the CSRF token of their forms
  router.use(async (req, res, next) => {
    const now = Date.now();
    const signed = verifySessionCookie(ctx.apiToken, readCookie(req.get('cookie'), SESSION_COOKIE), now);
    const session = signed && (await sessions.isOpen(signed, now)) ? signed : null;
    (res.locals as Locals).session = session;
    (res.locals as Locals).csrf = session ? csrfToken(ctx.apiToken, session) : '';
    next();
  });

  const requireLogin = (req: Request, res: Response): boolean => {
    if ((res.locals as Locals).session) return true;
    render(res, req.path === '/' ? 200 : 401, 'login', 'Log in', { next: safeReturnPath(req.originalUrl) });
    return false;
  };

  router.get('/', async (req, res) => {
    if (!requireLogin(req, res)) return;
    render(res, 200, 'batches', 'Batches', { ...(await loadBatchesPage(actions())), liveUrl: '' });
  });
  router.get('/console', (_req, res) => res.redirect(303, '/'));
  router.get('/console/login', (req, res) => render(res, 200, 'login', 'Log in', { next: safeReturnPath(req.query.next) }));

  router.post('/console/login', form, async (req, res) => {
    const next = safeReturnPath(req.body?.next);
    // a login form posted from another site is refused (its Origin is not ours)
    const origin = req.get('origin');
    if (origin && origin !== `${req.protocol}://${req.get('host')}`)
      return render(res, 403, 'error', 'Refused', { message: 'log in from the console page itself' });
    // too many wrong tokens from this address: it waits (the right token too), other addresses do not
    const client = req.ip ?? 'unknown';
    const waitMs = logins.waitMs(client, Date.now());
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      res.set('Retry-After', String(seconds));
      return render(res, 429, 'error', 'Too many attempts', {
        message: `too many wrong tokens from this address: wait ${seconds} s, then log in with the API token (QRELAY_API_TOKEN or <data dir>/api-token)`,
      });
    }
    if (!tokenMatches(ctx.apiToken, req.body?.token)) {
      logins.failed(client, Date.now());
      return render(res, 401, 'login', 'Log in', { next, failed: true });
    }
    logins.succeeded(client);
    const session = newSession(Date.now());
    await sessions.begin(session);
    const value = sessionCookieValue(ctx.apiToken, session);
    res.set('Set-Cookie', setCookieHeader(value, { secure: req.secure, maxAgeSeconds: SESSION_TTL_MS / 1000 }));
    res.redirect(303, next);
  });

  router.post('/console/logout', form, async (req, res) => {
    const s = (res.locals as Locals).session;
    if (s && checkCsrf(ctx.apiToken, s, req.body?._csrf)) {
      // ended on the server: a copy of the cookie is refused from now on
      await sessions.end(s);
      res.set('Set-Cookie', setCookieHeader('', { secure: req.secure, maxAgeSeconds: 0 }));
    }
    res.redirect(303, '/');
  });

  router.get('/console/batches/:batch', async (req, res) => {
    if (!requireLogin(req, res)) return;
    try {
      const data = await loadBatchPage(actions(), req.params.batch as string, req.query as BatchPageQuery);
      render(res, 200, 'batch', `Batch ${data.batch}`, { ...data, liveUrl: data.live ? `${data.batchPath}/live` : '' });
    } catch (err) {
      const message = actionMessage(err);
      if (message === null) throw err;
      render(res, 404, 'error', 'Not found', { message });
    }
  });

  router.get('/console/batches/:batch/live', async (req, res) => {
    if (!(res.locals as Locals).session) return void res.status(401).json({ error: 'log in first' });
    res.set('Cache-Control', 'no-store').json(await loadLive(actions(), req.params.batch as string));
  });

  router.get('/console/batches/:batch/workers/:worker', async (req, res) => {
    if (!requireLogin(req, res)) return;
    try {
      const data = await loadWorkerPage(actions(), req.params.batch as string, req.params.worker as string);
      render(res, 200, 'worker', `Worker ${data.workerId}`, data);
    } catch (err) {
      const message = actionMessage(err);
      if (message === null) throw err;
      render(res, 404, 'error', 'Not found', { message });
    }
  });

  /** A form action: logged in, CSRF checked, the operation run, then back where the person was with what happened. */
  const post = (path: string, run: (req: Request) => Promise<string>) =>
    router.post(path, form, async (req, res) => {
      const s = (res.locals as Locals).session;
      if (!s) return render(res, 401, 'login', 'Log in', { next: '/' });
      if (!checkCsrf(ctx.apiToken, s, req.body?._csrf))
        return render(res, 403, 'error', 'Refused', {
          message: 'the form is stale or was not sent from the console (CSRF token missing or wrong): reload the page and try again',
        });
      const back = safeReturnPath(req.body?.return, '/');
      try {
        res.redirect(303, withMessage(back, 'notice', await run(req)));
      } catch (err) {
        const message = actionMessage(err);
        if (message === null) throw err;
        res.redirect(303, withMessage(back, 'error', message));
      }
    });
  const field = (req: Request, name: string): string => (typeof req.body?.[name] === 'string' ? (req.body[name] as string) : '');
  const batchField = (req: Request) => field(req, 'batch') || undefined;
  const worker = (req: Request) => req.params.worker as string;

  post('/console/workers/:worker/block', async (req) => {
    const r = await blockWorker(actions(), {
      workerId: worker(req),
      reason: field(req, 'reason'),
      ...(batchField(req) && { batch: batchField(req) }),
    });
    return `worker ${r.workerId} blocked${r.wasBlocked ? ' (was blocked already)' : ''}`;
  });
  post('/console/workers/:worker/unblock', async (req) => {
    const r = await unblockWorker(actions(), {
      workerId: worker(req),
      ...(field(req, 'reason') && { reason: field(req, 'reason') }),
      ...(batchField(req) && { batch: batchField(req) }),
    });
    return `worker ${r.workerId} unblocked${r.wasBlocked ? '' : ' (was not blocked)'}`;
  });
  post('/console/workers/:worker/bonus', async (req) => {
    const r = await payBonus(actions(), {
      workerId: worker(req),
      assignmentId: field(req, 'assignmentId'),
      amount: field(req, 'amount'),
      reason: field(req, 'reason'),
      ...(batchField(req) && { batch: batchField(req) }),
    });
    return r.alreadyPaid
      ? `this bonus was paid already: nothing sent`
      : `bonus of $${(r.amountCents / 100).toFixed(2)} paid to ${r.workerId}`;
  });
  post('/console/workers/:worker/message', async (req) => {
    const r = await messageWorkers(actions(), {
      workerIds: [worker(req)],
      subject: field(req, 'subject'),
      text: field(req, 'text'),
      ...(batchField(req) && { batch: batchField(req) }),
    });
    if (r.sent.length === 0) throw new UserError(`the message was not delivered: ${r.failed.map((f) => f.message).join('; ')}`);
    return `message sent to ${r.sent.join(', ')}`;
  });
  post('/console/workers/:worker/qualify', async (req) => {
    const revoke = field(req, 'revoke') === '1';
    const value = field(req, 'value');
    if (!revoke && !/^\d+$/.test(value)) throw new UserError('score: give a whole number (or choose revoke)');
    const r = await qualifyWorker(actions(), {
      workerId: worker(req),
      qualification: field(req, 'qualification'),
      ...(revoke ? { revoke: true } : { value: Number(value) }),
      ...(batchField(req) && { batch: batchField(req) }),
    });
    return r.revoked ? `${r.qualification} revoked from ${r.workerId}` : `${r.workerId}: ${r.qualification} = ${r.value}`;
  });
  post('/console/assignments/:assignment/override', async (req) => {
    const decision = field(req, 'decision');
    if (decision !== 'approve' && decision !== 'reject') throw new UserError('decision: choose approve or reject');
    const r = await overrideReview(actions(), { assignmentId: req.params.assignment as string, decision, reason: field(req, 'reason') });
    return `assignment ${r.assignmentId}: ${r.decision === 'approve' ? 'its votes count' : 'its votes are excluded'} (platform: ${r.platform}); labels recomputed`;
  });
  post('/console/batches/:batch/label', async (req) => {
    const label = field(req, 'label');
    if (label !== 'yes' && label !== 'no') throw new UserError('label: choose yes or no');
    const r = await setManualLabel(actions(), {
      batch: req.params.batch as string,
      queryId: field(req, 'queryId'),
      chunkId: field(req, 'chunkId'),
      label,
      note: field(req, 'note'),
    });
    return `query ${r.queryId} chunk ${r.chunkId} decided: ${r.label}`;
  });
  post('/console/batches/:batch/delete', async (req) => {
    const r = await deleteDraftBatch(actions(), req.params.batch as string);
    return `draft batch ${r.batch} deleted`;
  });

  router.use('/console', (req, res) => render(res, 404, 'error', 'Not found', { message: `no console page ${req.originalUrl}` }));
  return router;
}
