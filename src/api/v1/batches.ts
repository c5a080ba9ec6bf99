import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline as streamPipeline } from 'node:stream/promises';
import { Router, type Request } from 'express';
import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CrowdCallError } from '../../crowd/call-error.js';
import type { AssignmentDoc, BatchDoc, HitDoc, LabelDoc } from '../../db/models/index.js';
import { HttpProblem, NotFound, UserError } from '../../errors.js';
import { PIPELINE_JOBS } from '../../jobs/pipeline.js';
import { createPipelineContext, type PipelineContext } from '../../pipeline/context.js';
import { requireCollectable } from '../../pipeline/collect.js';
import { cleanupBatch, expireBatch } from '../../pipeline/expire.js';
import { IngestError } from '../../ingest/index.js';
import { importAny, ImportRejected } from '../../pipeline/import.js';
import { BatchStateError } from '../../pipeline/errors.js';
import { dryRunPublish, preparePublish } from '../../pipeline/publish.js';
import { buildLabels, loadBatchData, requireBatch } from '../../batches/index.js';
import { answersOf } from '../answers.js';
import { sendAnswer } from '../snapshot.js';
import type { AppContext } from '../context.js';
import { bearerAuth, jsonRequestBody, problemResponse, registry } from '../openapi.js';
import { zodProblemErrors } from '../problem.js';
import {
  BatchParam,
  BatchStatusSchema,
  BatchSummarySchema,
  CleanupResultSchema,
  DryRunSchema,
  ExpireResultSchema,
  HitSchema,
  ImportProblemSchema,
  ImportQuery,
  ImportResultSchema,
  LabelSchema,
  PublishBody,
  QueuedSchema,
  VoteSchema,
  WorkerSchema,
} from './pipeline-schemas.js';

/** Largest import upload: bigger files go through `qrelay import`, which streams from disk. */
export const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

const secured = { security: [{ [bearerAuth.name]: [] }] };
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { 'application/json': { schema } } });
const notFound = problemResponse('no such batch');
/** Reads that return worker ids: the token is asked for (api/auth.ts reads `security` from here). */
const workerData = {
  401: problemResponse('missing bearer token: this route returns worker data'),
  403: problemResponse('wrong bearer token'),
};

