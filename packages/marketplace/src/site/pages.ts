import express, { type Request, type Response, type Router } from 'express';
import { parseTest } from '../domain/question-xml.js';
import type { Question } from '../domain/question-xml.js';
import { workerAnswers } from './answers-view.js';
import { frameSandbox } from './csp.js';
import { dollars, duration, relative, when } from './format.js';
import { groupHits, requirementText } from './hit-groups.js';
import {
  checkCsrf,
  formBody,
  locals,
  loggedIn,
  originOf,
  safeNext,
  sendPage,
  sessions,
  single,
  startSession,
  type SiteContext,
} from './http.js';
import { previewFrameUrl, workFrameUrl } from './links.js';
import { questionFormView } from './question-form-view.js';

/**
 * The worker site's pages under /worker: log in and out, the HITs a worker can find
 * (grouped by HIT type), preview, accept, work (the HIT in its frame), return, the
 * worker's own work, earnings and messages, qualifications and their tests. Every POST
 * checks the session's CSRF token; everything shown comes from WorkerApi, which applies
 * MTurk's rules (blocks, qualification requirements, one's own work only).
 */

const PAGE_SIZE = 200;
/** Test answers travel as `q.<QuestionIdentifier>`, so no identifier can clash with `_csrf`. */
const TEST_FIELD = 'q.';

const workerOf = (res: Response) => locals(res).worker!;
const param = (req: Request, name: string) => String(req.params[name]);

function frameHeight(q: Question): number {
  return q.kind === 'QuestionForm' ? 0 : q.frameHeight;
}

function externalOrigins(q: Question | undefined): string[] {
  return q?.kind === 'ExternalQuestion' ? [new URL(q.url).origin] : [];
}

