import { buildLabels, loadBatchData, type BatchAggregation, type BatchData } from '../batches/index.js';
import type { BatchDoc, LabelDoc } from '../db/models/index.js';
import { bulkWriteSliced } from './bulk.js';
import type { PipelineContext } from './context.js';

/**
 * Aggregate: labels from the valid votes (majority of the first `voteTarget`, or
 * Dawid–Skene), Fleiss κ and Krippendorff α over the same votes (null with a reason when
 * undefined), per-worker statistics. Writes one label per real item and the batch's
 * summary; `write: false` computes the same without writing (status, REST reads).
 */

/** A label's content, without its timestamp: what decides whether it must be written again. */
const labelContent = ({ updatedAt: _at, ...rest }: LabelDoc) => JSON.stringify(rest);

export async function aggregateBatch(ctx: PipelineContext, doc: BatchDoc, data?: BatchData): Promise<BatchAggregation> {
  const result = buildLabels(doc, data ?? (await loadBatchData(ctx, doc._id)), ctx.now());
  // only labels that changed are written: a round usually changes a few
  const stored = new Map(
    (await ctx.models.labels.find({ batch: doc._id }).lean<LabelDoc[]>()).map((l) => [
      l._id,
      labelContent({ ...l, probabilities: l.probabilities ?? null }),
    ]),
  );
  const changed = result.labels.filter((l) => stored.get(l._id) !== labelContent(l));
  if (changed.length > 0) {
    await bulkWriteSliced(
      ctx.models.labels,
      changed.map(({ _id, ...label }) => ({ updateOne: { filter: { _id }, update: { $set: label }, upsert: true } })),
    );
  }
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { summary: result.summary, updatedAt: ctx.now() } });
  return result;
}