registry.registerPath({
  method: 'post',
  path: '/api/v1/batches',
  summary: 'Import a file of escalated cases, gold items or consensus labels into a batch (created if new)',
  description:
    'The body is the file itself, one JSON record per line (application/x-ndjson), canonical or BRIDGE-style. Every line is validated first: if any is bad, nothing is imported and the answer lists line, field and reason for each error (up to maxErrors). Re-importing a case is a no-op.',
  ...secured,
  request: { query: ImportQuery, body: { content: { 'application/x-ndjson': { schema: z.string() } } } },
  responses: {
    201: json(ImportResultSchema, 'imported'),
    400: {
      description: 'the file has errors; nothing was imported',
      content: { 'application/problem+json': { schema: ImportProblemSchema } },
    },
    401: problemResponse('missing bearer token'),
    409: problemResponse('the batch is already published'),
    413: problemResponse('the body is over 1 GiB'),
    415: problemResponse('the body is not NDJSON'),
  },
});
registry.registerPath({
  method: 'get',
  path: '/api/v1/batches',
  summary: 'Every batch with its state',
  responses: { 200: json(z.array(BatchSummarySchema), 'the batches') },
});
registry.registerPath({
  method: 'get',
  path: '/api/v1/batches/{batch}',
  summary: "A batch's progress: items with their votes, HITs, assignments, agreement (κ, α), spend",
  request: { params: BatchParam },
  responses: { 200: json(BatchStatusSchema, 'the status'), 404: notFound },
});
registry.registerPath({
  method: 'post',
  path: '/api/v1/batches/{batch}/publish',
  summary: 'Plan the batch into HITs (stored with its quote) and queue their creation on the target; with dryRun, only the plan and quote',
  ...secured,
  request: { params: BatchParam, body: jsonRequestBody(PublishBody) },
  responses: {
    200: json(DryRunSchema, 'the plan and quote (dryRun)'),
    202: json(QueuedSchema, 'planned; HIT creation queued'),
    400: problemResponse('bad options, over budget, or production without yes and budgetUsd'),
    401: problemResponse('missing bearer token'),
    404: notFound,
    409: problemResponse('already published, or the batch cannot be published in its state'),
    502: problemResponse('the crowd platform failed'),
    503: problemResponse('this process runs no job scheduler'),
  },
});
/** A POST on one batch: the bearer token, the batch in the path, and 401 and 404 besides its own answers. */
function registerBatchAction(action: string, summary: string, responses: Record<number, ResponseConfig>): void {
  registry.registerPath({
    method: 'post',
    path: `/api/v1/batches/{batch}/${action}`,
    summary,
    ...secured,
    request: { params: BatchParam },
    responses: { 401: problemResponse('missing bearer token'), 404: notFound, ...responses },
  });
}
const crowdFailed = problemResponse('the crowd platform failed');
registerBatchAction('review', 'Queue a collection round now: reconcile, review by the attention checks, extra assignments, aggregate', {
  202: json(QueuedSchema, 'queued'),
  409: problemResponse('not published yet, or closed'),
  503: problemResponse('this process runs no job scheduler'),
});
registerBatchAction('expire', 'Stop the batch: expire its HITs on the platform, collect and review what was accepted already', {
  200: json(ExpireResultSchema, 'expired'),
  409: problemResponse('not published'),
  502: crowdFailed,
});
registerBatchAction('cleanup', "Delete a finished batch's HITs on the platform (votes and labels stay)", {
  200: json(CleanupResultSchema, 'cleaned up (closed when no HIT remains)'),
  409: problemResponse('still collecting, or a collection round holds the batch'),
  502: crowdFailed,
});

/** The lists of one batch's records: path, summary, item schema, what the list holds, and whether it is worker data (token asked). */
const batchLists = [
  ['hits', "The batch's HITs with their planned items", HitSchema, 'the HITs', false],
  ['votes', 'Every answer to a real item (attention checks excluded), valid or not', VoteSchema, 'the votes', true],
  ['labels', 'The label of every real item (majority of its valid votes, or Dawid–Skene)', LabelSchema, 'the labels', true],
  [
    'workers',
    'Per-worker statistics: assignments, attention-check pass rate by polarity, leave-one-out agreement, median time per item',
    WorkerSchema,
    'the workers',
    true,
  ],
] as const;
for (const [list, summary, schema, description, workers] of batchLists)
  registry.registerPath({
    method: 'get',
    path: `/api/v1/batches/{batch}/${list}`,
    summary,
    request: { params: BatchParam },
    ...(workers && secured),
    responses: { 200: json(z.array(schema), description), ...(workers && workerData), 404: notFound },
  });

/** Pipeline errors as problems: a missing batch, assignment or item 404, a refused file 400 with its lines, the platform 502. */
export function problemOf(err: unknown): unknown {
  if (err instanceof ImportRejected) {
    return new HttpProblem(400, 'Bad Request', err.message, { errors: err.errors, moreErrors: err.moreErrors });
  }
  // a file that cannot be read at all (empty, not JSON): the same shape as a refused one
  if (err instanceof IngestError) return new HttpProblem(400, 'Bad Request', err.message, { errors: [err.issue], moreErrors: 0 });
  if (err instanceof NotFound) return new HttpProblem(404, 'Not Found', err.message);
  if (err instanceof BatchStateError) return new HttpProblem(409, 'Conflict', err.message);
  if (err instanceof UserError) return new HttpProblem(400, 'Bad Request', err.message);
  if (err instanceof CrowdCallError) return new HttpProblem(502, 'Bad Gateway', `the crowd platform failed: ${err.message}`);
  return err;
}

export async function guarded<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw problemOf(err);
  }
}

export function parseWith<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new HttpProblem(400, 'Bad Request', `the request's ${where} does not match its schema`, {
      errors: zodProblemErrors(parsed.error, where),
    });
  return parsed.data;
}

