import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { isDomainError } from '../domain/errors.js';
import { settle, type AssignmentState, type HitState } from '../domain/hit.js';
import { hitIdOfAssignment } from '../ids.js';
import { parsedQuestion, questionXml } from '../services/hits.js';
import { checkWorkToken, PREVIEW_ASSIGNMENT_ID, readPreviewToken, readWorkToken, submitBase, withParams } from './capabilities.js';
import { htmlQuestionCsp, ownFrameCsp } from './csp.js';
import type { FormFields } from '../domain/answers-xml.js';
import {
  BadRequest,
  domainStatus,
  formBody,
  formBodyIfAny,
  locals,
  originOf,
  queryFields,
  readForm,
  sessions,
  single,
  type SiteContext,
} from './http.js';
import { mturkScript, PageSpots, rewriteMturkPage } from './mturk-page.js';
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
 * - GET  /worker/preview/<hitId>/<token>   the same with assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE;
 *   MTurk's submission address in it points at /worker/preview/mturk/externalSubmit, which
 *   records nothing and says to accept the HIT first (a page with scripts off is not disabled)
 * - POST|GET /submit/<token>/mturk/externalSubmit   the form (`turkSubmitTo` is
 *   `<origin>/submit/<token>`): its `assignmentId` field must name the token's assignment,
 *   which must still be open; every other field becomes one Answer
 * - POST|GET /mturk/externalSubmit   the same for the logged-in worker's own assignment
 * - GET  /mturk/externalHIT_v1.js, /mturk/crowd-html-elements.js   our copies of MTurk's
 *   page scripts; an HTMLQuestion's references to MTurk's are rewritten to them (mturk-page.ts)
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
  new FrameError(
    404,
    'No open assignment',
    'This link opens no assignment that is still open: it was returned, its time ran out, or the link is not right.',
  );

/** Where a preview's form goes when it is sent anyway: nothing is recorded. */
const PREVIEW_SUBMIT_PATH = '/worker/preview/mturk/externalSubmit';

const FRAME_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer', 'X-Content-Type-Options': 'nosniff' };

