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

/** Objects with their keys sorted: the database may answer a document's fields in another order than they were written. */
const sortedKeys = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value;

/**
 * A label's content, without its timestamp: what decides whether it must be written again.
 * Key order aside (the dev database answers keys sorted): compared in write order, every
 * label differed from its stored copy and every round rewrote all of them.
 */
const labelContent = ({ updatedAt: _at, ...rest }: LabelDoc) => JSON.stringify(rest, sortedKeys);

/**
 * Computes and writes the batch's labels and summary. `known`: the content of every stored
 * label as a collection round left it (round-memory.ts), in place of reading them all; it is
 * brought up to date with what this call writes. The batch's revision is bumped: whoever
 * aggregates (a round, an override, a manual label) has changed what the labels come from.
 */
export async function aggregateBatch(
  ctx: PipelineContext,
  doc: BatchDoc,
  data?: BatchData,
  known?: { labels?: Map<string, string> },
): Promise<BatchAggregation> {
  const result = buildLabels(doc, data ?? (await loadBatchData(ctx, doc._id)), ctx.now());
  // only labels that changed are written: a round usually changes a few
  const stored =
    known?.labels ??
    new Map(
      (await ctx.models.labels.find({ batch: doc._id }).lean<LabelDoc[]>()).map((l) => [
        l._id,
        labelContent({ ...l, probabilities: l.probabilities ?? null }),
      ]),
    );
  const contents = new Map(result.labels.map((l) => [l._id, labelContent(l)]));
  const changed = result.labels.filter((l) => stored.get(l._id) !== contents.get(l._id));
  if (changed.length > 0) {
    await bulkWriteSliced(
      ctx.models.labels,
      changed.map(({ _id, ...label }) => ({ updateOne: { filter: { _id }, update: { $set: label }, upsert: true } })),
    );
  }
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { summary: result.summary, updatedAt: ctx.now() }, $inc: { revision: 1 } });
  if (known) known.labels = contents;
  return result;
}
