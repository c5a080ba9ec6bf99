import express, { Router, type Response } from 'express';
import { formAnswersXml } from '@qrelay/marketplace';
import type { AppContext } from '../api/context.js';
import type { HitDoc, HitQuestionDoc } from '../db/models/index.js';
import { pipelineModels } from '../db/models/index.js';
import { visitorOf, type Visitor } from '../experiment/pages.js';
import { experimentQuestionXml } from '../experiment/serve.js';
import {
  completionCode,
  completionUrl,
  isDuplicateKey,
  taskModels,
  taskSecret,
  type TaskModels,
  validSignature,
  type TaskSessionDoc,
} from './store.js';

/**
 * qrelay's own task pages, for platforms that link to external pages (Prolific) and for
 * MTurk as an ExternalQuestion:
 *
 * - `GET /tasks/<batch>/<hit>?sig=…` the HIT's page (the very page the HIT's HTMLQuestion
 *   holds: items, debate, attention checks, canary, telemetry). The signature is qrelay's
 *   (store.ts): a link nobody was given is refused. With Prolific's `PROLIFIC_PID`,
 *   `STUDY_ID` and `SESSION_ID` the session is recorded as this HIT's (the HIT's study takes
 *   each participant once, so its items get as many independent participants as it has
 *   places), and the page submits to qrelay; with MTurk's `assignmentId` and `turkSubmitTo`
 *   it is served as is and submits to MTurk.
 * - `POST /tasks/mturk/externalSubmit` the page's form (`turkSubmitTo` is `<QRELAY_PUBLIC_URL>/tasks`):
 *   the answers are stored once, as MTurk records a form (QuestionFormAnswers), then the
 *   participant goes on to the platform's completion step with the HIT's code.
 */

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const MTURK_ACTION = 'action="https://www.mturk.com/mturk/externalSubmit"';
const ASSIGNMENT_INPUT = '<input type="hidden" id="assignmentId" name="assignmentId" value="">';

/** The HTML page inside an HTMLQuestion (render.ts's toHtmlQuestionXml, undone). */
export function htmlOfQuestion(xml: string): string | undefined {
  const start = xml.indexOf('<HTMLContent><![CDATA[\n');
  const end = xml.lastIndexOf('\n]]></HTMLContent>');
  if (start < 0 || end < start) return undefined;
  return xml.slice(start + '<HTMLContent><![CDATA[\n'.length, end).replaceAll(']]]]><![CDATA[>', ']]>');
}

/** One line for the participant: what went wrong and what to do. */
function refuse(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain; charset=utf-8').send(`${text}\n`);
}

