import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { isDomainError } from '../domain/errors.js';
import { settle, type AssignmentState, type HitState } from '../domain/hit.js';
import { hitIdOfAssignment } from '../ids.js';
import { parsedQuestion, questionXml } from '../services/hits.js';
import { checkWorkToken, PREVIEW_ASSIGNMENT_ID, readPreviewToken, readWorkToken, submitBase, withParams } from './capabilities.js';
import { htmlQuestionCsp, ownFrameCsp } from './csp.js';
import { BadRequest, domainStatus, formBody, originOf, readForm, single, type SiteContext } from './http.js';
import { workParams } from './links.js';
import { questionFormView } from './question-form-view.js';

/**
 * What runs inside a HIT's frame, and where it submits. These routes use no cookies (the
 * sandboxed frame has none): the address's capability (capabilities.ts) says which
 * assignment, or which worker previews which HIT.
 *
 * - GET  /worker/frame/<token>    the assignment's question: the requester's HTMLQuestion
 *   as written (CSP: htmlQuestionCsp), a QuestionForm rendered as a form, or a redirect to
 *   the ExternalURL with assignmentId, hitId, workerId and turkSubmitTo appended
 * - GET  /worker/preview/<hitId>/<token>   the same with assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE
 * - POST /submit/<token>/mturk/externalSubmit   the form (`turkSubmitTo` is
 *   `<origin>/submit/<token>`): its `assignmentId` field must name the token's assignment,
 *   which must still be open; every other field becomes one Answer
 */

class FrameError extends Error {
  constructor(
    readonly status: number,
    readonly heading: string,
    message: string,
  ) {
    super(message);
  }
}

const NO_ASSIGNMENT = () =>
  new FrameError(404, 'No open assignment', 'This link opens no assignment that is still open: it was returned, its time ran out, or the link is not right.');

const FRAME_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

export function framesRouter(site: SiteContext): Router {
  const router = express.Router();

  /** The assignment a work token opens (its HIT as it is now), whatever its status. */
  function assignmentOf(token: string): { hit: HitState; assignment: AssignmentState } {
    const t = readWorkToken(token);
    const hitId = t ? hitIdOfAssignment(t.assignmentId) : undefined;
    const stored = hitId ? site.mp.hits.get(hitId) : undefined;
    if (!t || !stored) throw NO_ASSIGNMENT();
    const hit = settle(stored, site.mp.clock.now());
    const assignment = hit.assignments.find((a) => a.id === t.assignmentId);
    if (!assignment || !checkWorkToken(site.keys, t.mac, assignment.id, assignment.workerId)) throw NO_ASSIGNMENT();
    return { hit, assignment };
  }

  function frameMessage(req: Request, res: Response, status: number, heading: string, message: string, submitted = false): void {
    const csp = ownFrameCsp(originOf(req), submitted ? site.views.submittedScriptHash : undefined);
    res.status(status).set({ ...FRAME_HEADERS, 'Content-Security-Policy': csp }).type('html').send(site.views.frameMessage({ heading, message, submitted }));
  }

  router.get('/worker/frame/:token', async (req, res) => {
    const token = String(req.params.token);
    const { hit, assignment } = assignmentOf(token);
    if (assignment.status !== 'Accepted') throw new FrameError(410, 'Already submitted', 'This assignment has been submitted; there is nothing more to do here.');
    const origin = originOf(req);
    const q = await parsedQuestion(site.mp, hit.id);
    if (!q) throw new FrameError(404, 'No question', 'This HIT has no question.');
    const params = workParams(origin, token, { assignmentId: assignment.id, hitId: hit.id, workerId: assignment.workerId });
    if (q.kind === 'ExternalQuestion') return res.set(FRAME_HEADERS).redirect(303, withParams(q.url, params));
    res.set(FRAME_HEADERS);
    if (q.kind === 'HTMLQuestion') return res.set('Content-Security-Policy', htmlQuestionCsp(origin)).type('html').send(q.html);
    const xml = (await questionXml(site.mp, hit.id))!;
    res
      .set('Content-Security-Policy', ownFrameCsp(origin))
      .type('html')
      .send(site.views.frameForm({ action: `${submitBase(origin, token)}/mturk/externalSubmit`, assignmentId: assignment.id, form: questionFormView(xml, q.form), disabled: false }));
  });

  router.get('/worker/preview/:hitId/:token', async (req, res) => {
    const hitId = String(req.params.hitId);
    const workerId = readPreviewToken(site.keys, hitId, String(req.params.token));
    if (!workerId) throw new FrameError(404, 'No preview', 'This preview link is not right.');
    const hit = await site.workers.previewHit(workerId, hitId);
    const q = hit.question;
    if (!q || hit.questionXml === undefined) throw new FrameError(403, 'No preview', 'The requester shows this HIT only to workers who meet its qualification requirements.');
    const origin = originOf(req);
    res.set(FRAME_HEADERS);
    if (q.kind === 'ExternalQuestion') return res.redirect(303, withParams(q.url, { assignmentId: PREVIEW_ASSIGNMENT_ID, hitId }));
    if (q.kind === 'HTMLQuestion') return res.set('Content-Security-Policy', htmlQuestionCsp(origin)).type('html').send(q.html);
    res
      .set('Content-Security-Policy', ownFrameCsp(origin))
      .type('html')
      .send(site.views.frameForm({ action: '', assignmentId: PREVIEW_ASSIGNMENT_ID, form: questionFormView(hit.questionXml, q.form), disabled: true }));
  });

  router.post('/submit/:token/mturk/externalSubmit', formBody, async (req, res) => {
    const { assignment } = assignmentOf(String(req.params.token));
    const fields = readForm(req);
    const given = single(fields, 'assignmentId');
    if (given !== assignment.id) {
      throw new FrameError(400, 'Not submitted', `The form's assignmentId (${given === undefined ? 'missing' : `"${given.slice(0, 64)}"`}) is not the assignment this page was opened for.`);
    }
    await site.workers.submitAssignment(assignment.workerId, assignment.id, fields);
    frameMessage(req, res, 200, 'Submitted', 'Your work was submitted. Thank you!', true);
  });

  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof FrameError) return frameMessage(req, res, err.status, err.heading, err.message);
    if (isDomainError(err)) {
      const { status, heading } = domainStatus(err.code);
      return frameMessage(req, res, status, heading, err.message);
    }
    if (err instanceof BadRequest) return frameMessage(req, res, err.status, 'Request refused', err.message);
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) return frameMessage(req, res, status, 'Request refused', (err as Error).message);
    site.mp.logger.error({ err }, 'worker site frame request failed');
    frameMessage(req, res, 500, 'Something went wrong', 'An unexpected error occurred; the marketplace log has the details.');
  });
  return router;
}