export function framesRouter(site: SiteContext): Router {
  const router = express.Router();
  // where each HIT's page names MTurk's addresses, by HIT id (a HIT's question never changes)
  const spots = new PageSpots();

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
    res
      .status(status)
      .set({ ...FRAME_HEADERS, 'Content-Security-Policy': csp })
      .type('html')
      .send(site.views.frameMessage({ heading, message, submitted }));
  }

  router.get('/worker/frame/:token', async (req, res) => {
    const token = String(req.params.token);
    const { hit, assignment } = assignmentOf(token);
    if (assignment.status !== 'Accepted')
      throw new FrameError(410, 'Already submitted', 'This assignment has been submitted; there is nothing more to do here.');
    const origin = originOf(req);
    const q = await parsedQuestion(site.mp, hit.id);
    if (!q) throw new FrameError(404, 'No question', 'This HIT has no question.');
    const params = workParams(origin, token, { assignmentId: assignment.id, hitId: hit.id, workerId: assignment.workerId });
    if (q.kind === 'ExternalQuestion') return res.set(FRAME_HEADERS).redirect(303, withParams(q.url, params));
    res.set(FRAME_HEADERS);
    if (q.kind === 'HTMLQuestion') {
      const page = rewriteMturkPage(
        q.html,
        { origin, submitUrl: `${submitBase(origin, token)}/mturk/externalSubmit`, assignmentId: assignment.id },
        { spots, key: hit.id },
      );
      return res.set('Content-Security-Policy', htmlQuestionCsp(origin)).type('html').send(page);
    }
    const xml = (await questionXml(site.mp, hit.id))!;
    res
      .set('Content-Security-Policy', ownFrameCsp(origin))
      .type('html')
      .send(
        site.views.frameForm({
          action: `${submitBase(origin, token)}/mturk/externalSubmit`,
          assignmentId: assignment.id,
          form: questionFormView(xml, q.form),
          disabled: false,
        }),
      );
  });

  // before the preview's own route, which a GET of it would match
  router.all(PREVIEW_SUBMIT_PATH, (req, res) =>
    frameMessage(req, res, 409, 'Preview only', 'This is a preview of the HIT: accept it to work on it, then submit your answers.'),
  );

  router.get('/worker/preview/:hitId/:token', async (req, res) => {
    const hitId = String(req.params.hitId);
    const workerId = readPreviewToken(site.keys, hitId, String(req.params.token));
    if (!workerId) throw new FrameError(404, 'No preview', 'This preview link is not right.');
    const hit = await site.workers.previewHit(workerId, hitId);
    const q = hit.question;
    if (!q || hit.questionXml === undefined)
      throw new FrameError(403, 'No preview', 'The requester shows this HIT only to workers who meet its qualification requirements.');
    const origin = originOf(req);
    res.set(FRAME_HEADERS);
    if (q.kind === 'ExternalQuestion') return res.redirect(303, withParams(q.url, { assignmentId: PREVIEW_ASSIGNMENT_ID, hitId }));
    // a preview's form, sent all the same (a page whose script is off does not disable it), is told to accept first
    if (q.kind === 'HTMLQuestion')
      return res
        .set('Content-Security-Policy', htmlQuestionCsp(origin))
        .type('html')
        .send(rewriteMturkPage(q.html, { origin, submitUrl: `${origin}${PREVIEW_SUBMIT_PATH}` }));
    res
      .set('Content-Security-Policy', ownFrameCsp(origin))
      .type('html')
      .send(
        site.views.frameForm({
          action: '',
          assignmentId: PREVIEW_ASSIGNMENT_ID,
          form: questionFormView(hit.questionXml, q.form),
          disabled: true,
        }),
      );
  });

  /** Records the form as the assignment's answer; `expected` is the assignment the address names (when it names one). */
  async function submit(req: Request, res: Response, workerId: string, fields: FormFields, expected?: string): Promise<void> {
    const given = single(fields, 'assignmentId');
    if (given === undefined || (expected !== undefined && given !== expected)) {
      throw new FrameError(
        400,
        'Not submitted',
        `The form's assignmentId (${given === undefined ? 'missing' : `"${given.slice(0, 64)}"`}) is not the assignment this page was opened for.`,
      );
    }
    await site.workers.submitAssignment(workerId, given, fields);
    frameMessage(req, res, 200, 'Submitted', 'Your work was submitted. Thank you!', true);
  }

  // MTurk takes the form by POST or by GET (a form with method="get"), at <turkSubmitTo>/mturk/externalSubmit
  router.post('/submit/:token/mturk/externalSubmit', formBody, async (req, res) => {
    const { assignment } = assignmentOf(String(req.params.token));
    await submit(req, res, assignment.workerId, readForm(req), assignment.id);
  });
  router.get('/submit/:token/mturk/externalSubmit', async (req, res) => {
    const { assignment } = assignmentOf(String(req.params.token));
    await submit(req, res, assignment.workerId, queryFields(req), assignment.id);
  });

  /*
   * /mturk/externalSubmit itself, as on MTurk: the worker is the one logged in (session
   * cookie, SameSite=Lax) and the assignment the form's assignmentId, which must be theirs
   * and open. Only pages of this origin may use it: a request the browser marks as coming
   * from anywhere else (Sec-Fetch-Site other than same-origin, or an Origin that is not
   * ours, such as the "null" of a sandboxed HIT frame) is refused, so no requester's page
   * can submit a worker's other assignments with the worker's cookie. HIT frames post to
   * their own capability address (turkSubmitTo) instead.
   */
  const bare = [sessions(site), formBodyIfAny] as const;
  const bareSubmit = (fieldsOf: (req: Request) => FormFields) => async (req: Request, res: Response) => {
    const fetchSite = req.get('sec-fetch-site');
    const origin = req.get('origin');
    if (
      (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') ||
      (origin !== undefined && origin !== originOf(req))
    ) {
      throw new FrameError(
        403,
        'Not submitted',
        'This form was sent from another page than the worker site; submit the HIT from its own page.',
      );
    }
    const workerId = locals(res).session.workerId;
    if (workerId === undefined)
      throw new FrameError(
        401,
        'Not submitted',
        'You are not logged in on the worker site: log in, open the HIT from your work list and submit it there.',
      );
    await submit(req, res, workerId, fieldsOf(req));
  };
  router.post('/mturk/externalSubmit', ...bare, bareSubmit(readForm));
  router.get('/mturk/externalSubmit', ...bare, bareSubmit(queryFields));

  // our copies of MTurk's page scripts (mturk-page.ts), loaded by HIT frames (an opaque origin: no CORS needed for a script)
  router.get('/mturk/:name', (req, res, next) => {
    const body = mturkScript(String(req.params.name));
    if (body === undefined) return next();
    res
      .set({ 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' })
      .type('text/javascript; charset=utf-8')
      .send(body);
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
    if (typeof status === 'number' && status >= 400 && status < 500)
      return frameMessage(req, res, status, 'Request refused', (err as Error).message);
    site.mp.logger.error({ err }, 'worker site frame request failed');
    frameMessage(req, res, 500, 'Something went wrong', 'An unexpected error occurred; the marketplace log has the details.');
  });
  return router;
}