export function pagesRouter(site: SiteContext): Router {
  const router = express.Router();
  router.get('/static/:name', (req, res) => {
    const file = site.views.staticFile(param(req, 'name'));
    if (!file) return res.status(404).type('text/plain').send('not found');
    res.set({ 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }).type(file.type).send(file.body);
  });
  router.use(sessions(site));
  const auth = loggedIn(site);
  const notice = (req: Request) => (typeof req.query.notice === 'string' ? { notice: req.query.notice } : {});

  router.get('/', (_req, res) => res.redirect(303, '/worker/hits'));

  router.get('/login', (req, res) => {
    const next = safeNext(typeof req.query.next === 'string' ? req.query.next : undefined);
    sendPage(res, site, 'login', 'Log in', { next, name: '' }, notice(req));
  });

  router.post('/login', formBody, async (req, res) => {
    const fields = checkCsrf(req, res);
    const name = single(fields, 'name') ?? '';
    const next = safeNext(single(fields, 'next'));
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const allowed = site.logins.check(name, address, Date.now());
    if (!allowed.ok) {
      const seconds = allowed.retryAfterSeconds;
      res.set('Retry-After', String(seconds));
      const limited = `Too many failed logins ${allowed.by === 'account' ? 'for this name' : 'from your address'}: try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
      return sendPage(res, site, 'login', 'Log in', { next, name, limited }, { status: 429 });
    }
    const worker = await site.workers.authenticate(name, single(fields, 'password') ?? '');
    if (!worker) {
      site.logins.failed(name, address, Date.now());
      return sendPage(res, site, 'login', 'Log in', { next, name, failed: true }, { status: 401 });
    }
    site.logins.succeeded(name);
    await startSession(req, res, site, worker.workerId);
    res.redirect(303, next);
  });

  router.post('/logout', formBody, async (req, res) => {
    checkCsrf(req, res);
    await startSession(req, res, site);
    res.redirect(303, '/worker/login?notice=logged-out');
  });

  router.get('/hits', auth, async (req, res) => {
    const after = typeof req.query.after === 'string' && /^[A-Z0-9]{1,64}$/.test(req.query.after) ? req.query.after : undefined;
    const hits = await site.workers.listAvailableHits(workerOf(res).workerId, {
      limit: PAGE_SIZE,
      ...(after ? { afterHitId: after } : {}),
    });
    const nextAfter = hits.length === PAGE_SIZE ? hits[hits.length - 1]!.hitId : undefined;
    sendPage(res, site, 'hits', 'HITs', { groups: groupHits(hits, site.mp.clock.now()), ...(nextAfter ? { nextAfter } : {}) }, notice(req));
  });

  router.get('/hits/:hitId', auth, async (req, res) => {
    const worker = workerOf(res);
    const hit = await site.workers.previewHit(worker.workerId, param(req, 'hitId'));
    if (hit.assignment) return res.redirect(303, `/worker/assignments/${hit.assignment.assignmentId}`);
    const q = hit.question;
    const frame = q
      ? {
          src: previewFrameUrl(site.keys, originOf(req), hit.hitId, worker.workerId, q.kind === 'ExternalQuestion' ? q.url : undefined),
          sandbox: frameSandbox(q.kind),
          height: frameHeight(q),
        }
      : undefined;
    const now = site.mp.clock.now();
    sendPage(
      res,
      site,
      'hit',
      hit.title,
      {
        hit,
        reward: dollars(hit.rewardCents),
        timeAllotted: duration(hit.assignmentDurationSeconds),
        expires: relative(hit.expiration, now),
        unmet: hit.unmetRequirements.map(requirementText),
        ...(frame ? { frame } : {}),
      },
      { frameOrigins: externalOrigins(q) },
    );
  });

  router.post('/hits/:hitId/accept', auth, formBody, async (req, res) => {
    checkCsrf(req, res);
    const a = await site.workers.acceptHit(workerOf(res).workerId, param(req, 'hitId'));
    res.redirect(303, `/worker/assignments/${a.assignmentId}`);
  });

  router.get('/assignments', auth, async (req, res) => {
    const workerId = workerOf(res).workerId;
    const earnings = site.workers.earnings(workerId);
    const messages = await site.workers.listMessages(workerId);
    sendPage(
      res,
      site,
      'assignments',
      'My work',
      {
        earnings: {
          approved: dollars(earnings.approvedRewardsCents),
          bonuses: dollars(earnings.bonusesCents),
          pending: dollars(earnings.pendingRewardsCents),
        },
        assignments: site.workers.listAssignments(workerId).map((a) => ({
          ...a,
          accepted: when(a.acceptTime),
          submitted: a.submitTime ? when(a.submitTime) : '',
          reward: `$${a.reward}`,
          status: a.status === 'Accepted' ? 'In progress' : a.status,
        })),
        messages: messages.map((m) => ({ ...m, sent: when(m.sentAt) })),
      },
      notice(req),
    );
  });

  router.get('/assignments/:assignmentId', auth, async (req, res) => {
    const worker = workerOf(res);
    const a = await site.workers.getAssignment(worker.workerId, param(req, 'assignmentId'));
    const now = site.mp.clock.now();
    if (a.status === 'Accepted') {
      const frame = {
        src: workFrameUrl(site.keys, originOf(req), { assignmentId: a.assignmentId, hitId: a.hitId, workerId: worker.workerId }),
        sandbox: frameSandbox(a.question.kind),
        height: frameHeight(a.question),
      };
      return sendPage(
        res,
        site,
        'work',
        a.title,
        { assignment: a, reward: `$${a.reward}`, deadline: when(a.deadline), deadlineIn: relative(a.deadline, now), frame },
        { frameOrigins: externalOrigins(a.question), ...notice(req) },
      );
    }
    // what the worker entered; the page's hidden fields (timers, event counts) are the requester's
    const answers = a.answerXml ? workerAnswers(a.question, a.answerXml) : [];
    sendPage(
      res,
      site,
      'assignment',
      a.title,
      {
        assignment: a,
        reward: `$${a.reward}`,
        accepted: when(a.acceptTime),
        ...(a.submitTime ? { submitted: when(a.submitTime) } : {}),
        ...(a.status === 'Submitted' && a.autoApprovalTime ? { autoApproval: when(a.autoApprovalTime) } : {}),
        answers,
      },
      notice(req),
    );
  });

  router.post('/assignments/:assignmentId/return', auth, formBody, async (req, res) => {
    checkCsrf(req, res);
    await site.workers.returnAssignment(workerOf(res).workerId, param(req, 'assignmentId'));
    res.redirect(303, '/worker/hits?notice=returned');
  });

  router.get('/qualifications', auth, async (req, res) => {
    const workerId = workerOf(res).workerId;
    const held = await site.workers.listQualifications(workerId);
    const requestable = await site.workers.listRequestableQualifications(workerId);
    const now = site.mp.clock.now();
    sendPage(
      res,
      site,
      'qualifications',
      'Qualifications',
      {
        held: held.map((q) => ({
          name: q.name,
          status: q.status,
          value: q.integerValue ?? (q.localeValue ? [q.localeValue.Country, q.localeValue.Subdivision].filter(Boolean).join('-') : ''),
        })),
        requestable: requestable.map((q) => ({
          id: q.qualificationTypeId,
          name: q.name,
          description: q.description,
          hasTest: q.hasTest,
          how: q.hasTest
            ? `A test of ${duration(q.testDurationSeconds ?? 0)}, scored at once when the requester gave an answer key.`
            : q.autoGranted
              ? 'Granted as soon as you request it.'
              : 'The requester reviews your request.',
          ...(q.held?.status === 'Granted' && q.held.integerValue !== undefined ? { current: q.held.integerValue } : {}),
          pending: q.pendingRequest,
          ...(q.nextRequestAt === null
            ? { next: 'It cannot be requested again.' }
            : q.nextRequestAt
              ? { next: `You can request it again ${relative(q.nextRequestAt, now)}.` }
              : {}),
          canRequest: !q.pendingRequest && q.nextRequestAt === undefined,
        })),
      },
      notice(req),
    );
  });

  router.post('/qualifications/:typeId/request', auth, formBody, async (req, res) => {
    checkCsrf(req, res);
    const typeId = param(req, 'typeId');
    const outcome = await site.workers.requestQualification(workerOf(res).workerId, typeId);
    if (outcome.status === 'granted') return res.redirect(303, '/worker/qualifications?notice=granted');
    if (outcome.status === 'pending') return res.redirect(303, '/worker/qualifications?notice=requested');
    // the test is shown in this response: asking again while it is open returns the same test
    const name =
      (await site.workers.listRequestableQualifications(workerOf(res).workerId)).find((q) => q.qualificationTypeId === typeId)?.name ??
      typeId;
    const form = questionFormView(outcome.testXml, parseTest(outcome.testXml), (id) => `${TEST_FIELD}${id}`);
    sendPage(res, site, 'test', `Test: ${name}`, {
      id: typeId,
      name,
      form,
      deadline: when(outcome.deadline),
      deadlineIn: relative(outcome.deadline, site.mp.clock.now()),
    });
  });

  router.post('/qualifications/:typeId/test', auth, formBody, async (req, res) => {
    const fields = checkCsrf(req, res);
    const typeId = param(req, 'typeId');
    const answers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(fields)) if (name.startsWith(TEST_FIELD)) answers[name.slice(TEST_FIELD.length)] = value;
    const outcome = await site.workers.submitQualificationTest(workerOf(res).workerId, typeId, answers);
    const name =
      (await site.workers.listRequestableQualifications(workerOf(res).workerId)).find((q) => q.qualificationTypeId === typeId)?.name ??
      typeId;
    sendPage(res, site, 'test-result', name, {
      name,
      granted: outcome.status === 'granted',
      ...(outcome.status === 'granted' ? { value: outcome.value } : {}),
    });
  });

  return router;
}