/** Streams the body to a temporary file (never held in memory), refusing more than `maxBytes`. */
async function saveUpload(req: Request, dir: string, maxBytes: number): Promise<string> {
  const file = join(dir, 'upload.jsonl');
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes)
        done(
          new HttpProblem(
            413,
            'Content Too Large',
            `the file is over ${maxBytes} bytes: import it with qrelay import, which reads it from disk`,
          ),
        );
      else done(null, chunk);
    },
  });
  await streamPipeline(req, limit, createWriteStream(file));
  return file;
}

export function jobsOf(ctx: AppContext) {
  if (!ctx.agenda) throw new HttpProblem(503, 'Service Unavailable', 'this process runs no job scheduler');
  return ctx.agenda;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function batchesRouter(ctx: AppContext): Router {
  const router = Router();
  // built on first use: an app may be created before its database connection is usable
  let context: PipelineContext | undefined;
  const pipelineOf = () =>
    (context ??= createPipelineContext({
      connection: ctx.connection,
      config: ctx.config,
      logger: ctx.logger,
      progress: (line) => ctx.logger.info(line),
    }));
  const defaultTarget = ctx.config.env.MTURK_TARGET;
  const batchOf = (req: Request) => parseWith(BatchParam, req.params, 'path').batch;

  router.post('/batches', async (req, res) => {
    const query = parseWith(ImportQuery, req.query, 'query');
    if (req.is('application/json')) {
      throw new HttpProblem(
        415,
        'Unsupported Media Type',
        'send the file as one JSON record per line with Content-Type: application/x-ndjson',
      );
    }
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-upload-'));
    try {
      const file = await saveUpload(req, dir, MAX_UPLOAD_BYTES);
      const outcome = await guarded(() =>
        importAny(pipelineOf(), file, {
          batch: query.batch,
          displayName: 'the uploaded file',
          ...(query.kind && { kind: query.kind }),
          ...(query.maxErrors && { maxErrors: query.maxErrors }),
        }),
      );
      // the first (or only) import at the top, as before; a split BRIDGE file lists both in `imports`
      const imports = outcome.imports.map((r) => ({ ...r, file: 'upload' }));
      res.status(201).json({ ...imports[0]!, imports, ignoredFields: outcome.ignoredFields });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  router.get('/batches', async (_req, res) => {
    const docs = await pipelineOf()
      .models.batches.find({}, { state: 1, settings: 1, createdAt: 1, summary: 1, plan: 1 })
      .lean<BatchDoc[]>();
    res.json(
      docs
        .sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime())
        .map((d) => ({
          batch: d._id,
          state: d.state,
          target: d.settings?.target ?? null,
          createdAt: new Date(d.createdAt).toISOString(),
          items: d.plan?.realItems ?? null,
          itemsComplete: d.summary?.itemsComplete ?? null,
        })),
    );
  });

  // a dashboard polls this: served from a snapshot while the batch is unchanged (answers.ts)
  router.get('/batches/:batch', async (req, res) => {
    const batch = batchOf(req);
    sendAnswer(req, res, await guarded(() => answersOf(ctx).status(batch)));
  });

  router.post('/batches/:batch/publish', async (req, res) => {
    const batch = batchOf(req);
    const { dryRun, ...request } = parseWith(PublishBody, req.body ?? {}, 'body');
    if (dryRun) {
      const dry = await guarded(() => dryRunPublish(pipelineOf(), batch, request, defaultTarget));
      res.json({
        batch,
        dryRun: true,
        hits: dry.plan.hits.length,
        checks: { total: dry.plan.checks.total, yes: dry.plan.checks.yes, no: dry.plan.checks.no },
        splits: dry.plan.splits,
        quote: dry.plan.quote,
        text: dry.text,
      });
      return;
    }
    const agenda = jobsOf(ctx);
    await guarded(() => preparePublish(pipelineOf(), batch, request, defaultTarget));
    const job = await agenda.now(PIPELINE_JOBS.publish, { batch });
    res.status(202).json({ batch, job: PIPELINE_JOBS.publish, id: String(job.attrs._id) });
  });

  router.post('/batches/:batch/review', async (req, res) => {
    const batch = batchOf(req);
    // not published, or closed: 409 now (as documented), not a queued round that fails
    await guarded(async () => requireCollectable(await requireBatch(pipelineOf(), batch)));
    const job = await jobsOf(ctx).now(PIPELINE_JOBS.collect, { batch });
    res.status(202).json({ batch, job: PIPELINE_JOBS.collect, id: String(job.attrs._id) });
  });

  router.post('/batches/:batch/expire', async (req, res) => {
    const r = await guarded(() => expireBatch(pipelineOf(), batchOf(req)));
    res.json({ batch: r.batch, expired: r.expired, dropped: r.dropped, state: (await requireBatch(pipelineOf(), r.batch)).state });
  });

  router.post('/batches/:batch/cleanup', async (req, res) => {
    res.json(await guarded(() => cleanupBatch(pipelineOf(), batchOf(req))));
  });

  router.get('/batches/:batch/hits', async (req, res) => {
    const batch = batchOf(req);
    await guarded(() => requireBatch(pipelineOf(), batch));
    const hits = (await pipelineOf().models.hits.find({ batch }).lean<HitDoc[]>()).sort((a, b) => a.index - b.index);
    res.json(
      hits.map((h) => ({
        index: h.index,
        origin: h.origin,
        hitId: h.hitId ?? null,
        state: h.state,
        maxAssignments: h.maxAssignments,
        realItems: h.realItems,
        checks: h.checks,
        extensions: h.extensions ?? 0,
        publishedAt: iso(h.publishedAt),
        items: h.items.map((i) => ({
          position: i.position,
          kind: i.kind,
          queryId: i.queryId,
          chunkId: i.chunkId,
          dataset: i.dataset,
          ...(i.kind === 'check' && { expected: i.expected }),
        })),
      })),
    );
  });

  router.get('/batches/:batch/votes', async (req, res) => {
    const batch = batchOf(req);
    const doc = await guarded(() => requireBatch(pipelineOf(), batch));
    const data = await loadBatchData(pipelineOf(), batch);
    const valid = doc.settings
      ? new Set(buildLabels(doc, data, pipelineOf().now()).aggregate.valid.map((v) => `${v.item}\u0000${v.worker}`))
      : new Set<string>();
    const hitsById = new Map(data.hits.map((h) => [h._id, h]));
    res.json(
      data.assignments.flatMap((a: AssignmentDoc) =>
        a.answers.flatMap((x) => {
          if (x.kind !== 'real' || !x.answer) return [];
          const planned = hitsById.get(a.hit)?.items.find((i) => i.position === x.position);
          return [
            {
              assignmentId: a._id,
              hitId: a.hitId,
              worker: a.workerId,
              queryId: planned?.queryId ?? '',
              chunkId: planned?.chunkId ?? '',
              label: x.answer,
              counts: valid.has(`${x.item}\u0000${a.workerId}`) && a.review?.countsVotes !== false,
              difficult: x.difficult,
              comment: x.comment,
              ms: x.ms ?? null,
              submittedAt: iso(a.submittedAt),
            },
          ];
        }),
      ),
    );
  });

  router.get('/batches/:batch/labels', async (req, res) => {
    const batch = batchOf(req);
    await guarded(() => requireBatch(pipelineOf(), batch));
    const labels = await pipelineOf().models.labels.find({ batch }).lean<LabelDoc[]>();
    res.json(labels.map(({ _id: _unused, batch: _b, updatedAt: _u, ...l }) => l));
  });

  router.get('/batches/:batch/workers', async (req, res) => {
    const batch = batchOf(req);
    const doc = await guarded(() => requireBatch(pipelineOf(), batch));
    if (!doc.settings) return void res.json([]);
    res.json(buildLabels(doc, await loadBatchData(pipelineOf(), batch), pipelineOf().now()).aggregate.workers);
  });

  return router;
}
