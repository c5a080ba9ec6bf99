import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { HttpProblem } from '../../errors.js';
import {
  AdjudicateRequest,
  DebateRequest,
  LLM_JOB_STATES,
  llmJobModel,
  queueAdjudication,
  queueDebate,
  type LlmJobDoc,
  type LlmJobsOptions,
} from '../../debate/jobs.js';
import { OUTPUT_FILES } from '../../debate/outputs.js';
import { createPipelineContext, type PipelineContext } from '../../pipeline/context.js';
import { requireBatch } from '../../batches/index.js';
import type { AppContext } from '../context.js';
import { bearerAuth, jsonRequestBody, problemResponse, registry } from '../openapi.js';
import { guarded, jobsOf, parseWith } from './batches.js';
import { BatchParam } from './pipeline-schemas.js';

/** The LLM steps as jobs: `POST /debates`, `POST /batches/{batch}/adjudicate`, their status. */

const date = z.string().openapi({ format: 'date-time' });
const secured = { security: [{ [bearerAuth.name]: [] }] };

const LlmJobSchema = registry.register(
  'LlmJob',
  z.object({
    id: z.string(),
    kind: z.enum(['debate', 'adjudicate']),
    state: z.enum(LLM_JOB_STATES),
    batch: z.string().nullable(),
    request: z.record(z.string(), z.unknown()),
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    result: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'debate: the summary of `qrelay debate --json`; adjudicate: the result of `qrelay adjudicate --json`' }),
    error: z.string().nullable(),
    createdAt: date,
    updatedAt: date,
  }),
);
const JobIdParam = z.object({
  id: z
    .string()
    .regex(/^(debate|adjudicate)-[0-9a-f]{20}$/)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
const DebateFileParam = JobIdParam.extend({
  file: z.enum(['escalations', 'consensus', 'filtered', 'failed']).openapi({ param: { name: 'file', in: 'path' } }),
});
// the request's rule (model, or both modelA and modelB) in the document too
const DebateBody = registry.register(
  'DebateRequest',
  DebateRequest.openapi({ anyOf: [{ required: ['model'] }, { required: ['modelA', 'modelB'] }] }),
);
const AdjudicateBody = registry.register('AdjudicateRequest', AdjudicateRequest);
const jobJson = (description: string) => ({ description, content: { 'application/json': { schema: LlmJobSchema } } });

registry.registerPath({
  method: 'post',
  path: '/api/v1/debates',
  summary: 'Queue a DREAM debate over candidates (as `qrelay debate`); the same request is the same job (resumed, never asked twice)',
  ...secured,
  request: { body: jsonRequestBody(DebateBody) },
  responses: {
    202: jobJson('queued (or the existing job of the same request)'),
    400: problemResponse('the request does not match its schema'),
    401: problemResponse('missing bearer token'),
    503: problemResponse('this process runs no job scheduler'),
  },
});
/** A job's state by its id. */
const registerJobRead = (path: string, summary: string) =>
  registry.registerPath({
    method: 'get',
    path,
    summary,
    request: { params: JobIdParam },
    responses: { 200: jobJson('the job'), 404: problemResponse('no such job') },
  });
registerJobRead('/api/v1/debates/{id}', "A debate job's state, progress (candidates done) and summary");
registry.registerPath({
  method: 'get',
  path: '/api/v1/debates/{id}/{file}',
  summary: "A finished debate's output file: escalations, consensus, filtered or failed (JSONL)",
  request: { params: DebateFileParam },
  responses: {
    200: { description: 'the file', content: { 'application/x-ndjson': { schema: z.string() } } },
    404: problemResponse('no such job'),
    409: problemResponse('the debate has not finished'),
  },
});
registry.registerPath({
  method: 'post',
  path: '/api/v1/batches/{batch}/adjudicate',
  summary: "Queue the LLM adjudicator (as `qrelay adjudicate`) on the batch's escalated cases",
  ...secured,
  request: { params: BatchParam, body: jsonRequestBody(AdjudicateBody) },
  responses: {
    202: jobJson('queued'),
    400: problemResponse('the request does not match its schema'),
    401: problemResponse('missing bearer token'),
    404: problemResponse('no such batch'),
    503: problemResponse('this process runs no job scheduler'),
  },
});
registerJobRead('/api/v1/adjudications/{id}', "An adjudication job's state, progress (cases done) and result");

function view(doc: LlmJobDoc) {
  return {
    id: doc._id,
    kind: doc.kind,
    state: doc.state,
    batch: doc.batch,
    request: doc.request,
    progress: doc.progress,
    result: doc.result,
    error: doc.error,
    createdAt: new Date(doc.createdAt).toISOString(),
    updatedAt: new Date(doc.updatedAt).toISOString(),
  };
}

export function llmRouter(ctx: AppContext): Router {
  const router = Router();
  let context: PipelineContext | undefined;
  const pipelineOf = () => (context ??= createPipelineContext({ connection: ctx.connection, config: ctx.config, logger: ctx.logger }));
  const options = (): LlmJobsOptions => ({ ctx: pipelineOf(), config: ctx.config, logger: ctx.logger });

  const findJob = async (req: Request, kind: LlmJobDoc['kind']) => {
    const { id } = parseWith(JobIdParam, req.params, 'path');
    const doc = await llmJobModel(ctx.connection).findById(id).lean();
    if (!doc || doc.kind !== kind) throw new HttpProblem(404, 'Not Found', `no ${kind} job ${id}`);
    return doc;
  };

  router.post('/debates', async (req, res) => {
    const request = parseWith(DebateRequest, req.body ?? {}, 'body');
    const agenda = jobsOf(ctx);
    res.status(202).json(view(await queueDebate(agenda, options(), request)));
  });
  router.get('/debates/:id', async (req, res) => {
    res.json(view(await findJob(req, 'debate')));
  });
  router.get('/debates/:id/:file', async (req, res) => {
    const { file } = parseWith(DebateFileParam, req.params, 'path');
    const doc = await findJob(req, 'debate');
    if (doc.state !== 'done' || !doc.dir)
      throw new HttpProblem(409, 'Conflict', `debate ${doc._id} is ${doc.state}: its files come when it is done`);
    res.type('application/x-ndjson').send(await readFile(join(doc.dir, OUTPUT_FILES[file]), 'utf8'));
  });
  router.post('/batches/:batch/adjudicate', async (req, res) => {
    const { batch } = parseWith(BatchParam, req.params, 'path');
    const request = parseWith(AdjudicateRequest, req.body ?? {}, 'body');
    const agenda = jobsOf(ctx);
    await guarded(() => requireBatch(pipelineOf(), batch));
    res.status(202).json(view(await queueAdjudication(agenda, options(), batch, request)));
  });
  router.get('/adjudications/:id', async (req, res) => {
    res.json(view(await findJob(req, 'adjudicate')));
  });
  return router;
}
