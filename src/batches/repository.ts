import type { AssignmentDoc, BatchDoc, HitDoc, PipelineModels } from '../db/models/index.js';
import { BatchNotFound } from './errors.js';
import { checkBatchName } from './names.js';

/**
 * Reading a batch and its HITs and assignments: the one place stages, the CLI, the API,
 * exports and the demo read them from (they used to import the publish or aggregate stage
 * for it).
 */

/** What reading a batch takes of a PipelineContext: its models. */
interface BatchReader {
  readonly models: Pick<PipelineModels, 'batches' | 'hits' | 'assignments'>;
}

export async function requireBatch(ctx: BatchReader, batch: string): Promise<BatchDoc> {
  checkBatchName(batch, 'batch');
  const doc = await ctx.models.batches.findById(batch).lean<BatchDoc>();
  if (!doc) throw new BatchNotFound(batch);
  return { ...doc, settings: doc.settings ?? null, plan: doc.plan ?? null, hitTypeId: doc.hitTypeId ?? null };
}

export interface BatchData {
  hits: HitDoc[];
  assignments: AssignmentDoc[];
}

export async function loadBatchData(ctx: BatchReader, batch: string): Promise<BatchData> {
  const [hits, assignments] = await Promise.all([
    loadBatchHits(ctx, batch),
    ctx.models.assignments.find({ batch }).lean<AssignmentDoc[]>(),
  ]);
  return { hits, assignments };
}

/** The batch's HITs in their order (after publishing some: its assignments did not change). */
export async function loadBatchHits(ctx: BatchReader, batch: string): Promise<HitDoc[]> {
  return (await ctx.models.hits.find({ batch }).lean<HitDoc[]>()).sort((a, b) => a.index - b.index);
}

/** A new batch as import creates it: a draft, nothing planned or published yet. */
export function draftBatch(id: string, now: Date) {
  return {
    _id: id,
    state: 'draft' as const,
    createdAt: now,
    updatedAt: now,
    settings: null,
    plan: null,
    hitTypeId: null,
    qualificationIds: {},
    reposts: 0,
    summary: null,
  };
}
