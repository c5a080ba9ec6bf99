import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Agenda } from 'agenda';
import { Schema, type Connection, type Model } from 'mongoose';
import { z } from 'zod';
import type { Config } from '../config.js';
import { collections } from '../db/collections.js';
import { errorMessage, UserError } from '../errors.js';
import type { Logger } from '../log.js';
import type { PipelineContext } from '../pipeline/context.js';
import { BatchName } from '../pipeline/names.js';
import { CandidateInput } from './candidates.js';
import { loadPriceTable } from './prices.js';
import { required } from '../db/fields.js';

/**
 * The debate and the adjudicator as agenda jobs (`qrelay serve`), with status and progress
 * in `llm_jobs` (`_id`: a hash of the request, so the same request is the same job and a
 * job the server lost half-way resumes from its journal when run again).
 */

export const LLM_JOBS = { debate: 'llm.debate', adjudicate: 'llm.adjudicate' } as const;
export type LlmJobKind = keyof typeof LLM_JOBS;
export const LLM_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;

export const DebateRequest = z
  .object({
    candidates: z.array(CandidateInput).min(1).describe('the candidates, as the lines of a `qrelay debate` file'),
    model: z.string().min(1).optional(),
    modelA: z.string().min(1).optional(),
    modelB: z.string().min(1).optional(),
    rounds: z.number().int().min(1).max(20).default(2),
    concurrency: z.number().int().min(1).max(1000).default(8),
    temperature: z.number().min(0).max(2).default(0),
    budget: z.number().int().min(1).optional().describe('tokens'),
    prefilterModels: z.array(z.string().min(1)).default([]),
    batch: BatchName.optional().describe('import the escalations and consensus labels into this batch afterwards'),
  })
  .refine((r) => r.model !== undefined || (r.modelA !== undefined && r.modelB !== undefined), {
    message: 'model is required (or both modelA and modelB)',
    path: ['model'],
  });
export type DebateRequest = z.output<typeof DebateRequest>;

export const AdjudicateRequest = z.object({
  model: z.string().min(1),
  fillUnresolved: z.boolean().default(false),
  concurrency: z.number().int().min(1).max(1000).default(8),
  temperature: z.number().min(0).max(2).default(0),
});
export type AdjudicateRequest = z.output<typeof AdjudicateRequest>;

