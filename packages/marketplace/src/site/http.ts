import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Marketplace } from '../core.js';
import type { FormFields } from '../domain/answers-xml.js';
import { isDomainError } from '../domain/errors.js';
import type { WorkerAccount, WorkerApi } from '../workers.js';
import { SiteKeys } from './keys.js';
import {
  csrfToken,
  decodeSession,
  encodeSession,
  newSession,
  parseCookies,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type Session,
} from './session.js';
import { sitePageCsp } from './csp.js';
import { LoginLimiter } from './login-limits.js';
import { RevokedSessions } from './revoked-sessions.js';
import type { PageName, SiteViews } from './views.js';

/** The plumbing the worker site's routes share: context, sessions, CSRF, forms, pages, errors. */

/** What the site reads of the running marketplace (startMarketplace's result, filled in once it listens). */
export interface SiteHost {
  readonly marketplace: Marketplace;
  readonly workers: WorkerApi;
}

export class SiteContext {
  private siteKeys: SiteKeys | undefined;
  private revokedSessions: RevokedSessions | undefined;
  /** Failed logins per account and per address (in memory: the marketplace is one process). */
  readonly logins = new LoginLimiter();

  constructor(
    /** Filled in by startMarketplace once it listens; read only while serving. */
    private readonly running: SiteHost,
    readonly views: SiteViews,
  ) {}

  get mp(): Marketplace {
    return this.running.marketplace;
  }

  get workers(): WorkerApi {
    return this.running.workers;
  }

  get keys(): SiteKeys {
    this.siteKeys ??= new SiteKeys(this.mp.settings.accessKeyId, this.mp.settings.secretAccessKey);
    return this.siteKeys;
  }

  get revoked(): RevokedSessions {
    this.revokedSessions ??= new RevokedSessions(this.mp);
    return this.revokedSessions;
  }
}

export interface SiteLocals {
  session: Session;
  csrf: string;
  worker?: WorkerAccount;
}

export const locals = (res: Response): SiteLocals => res.locals as SiteLocals;

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The origin the browser used to reach the site (it goes into CSPs and frame addresses, so it is checked). */
export function originOf(req: Request): string {
  const host = req.get('host') ?? '';
  if (!HOST.test(host)) throw new BadRequest(`the Host header "${host.slice(0, 80)}" is not a host name`);
  return `${req.protocol}://${host}`;
}

export class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Form posts: urlencoded, fields in their order, a repeated field as a list. */
export const formBody: RequestHandler = express.text({ type: 'application/x-www-form-urlencoded', limit: '1mb' });

/** formBody for routes that also take GET (no body to read then). */
export const formBodyIfAny: RequestHandler = (req, res, next) => (req.method === 'POST' ? formBody(req, res, next) : next());

