import { buildLabels, loadBatchData, type BatchAggregation, type BatchData } from '../batches/index.js';
import { buildLabelsSince, type LastLabels } from '../batches/labels.js';
import type { BatchDoc, LabelDoc } from '../db/models/index.js';
import { bulkWriteSliced, insertMissing, WRITES_IN_FLIGHT } from './bulk.js';
import { handOver } from './alongside.js';
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
export const labelContent = ({ updatedAt: _at, ...rest }: LabelDoc) => JSON.stringify(rest, sortedKeys);

/**
 * Whether two values are the same plain data (objects by their own keys, arrays by their
 * elements, anything else by ===): where it says so, both serialize to the same JSON with
 * sorted keys. Stricter than JSON (a key with `undefined`, a Date, NaN are never the same),
 * which only costs a serialization.
 */
function samePlainData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (a instanceof Date || b instanceof Date || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => samePlainData(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const rb = b as Record<string, unknown>;
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => Object.hasOwn(rb, k) && samePlainData((a as Record<string, unknown>)[k], rb[k]));
}

/** Whether two labels are the same plain data but for `updatedAt` (samePlainData of both without it, with no copies made). */
function sameButTimestamp(a: LabelDoc, b: LabelDoc): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  let keys = 0;
  for (const k of Object.keys(ra)) {
    if (k === 'updatedAt') continue;
    if (!Object.hasOwn(rb, k) || !samePlainData(ra[k], rb[k])) return false;
    keys++;
  }
  for (const k of Object.keys(rb)) if (k !== 'updatedAt') keys--;
  return keys === 0;
}

/**
 * Each label's content (pure), reusing the content of the same label as built last time
 * (`last`: the contents and the labels they were taken from) where nothing but its timestamp
 * changed: serializing every label each round was a cost growing with the batch.
 */
export function labelContents(
  labels: readonly LabelDoc[],
  last: { contents?: ReadonlyMap<string, string>; built?: ReadonlyMap<string, LabelDoc> } = {},
): Map<string, string> {
  return new Map(
    labels.map((l) => {
      const before = last.built?.get(l._id);
      const content = last.contents?.get(l._id);
      const same = before && content !== undefined && sameButTimestamp(before, l);
      return [l._id, same ? content : labelContent(l)];
    }),
  );
}

/**
 * Computes and writes the batch's labels and summary. `known`: the content of every stored
 * label as a collection round left it (round-memory.ts), in place of reading them all, and
 * `built` the labels it was made from; both are brought up to date with what this call
 * writes. With `last` (the scores and labels of the last round's build), only the labels of
 * the items whose votes changed since are built and compared (batches/labels.ts
 * buildLabelsSince): a round's new work touches a few items of the batch. The batch's revision is bumped: whoever
 * aggregates (a round, an override, a manual label) has changed what the labels come from.
 * `pending`: the writes are started and added there rather than awaited (a collection round
 * goes on with its reputation meanwhile, and awaits them before it ends).
 */
export async function aggregateBatch(
  ctx: PipelineContext,
  doc: BatchDoc,
  data?: BatchData,
  known?: { labels?: Map<string, string>; built?: Map<string, LabelDoc>; last?: LastLabels },
  pending?: Promise<void>[],
): Promise<BatchAggregation> {
  const batchData = data ?? (await loadBatchData(ctx, doc._id));
  // labels built since the last round only with its stored contents to compare them with
  const since = known?.labels ? buildLabelsSince(doc, batchData, ctx.now(), known.last) : undefined;
  const result = since?.aggregation ?? buildLabels(doc, batchData, ctx.now());
  // only labels that changed are written: a round usually changes a few
  const stored =
    known?.labels ??
    new Map(
      (await ctx.models.labels.find({ batch: doc._id }).lean<LabelDoc[]>()).map((l) => [
        l._id,
        labelContent({ ...l, probabilities: l.probabilities ?? null }),
      ]),
    );
  // the labels built now (all without `since`); the others are last round's, their contents as stored
  const fresh = since?.built ? result.labels.filter((l) => since.built!.has(l._id)) : result.labels;
  const freshContents = labelContents(fresh, {
    ...(known?.labels && { contents: known.labels }),
    ...(known?.built && { built: known.built }),
  });
  const changed = fresh.filter((l) => stored.get(l._id) !== freshContents.get(l._id));
  const writes = writeAggregation(ctx, doc, result, changed, stored);
  if (pending) handOver(pending, writes);
  else await writes;
  if (known) {
    // (the writes above took what they compare with before this returned: the contents are brought up to date in place)
    if (since?.built) for (const [id, content] of freshContents) known.labels!.set(id, content);
    else known.labels = freshContents;
    known.built = since?.next.labels ?? new Map(result.labels.map((l) => [l._id, l]));
    if (since) known.last = since.next;
  }
  return result;
}

/** The changed labels and the batch's summary written. */
async function writeAggregation(
  ctx: PipelineContext,
  doc: BatchDoc,
  result: BatchAggregation,
  changed: readonly LabelDoc[],
  stored: ReadonlyMap<string, string>,
): Promise<void> {
  // a label never stored is inserted (a batch's first round makes them all: an insert costs the
  // dev database an eighth of an upsert); one stored, or inserted meanwhile by another, is updated
  const fresh = changed.filter((l) => !stored.has(l._id));
  // a few slices at once: each label is its own document (a round of a 40,560-case batch changes some 800)
  const inserted = await insertMissing(
    ctx.models.labels,
    fresh.map((l) => new ctx.models.labels(l).toObject({ versionKey: false })),
    { concurrency: WRITES_IN_FLIGHT },
  );
  await bulkWriteSliced(
    ctx.models.labels,
    changed
      .filter((l) => !inserted.has(l._id))
      .map(({ _id, ...label }) => ({ updateOne: { filter: { _id }, update: { $set: label }, upsert: true } })),
    { concurrency: WRITES_IN_FLIGHT },
  );
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { summary: result.summary, updatedAt: ctx.now() }, $inc: { revision: 1 } });
}