export interface LlmJobDoc {
  _id: string;
  kind: LlmJobKind;
  state: (typeof LLM_JOB_STATES)[number];
  batch: string | null;
  /** The request (for a debate: without the candidates, which are in its directory). */
  request: Record<string, unknown>;
  /** Debate: the output directory. */
  dir: string | null;
  progress: { done: number; total: number };
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const llmJobSchema = new Schema<LlmJobDoc>(
  {
    ...required(String, '_id', 'kind', 'state'),
    batch: { type: String, default: null },
    request: { type: Schema.Types.Mixed, required: true },
    dir: { type: String, default: null },
    progress: { type: Schema.Types.Mixed, required: true },
    result: { type: Schema.Types.Mixed, default: null },
    error: { type: String, default: null },
    ...required(Date, 'createdAt', 'updatedAt'),
  },
  { collection: collections.llmJobs, versionKey: false, minimize: false },
);

export function llmJobModel(connection: Connection): Model<LlmJobDoc> {
  return (connection.models.LlmJob as Model<LlmJobDoc> | undefined) ?? connection.model<LlmJobDoc>('LlmJob', llmJobSchema);
}

const jobId = (kind: LlmJobKind, value: unknown) =>
  `${kind}-${createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 20)}`;

export interface LlmJobsOptions {
  ctx: PipelineContext;
  config: Config;
  logger: Logger;
}

/** Records the job (unless the same request has one that is queued, running or done) and queues it. */
async function queue(
  agenda: Agenda,
  jobs: Model<LlmJobDoc>,
  doc: Omit<LlmJobDoc, 'state' | 'progress' | 'result' | 'error' | 'createdAt' | 'updatedAt'>,
  now: Date,
): Promise<LlmJobDoc> {
  const existing = await jobs.findById(doc._id).lean();
  if (existing && existing.state !== 'failed') return existing;
  const fresh: LlmJobDoc = {
    ...doc,
    state: 'queued',
    progress: { done: 0, total: 0 },
    result: null,
    error: null,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
  await jobs.replaceOne({ _id: doc._id }, fresh, { upsert: true });
  await agenda.now(LLM_JOBS[doc.kind], { id: doc._id });
  return fresh;
}

export async function queueDebate(agenda: Agenda, opts: LlmJobsOptions, request: DebateRequest): Promise<LlmJobDoc> {
  const id = jobId('debate', request);
  const dir = join(opts.config.dataDir, 'debates', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'candidates.jsonl'), request.candidates.map((c) => `${JSON.stringify(c)}\n`).join(''));
  const { candidates, ...rest } = request;
  return queue(
    agenda,
    llmJobModel(opts.ctx.models.batches.db),
    { _id: id, kind: 'debate', batch: request.batch ?? null, request: { ...rest, candidates: candidates.length }, dir },
    opts.ctx.now(),
  );
}

export async function queueAdjudication(
  agenda: Agenda,
  opts: LlmJobsOptions,
  batch: string,
  request: AdjudicateRequest,
): Promise<LlmJobDoc> {
  // A fresh id per request time: an adjudication reads the batch as it is now.
  const id = jobId('adjudicate', { batch, request, at: opts.ctx.now().toISOString() });
  return queue(agenda, llmJobModel(opts.ctx.models.batches.db), { _id: id, kind: 'adjudicate', batch, request, dir: null }, opts.ctx.now());
}

export function defineLlmJobs(agenda: Agenda, opts: LlmJobsOptions): void {
  const { ctx, config, logger } = opts;
  const jobs = () => llmJobModel(ctx.models.batches.db);
  const llm = { apiKey: config.env.OPENAI_API_KEY, baseURL: config.env.OPENAI_BASE_URL };

  /** Progress is written at most once a second (and at the end). */
  const progressWriter = (id: string) => {
    let last = 0;
    return (done: number, total: number) => {
      const now = Date.now();
      if (done < total && now - last < 1000) return;
      last = now;
      void jobs()
        .updateOne({ _id: id }, { $set: { progress: { done, total }, updatedAt: new Date() } })
        .catch((err: unknown) => logger.warn({ err }, 'job progress not recorded'));
    };
  };

  const run = async (id: string, work: (doc: LlmJobDoc) => Promise<Record<string, unknown>>) => {
    const doc = await jobs().findById(id).lean();
    if (!doc || doc.state === 'done') return;
    await jobs().updateOne({ _id: id }, { $set: { state: 'running', error: null, updatedAt: ctx.now() } });
    try {
      const result = await work(doc);
      await jobs().updateOne({ _id: id }, { $set: { state: 'done', result, updatedAt: ctx.now() } });
      logger.info({ id, kind: doc.kind }, 'LLM job done');
    } catch (err) {
      // A person must act (key, model, budget, input): recorded, not retried.
      const error = err instanceof UserError ? err.message : `unexpected error: ${errorMessage(err)}`;
      await jobs().updateOne({ _id: id }, { $set: { state: 'failed', error, updatedAt: ctx.now() } });
      logger.warn({ id, kind: doc.kind, error }, 'LLM job failed');
    }
  };

  const common = { concurrency: 1, lockLifetime: 60 * 60_000 };

  agenda.define<{ id: string }>(
    LLM_JOBS.debate,
    async (job) =>
      run(job.attrs.data.id, async (doc) => {
        const r = doc.request as Omit<DebateRequest, 'candidates'>;
        const dir = doc.dir!;
        // Loaded when a job runs: processes that start none need not load the openai SDK.
        const [{ runDebate }, { importDebateOutputs }] = await Promise.all([import('./run.js'), import('./import-outputs.js')]);
        const summary = await runDebate({
          candidates: join(dir, 'candidates.jsonl'),
          out: dir,
          modelA: (r.modelA ?? r.model)!,
          modelB: (r.modelB ?? r.model)!,
          rounds: r.rounds,
          concurrency: r.concurrency,
          temperature: r.temperature,
          ...(r.budget !== undefined && { budgetTokens: r.budget }),
          prefilterModels: r.prefilterModels,
          llm: { ...llm, modelOption: () => "the request's model" },
          prices: loadPriceTable(config.env.QRELAY_LLM_PRICES),
          onProgress: progressWriter(doc._id),
        });
        const imported = r.batch !== undefined ? await importDebateOutputs(ctx, r.batch, summary) : undefined;
        return { ...summary, ...(imported && { imported }) };
      }),
    common,
  );

  agenda.define<{ id: string }>(
    LLM_JOBS.adjudicate,
    async (job) =>
      run(job.attrs.data.id, async (doc) => {
        const r = doc.request as AdjudicateRequest;
        const { adjudicateBatch } = await import('./adjudicate.js');
        const result = await adjudicateBatch(ctx, {
          batch: doc.batch!,
          model: r.model,
          fillUnresolved: r.fillUnresolved,
          concurrency: r.concurrency,
          temperature: r.temperature,
          journalDir: join(config.dataDir, 'llm'),
          llm,
          prices: loadPriceTable(config.env.QRELAY_LLM_PRICES),
          onProgress: progressWriter(doc._id),
        });
        return { ...result };
      }),
    common,
  );
}