function fieldsOf(encoded: string): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of new URLSearchParams(encoded)) {
    const seen = fields[name];
    if (seen === undefined) fields[name] = value;
    else fields[name] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

export function readForm(req: Request): FormFields {
  if (typeof req.body !== 'string') {
    throw new BadRequest('send the form as application/x-www-form-urlencoded (a plain HTML form post; file uploads are not taken)', 415);
  }
  return fieldsOf(req.body);
}

/** A form sent by GET: its fields in the query string, in their order. */
export function queryFields(req: Request): FormFields {
  const q = req.originalUrl.indexOf('?');
  return fieldsOf(q < 0 ? '' : req.originalUrl.slice(q + 1));
}

export const single = (fields: FormFields, name: string): string | undefined => {
  const v = fields[name];
  return Array.isArray(v) ? v[0] : v;
};

function setSessionCookie(req: Request, res: Response, keys: SiteKeys, s: Session): void {
  res.cookie(SESSION_COOKIE, encodeSession(keys, s), {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: '/',
    maxAge: SESSION_TTL_MS,
    encode: (v) => v,
  });
}

/** Reads the session cookie (a session ended on the server counts as none), or starts an anonymous session; renews it when half used. */
export function sessions(site: SiteContext): RequestHandler {
  return async (req, res, next) => {
    await site.revoked.ready();
    const now = Date.now();
    let s = decodeSession(site.keys, parseCookies(req.get('cookie')).get(SESSION_COOKIE), now);
    if (s && site.revoked.has(s.sid)) s = undefined;
    if (!s || s.expiresMs - now < SESSION_TTL_MS / 2) {
      s = s ? { ...s, expiresMs: now + SESSION_TTL_MS } : newSession(now);
      setSessionCookie(req, res, site.keys, s);
    }
    res.locals.session = s;
    res.locals.csrf = csrfToken(site.keys, s);
    next();
  };
}

/** Ends the request's session on the server (a copied cookie stops working) and starts a new one. */
export async function startSession(req: Request, res: Response, site: SiteContext, workerId?: string): Promise<void> {
  const old = locals(res).session;
  if (old?.workerId !== undefined) await site.revoked.revoke(old.sid, old.expiresMs);
  const s = newSession(Date.now(), workerId);
  setSessionCookie(req, res, site.keys, s);
  res.locals.session = s;
  res.locals.csrf = csrfToken(site.keys, s);
}

/** Pages for workers only: the login page otherwise (and back here afterwards). */
export function loggedIn(site: SiteContext): RequestHandler {
  return async (req, res, next) => {
    const { session } = locals(res);
    const worker = session.workerId !== undefined ? await site.workers.getWorker(session.workerId) : undefined;
    if (!worker) {
      if (req.method === 'GET') return res.redirect(303, `/worker/login?next=${encodeURIComponent(req.originalUrl)}`);
      throw new BadRequest('your session has ended: log in again', 401);
    }
    res.locals.worker = worker;
    next();
  };
}

/** Every POST of the site carries the session's CSRF token in `_csrf`; the fields without it. */
export function checkCsrf(req: Request, res: Response): FormFields {
  const fields = readForm(req);
  const token = single(fields, '_csrf');
  const expected = Buffer.from(locals(res).csrf);
  if (token === undefined || Buffer.byteLength(token) !== expected.length || !timingSafeEqual(Buffer.from(token), expected)) {
    throw new BadRequest('this form has expired (or came from another site): reload the page and try again', 403);
  }
  delete fields._csrf;
  return fields;
}

/** A page redirect target from a form: only a path of this site. */
export function safeNext(next: string | undefined): string {
  return next !== undefined && /^\/worker\/[^\\]*$/.test(next) && !next.startsWith('//') ? next : '/worker/hits';
}

const NOTICES: Record<string, string> = {
  submitted: 'Your work was submitted. Thank you!',
  returned: 'You returned the HIT; its slot went back to the requester.',
  granted: 'The qualification was granted.',
  requested: 'Your request was sent to the requester.',
  'logged-out': 'You are logged out.',
};

export function sendPage(
  res: Response,
  site: SiteContext,
  name: PageName,
  title: string,
  view: object,
  opts: { status?: number; frameOrigins?: string[]; notice?: string } = {},
): void {
  const { csrf, worker } = locals(res);
  const notice = opts.notice !== undefined ? NOTICES[opts.notice] : undefined;
  const html = site.views.page(name, view, {
    title,
    csrf,
    ...(worker ? { worker: { workerId: worker.workerId, displayName: worker.displayName } } : {}),
    ...(notice ? { notice } : {}),
  });
  res
    .status(opts.status ?? 200)
    .set({
      'Content-Security-Policy': sitePageCsp(opts.frameOrigins),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
    })
    .type('html')
    .send(html);
}

/** The HTTP status and heading a worker sees for a rule of the marketplace that said no. */
export function domainStatus(code: string): { status: number; heading: string } {
  switch (code) {
    case 'HITNotAvailable':
      return { status: 410, heading: 'This HIT is not available' };
    case 'AssignmentDoesNotExist':
      return { status: 404, heading: 'No such assignment' };
    case 'QualificationRequirementsNotMet':
    case 'WorkerBlocked':
    case 'AssignmentNotOwned':
      return { status: 403, heading: 'Not allowed' };
    case 'AlreadyWorkedOn':
    case 'InvalidAssignmentState':
    case 'QualificationRetryNotAllowed':
    case 'QualificationTestExpired':
      return { status: 409, heading: 'That cannot be done now' };
    case 'WorkerDoesNotExist':
    case 'QualificationTypeDoesNotExist':
      return { status: 404, heading: 'Not found' };
    default:
      return { status: 400, heading: 'That did not work' };
  }
}

export function pageErrors(site: SiteContext) {
  return (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (!res.locals.csrf) res.locals.csrf = '';
    if (isDomainError(err)) {
      const { status, heading } = domainStatus(err.code);
      return sendPage(res, site, 'error', heading, { heading, message: err.message }, { status });
    }
    if (err instanceof BadRequest)
      return sendPage(res, site, 'error', 'Request refused', { heading: 'Request refused', message: err.message }, { status: err.status });
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendPage(res, site, 'error', 'Request refused', { heading: 'Request refused', message: (err as Error).message }, { status });
    }
    site.mp.logger.error({ err }, 'worker site request failed');
    sendPage(
      res,
      site,
      'error',
      'Something went wrong',
      { heading: 'Something went wrong', message: 'An unexpected error occurred; the marketplace log has the details.' },
      { status: 500 },
    );
  };
}
