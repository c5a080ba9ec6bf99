import { Router, type Request } from 'express';
import { z } from 'zod';
import { auditLog } from '../../actions/audit.js';
import { batchOverview, deleteDraftBatch, listBatches } from '../../actions/batches.js';
import { payBonus } from '../../actions/bonus.js';
import { lazyActionContext } from '../../actions/context.js';
import { manualLabelsOf, setManualLabel } from '../../actions/manual-labels.js';
import { overrideReview } from '../../actions/override.js';
import {
  AssignmentParam,
  BlockBody,
  BonusBody,
  ManualLabelBody,
  MessageBody,
  OverrideBody,
  QualifyBody,
  UnblockBody,
  WorkerParam,
  WorkersQuery,
} from '../../actions/schemas.js';
import { blockWorker, messageWorkers, qualifyWorker, unblockWorker } from '../../actions/worker-actions.js';
import { loadItems, loadWorkerAnswers, loadWorkerTable } from '../../actions/views.js';
import { requireBatch } from '../../batches/index.js';
import { answersOf } from '../answers.js';
import type { AppContext } from '../context.js';
import { bearerAuth, jsonRequestBody, problemResponse, registry } from '../openapi.js';
import { guarded, parseWith } from './batches.js';
import { BatchParam } from './pipeline-schemas.js';

/**
 * The requester's actions as REST routes (the CLI and the console page call the same
 * operations, src/actions/). Every action, and every read that returns worker ids, needs
 * the bearer token (api/auth.ts); actions are recorded in the batch's audit log as `api`.
 */

const secured = { security: [{ [bearerAuth.name]: [] }] };
const json = (description: string, schema: z.ZodType = z.looseObject({})) => ({ description, content: { 'application/json': { schema } } });
const body = (schema: z.ZodType) => ({ body: jsonRequestBody(schema) });
const errors = {
  400: problemResponse('bad input (the problem names the field)'),
  401: problemResponse('missing bearer token'),
  404: problemResponse('no such batch, worker or assignment'),
  502: problemResponse('the crowd platform failed'),
};

const actions: Array<{ method: 'post' | 'delete'; path: string; summary: string; request: Record<string, unknown> }> = [
  {
    method: 'post',
    path: '/api/v1/workers/{worker}/block',
    summary: "Block a worker from the requester's HITs (CreateWorkerBlock); repeat-safe",
    request: { params: WorkerParam, ...body(BlockBody) },
  },
  {
    method: 'post',
    path: '/api/v1/workers/{worker}/unblock',
    summary: 'Lift a block (DeleteWorkerBlock); repeat-safe',
    request: { params: WorkerParam, ...body(UnblockBody) },
  },
  {
    method: 'post',
    path: '/api/v1/workers/{worker}/bonus',
    summary:
      "Pay a bonus for one of the worker's assignments (SendBonus with a UniqueRequestToken: a repeat pays once); counted in the batch's spend and held to its budget",
    request: { params: WorkerParam, ...body(BonusBody) },
  },
  { method: 'post', path: '/api/v1/workers/message', summary: 'Send workers a message (NotifyWorkers)', request: body(MessageBody) },
  {
    method: 'post',
    path: '/api/v1/workers/{worker}/qualification',
    summary: "Set a worker's qualification score (AssociateQualificationWithWorker) or revoke it",
    request: { params: WorkerParam, ...body(QualifyBody) },
  },
  {
    method: 'post',
    path: '/api/v1/assignments/{assignment}/override',
    summary: 'Overturn the review of an assignment (approve: its votes count; reject: they never do); labels and κ recomputed',
    request: { params: AssignmentParam, ...body(OverrideBody) },
  },
  {
    method: 'post',
    path: '/api/v1/batches/{batch}/manual-labels',
    summary: 'Decide an item by hand (provenance manual): export-qrels uses it over the crowd label',
    request: { params: BatchParam, ...body(ManualLabelBody) },
  },
  {
    method: 'delete',
    path: '/api/v1/batches/{batch}',
    summary: 'Delete a draft batch (never published) and what was imported into it',
    request: { params: BatchParam },
  },
];
for (const a of actions)
  registry.registerPath({
    method: a.method,
    path: a.path,
    summary: a.summary,
    ...secured,
    request: a.request,
    responses: { 200: json('done (or already done: see the fields)'), ...errors, 409: problemResponse("not allowed in the batch's state") },
  });

