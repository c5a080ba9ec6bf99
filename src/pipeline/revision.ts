import type { BatchDoc } from '../db/models/index.js';
import type { PipelineContext } from './context.js';
import { BatchNotFound } from './errors.js';

/**
 * A batch's revision: bumped by every change to its HITs, assignments or labels that does
 * not already write the batch document (a collection round when it ends, a HIT created,
 * expired or deleted). With the batch document's own fields it makes the batch's
 * fingerprint, on which the API's snapshots of status and report are keyed: one lookup by
 * `_id` tells whether a snapshot still holds, in this process or any other on the database.
 */
export async function touchBatch(ctx: PipelineContext, batch: string): Promise<void> {
  await ctx.models.batches.updateOne({ _id: batch }, { $inc: { revision: 1 } });
}

/**
 * A decision taken by hand changed: only the report lists those, so it has its own counter,
 * and the status (and the report's costly parts, which follow the crowd's votes) stay as
 * they are (src/api/answers.ts).
 */
export async function touchManualLabels(ctx: PipelineContext, batch: string): Promise<void> {
  await ctx.models.batches.updateOne({ _id: batch }, { $inc: { manualRevision: 1 } });
}

/** The fields of a batch document the fingerprints read (a projection for the lookup). */
export const FINGERPRINT_FIELDS = { state: 1, updatedAt: 1, revision: 1, roundOwner: 1, reposts: 1, manualRevision: 1 } as const;

/** Changes whenever anything a status or report reads of the batch may have changed. */
export function batchFingerprint(doc: Pick<BatchDoc, 'state' | 'updatedAt' | 'revision' | 'roundOwner' | 'reposts'>): string {
  return [doc.state, new Date(doc.updatedAt).getTime(), doc.revision ?? 0, doc.roundOwner ?? '', doc.reposts ?? 0].join('|');
}

export interface BatchFingerprints {
  /** Of everything but the decisions taken by hand (batchFingerprint). */
  batch: string;
  /** Of the decisions taken by hand. */
  manual: number;
}

/** The batch's fingerprints from one lookup by `_id`; BatchNotFound when there is no such batch. */
export async function readBatchFingerprint(ctx: PipelineContext, batch: string): Promise<BatchFingerprints> {
  const doc = await ctx.models.batches
    .findById(batch, FINGERPRINT_FIELDS)
    .lean<Pick<BatchDoc, 'state' | 'updatedAt' | 'revision' | 'roundOwner' | 'reposts' | 'manualRevision'>>();
  if (!doc) throw new BatchNotFound(batch);
  return { batch: batchFingerprint(doc), manual: doc.manualRevision ?? 0 };
}