const one = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function tasksRouter(ctx: AppContext): Router {
  const router = Router();
  // made on the first request: the app is built before its connection need be open
  let made: { tasks: TaskModels; pipeline: ReturnType<typeof pipelineModels> } | undefined;
  const use = () => (made ??= { tasks: taskModels(ctx.connection), pipeline: pipelineModels(ctx.connection) });
  const form = express.urlencoded({ extended: false, limit: '256kb' });
  const publicUrl = ctx.config.publicUrl;

  router.get('/tasks/:batch/:hit', async (req, res) => {
    const batch = req.params.batch;
    const index = Number(req.params.hit);
    const sig = one(req.query.sig) ?? '';
    if (!Number.isSafeInteger(index) || index < 0)
      return refuse(res, 404, `task ${req.params.hit}: not a HIT number: open the link you were given`);
    const task = { batch, index };
    const secret = await taskSecret(use().tasks);
    if (!validSignature(secret, task, sig))
      return refuse(res, 403, 'this task link is not signed by qrelay: open the study again from where you found it');
    const hit = await use().pipeline.hits.findById(`${batch}|${index}`).lean<HitDoc>();
    const question = hit && (await use().pipeline.hitQuestions.findById(hit._id).lean<HitQuestionDoc>());
    if (!hit || !question || htmlOfQuestion(question.xml) === undefined)
      return refuse(res, 404, `batch ${batch} has no task ${index}: the study may have been withdrawn; return it`);
    // the debate experiment (docs/experiment.md): the worker's arm is recorded before their page is sent
    const pageFor = async (visitor: Visitor) =>
      htmlOfQuestion((await experimentQuestionXml(ctx.connection, hit, question, visitor)) ?? question.xml) as string;

    const participant = one(req.query.PROLIFIC_PID);
    const session = one(req.query.SESSION_ID);
    const study = one(req.query.STUDY_ID);
    if (participant === undefined && session === undefined && study === undefined) {
      // MTurk as an ExternalQuestion: the page reads assignmentId and turkSubmitTo itself and submits to MTurk
      const visitor = visitorOf({ workerId: one(req.query.workerId), assignmentId: one(req.query.assignmentId) });
      res
        .set('Cache-Control', 'no-store')
        .type('html')
        .send(await pageFor(visitor));
      return;
    }
    if (!participant || !session || !study || ![participant, session, study].every((v) => ID.test(v))) {
      return refuse(res, 400, 'this task needs PROLIFIC_PID, STUDY_ID and SESSION_ID from Prolific: open the study again from Prolific');
    }
    if (hit.hitId !== study)
      return refuse(res, 403, `this task belongs to another study than ${study}: open the study again from Prolific`);
    const now = new Date();
    try {
      await use().tasks.sessions.updateOne(
        { _id: session },
        { $setOnInsert: { batch, index, study, participant, startedAt: now, answerXml: null, submittedAt: null } },
        { upsert: true },
      );
    } catch (err) {
      // the same arrival twice at once (a double click): the first one's record stands
      if (!isDuplicateKey(err)) throw err;
    }
    const stored = await use().tasks.sessions.findById(session).lean<TaskSessionDoc>();
    if (!stored || stored.participant !== participant || stored.batch !== batch || stored.index !== index) {
      return refuse(res, 409, `session ${session} belongs to another participant or task: open the study again from Prolific`);
    }
    if (stored.submittedAt) return res.redirect(303, completionUrl(ctx.config, completionCode(secret, task)));
    if (one(req.query.assignmentId) !== session) {
      // the page's script reads its assignment and submission address from its own URL
      const url = new URL(req.originalUrl, publicUrl);
      url.searchParams.set('assignmentId', session);
      url.searchParams.set('turkSubmitTo', `${publicUrl}/tasks`);
      return res.redirect(303, `${url.pathname}${url.search}`);
    }
    // with scripts off the form still posts here, carrying the session
    const page = (await pageFor({ kind: 'worker', workerId: participant }))
      .replace(MTURK_ACTION, `action="${publicUrl}/tasks/mturk/externalSubmit"`)
      .replace(ASSIGNMENT_INPUT, ASSIGNMENT_INPUT.replace('value=""', `value="${session}"`));
    res.set('Cache-Control', 'no-store').type('html').send(page);
  });

  router.post('/tasks/mturk/externalSubmit', form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, string | string[]>;
    const session = one(body.assignmentId);
    if (!session || !ID.test(session))
      return refuse(res, 400, 'the form carries no session (assignmentId): open the study again from Prolific');
    const stored = await use().tasks.sessions.findById(session).lean<TaskSessionDoc>();
    if (!stored)
      return refuse(res, 404, `session ${session} was never opened through qrelay's task link: open the study again from Prolific`);
    const secret = await taskSecret(use().tasks);
    const done = completionUrl(ctx.config, completionCode(secret, { batch: stored.batch, index: stored.index }));
    // the first submission counts; a repeat (a double click, the back button) goes on to completion
    await use().tasks.sessions.updateOne(
      { _id: session, submittedAt: null },
      { $set: { answerXml: formAnswersXml(body), submittedAt: new Date() } },
    );
    res.redirect(303, done);
  });

  return router;
}