/** The shape of the worker ids a read returns (its other fields as qrelay's CLI prints them with --json). */
const workerIdField = z.string().openapi({ description: 'an MTurk worker id (personal data: the route asks for the token)' });
const WorkerRows = z.looseObject({
  batch: z.string(),
  workers: z.array(z.looseObject({ workerId: workerIdField, worker: workerIdField })),
});
const WorkerAnswerRows = z.array(z.looseObject({ assignmentId: z.string() }));
const ItemRows = z.array(z.looseObject({ votes: z.array(z.looseObject({ workerId: workerIdField, assignmentId: z.string() })) }));
const AuditRows = z.array(z.looseObject({ subject: z.string().openapi({ description: 'the worker id, assignment or item acted on' }) }));

/**
 * `workerData`: the read returns worker ids and their records (personal data), so it asks
 * for the bearer token like a mutation (api/auth.ts reads this `security` from the document).
 */
const reads: Array<{ path: string; summary: string; request: Record<string, unknown>; list?: true; workerData?: z.ZodType }> = [
  {
    path: '/api/v1/workers',
    workerData: WorkerRows,
    summary:
      "A batch's workers: assignments, check results, agreement, time per item, flags, blocked, every stop of quality control with its lift (stops), qualification scores, bonuses paid (as qrelay workers --json); when the platform does not answer, blocked and qualifications are null and platform.note says why",
    request: { query: WorkersQuery },
  },
  {
    path: '/api/v1/batches/{batch}/workers/{worker}/answers',
    workerData: WorkerAnswerRows,
    summary: "One worker's answers next to the final labels (real items) and the known answers (checks)",
    request: { params: BatchParam.merge(WorkerParam) },
    list: true,
  },
  {
    path: '/api/v1/batches/{batch}/items',
    workerData: ItemRows,
    summary:
      'Every real item: votes with comments and "difficult" marks, the debate, the label and its source (manual, crowd, unresolved, pending)',
    request: { params: BatchParam },
    list: true,
  },
  {
    path: '/api/v1/batches/{batch}/manual-labels',
    summary: "The batch's manual decisions (who, when, note)",
    request: { params: BatchParam },
    list: true,
  },
  {
    path: '/api/v1/batches/{batch}/audit',
    workerData: AuditRows,
    summary: "The batch's audit log: every action, who, when, why, outcome",
    request: { params: BatchParam },
    list: true,
  },
  {
    path: '/api/v1/batches/{batch}/overview',
    summary: 'State, items, progress, κ, spend (bonuses included) vs budget',
    request: { params: BatchParam },
  },
  { path: '/api/v1/overview', summary: 'Every batch as in qrelay batches: state, items, progress, spend', request: {}, list: true },
];
for (const r of reads)
  registry.registerPath({
    method: 'get',
    path: r.path,
    summary: r.summary,
    ...(r.workerData && secured),
    request: r.request,
    responses: {
      200: json(r.list ? 'the list' : 'the data', r.workerData ?? (r.list ? z.array(z.looseObject({})) : undefined)),
      ...(r.workerData && {
        401: problemResponse('missing bearer token: this route returns worker data'),
        403: problemResponse('wrong bearer token'),
      }),
      404: problemResponse('no such batch or worker'),
    },
  });

export function consoleActionsRouter(ctx: AppContext): Router {
  const router = Router();
  const actionsOf = lazyActionContext(ctx, 'api');
  const batchOf = (req: Request) => parseWith(BatchParam, req.params, 'path').batch;
  const workerOf = (req: Request) => parseWith(WorkerParam, req.params, 'path').worker;
  const opt = <T>(v: T | undefined, key: string) => (v === undefined ? {} : { [key]: v });

  router.get('/workers', async (req, res) => {
    const { batch } = parseWith(WorkersQuery, req.query, 'query');
    res.json({ batch, ...(await guarded(() => loadWorkerTable(actionsOf(), batch))) });
  });
  router.post('/workers/message', async (req, res) => {
    const b = parseWith(MessageBody, req.body ?? {}, 'body');
    res.json(
      await guarded(() =>
        messageWorkers(actionsOf(), { workerIds: b.workerIds, subject: b.subject, text: b.text, ...opt(b.batch, 'batch') }),
      ),
    );
  });
  router.post('/workers/:worker/block', async (req, res) => {
    const b = parseWith(BlockBody, req.body ?? {}, 'body');
    res.json(await guarded(() => blockWorker(actionsOf(), { workerId: workerOf(req), reason: b.reason, ...opt(b.batch, 'batch') })));
  });
  router.post('/workers/:worker/unblock', async (req, res) => {
    const b = parseWith(UnblockBody, req.body ?? {}, 'body');
    res.json(
      await guarded(() => unblockWorker(actionsOf(), { workerId: workerOf(req), ...opt(b.reason, 'reason'), ...opt(b.batch, 'batch') })),
    );
  });
  router.post('/workers/:worker/bonus', async (req, res) => {
    const b = parseWith(BonusBody, req.body ?? {}, 'body');
    res.json(
      await guarded(() =>
        payBonus(actionsOf(), {
          workerId: workerOf(req),
          assignmentId: b.assignmentId,
          amount: b.amount,
          reason: b.reason,
          ...opt(b.token, 'token'),
          ...opt(b.batch, 'batch'),
        }),
      ),
    );
  });
  router.post('/workers/:worker/qualification', async (req, res) => {
    const b = parseWith(QualifyBody, req.body ?? {}, 'body');
    res.json(
      await guarded(() =>
        qualifyWorker(actionsOf(), {
          workerId: workerOf(req),
          qualification: b.qualification,
          ...opt(b.value, 'value'),
          revoke: b.revoke,
          ...opt(b.reason, 'reason'),
          ...opt(b.batch, 'batch'),
        }),
      ),
    );
  });
  router.post('/assignments/:assignment/override', async (req, res) => {
    const { assignment } = parseWith(AssignmentParam, req.params, 'path');
    const b = parseWith(OverrideBody, req.body ?? {}, 'body');
    res.json(await guarded(() => overrideReview(actionsOf(), { assignmentId: assignment, decision: b.decision, reason: b.reason })));
  });
  router.post('/batches/:batch/manual-labels', async (req, res) => {
    const b = parseWith(ManualLabelBody, req.body ?? {}, 'body');
    const batch = batchOf(req);
    // the report's snapshots are computed anew before the answer (answers.ts): readers meanwhile are not held up
    res.json(await guarded(() => answersOf(ctx).writing(batch, () => setManualLabel(actionsOf(), { batch, ...b }))));
  });
  router.get('/batches/:batch/manual-labels', async (req, res) => {
    const batch = batchOf(req);
    await guarded(() => requireBatch(actionsOf().pipeline, batch));
    res.json((await manualLabelsOf(actionsOf().models, batch)).map(({ _id, ...m }) => ({ item: _id, ...m })));
  });
  router.get('/batches/:batch/audit', async (req, res) => {
    const batch = batchOf(req);
    await guarded(() => requireBatch(actionsOf().pipeline, batch));
    res.json((await auditLog(actionsOf(), batch)).map(({ _id: _unused, ...r }) => r));
  });
  router.get('/batches/:batch/items', async (req, res) => {
    res.json(await guarded(() => loadItems(actionsOf(), batchOf(req))));
  });
  router.get('/batches/:batch/overview', async (req, res) => {
    res.json(await guarded(() => batchOverview(actionsOf(), batchOf(req))));
  });
  router.get('/batches/:batch/workers/:worker/answers', async (req, res) => {
    res.json(await guarded(() => loadWorkerAnswers(actionsOf(), batchOf(req), workerOf(req))));
  });
  router.get('/overview', async (_req, res) => {
    res.json(await guarded(() => listBatches(actionsOf())));
  });
  router.delete('/batches/:batch', async (req, res) => {
    res.json(await guarded(() => deleteDraftBatch(actionsOf(), batchOf(req))));
  });
  return router;
}
