/**
 * Unordered bulk writes with their counts. (The dev database once stopped answering on
 * an `update` command of 100+ matching statements, a FerretDB v1.24 bug; its launcher now
 * advertises maxWriteBatchSize 50, so the driver splits batches itself, and refuses larger
 * raw commands: see tools/devdb/batchlimit.go. The slicing here is kept as a second guard
 * and bounds the size of one round trip.)
 */
export const BULK_SLICE = 50;

export interface BulkCounts {
  matched: number;
  upserted: number;
}

/** What the helper needs of a mongoose model. */
interface BulkWriter<Op> {
  bulkWrite(ops: Op[], options: { ordered: boolean }): Promise<{ matchedCount: number; upsertedCount: number }>;
}

export async function bulkWriteSliced<Op>(model: BulkWriter<Op>, ops: readonly Op[]): Promise<BulkCounts> {
  const counts: BulkCounts = { matched: 0, upserted: 0 };
  for (let i = 0; i < ops.length; i += BULK_SLICE) {
    const result = await model.bulkWrite(ops.slice(i, i + BULK_SLICE), { ordered: false });
    counts.matched += result.matchedCount;
    counts.upserted += result.upsertedCount;
  }
  return counts;
}

/** What an insert of new documents needs: a driver collection (a mongoose model's `collection`). */
interface InsertCollection {
  insertMany(docs: readonly object[], options: { ordered: boolean; ignoreUndefined?: boolean }): Promise<unknown>;
}

/**
 * Inserts documents already in their stored form (read lean from collections of the same
 * schema, as a batch's copy does) through the driver, unordered: no mongoose document is
 * built per row to cast, validate and default what is stored already (about a second of
 * CPU for a 4,000-item batch's copy). A document stored already (duplicate key) fails the
 * insert, as through mongoose.
 */
export async function insertStoredForm(collection: InsertCollection, docs: readonly object[]): Promise<void> {
  if (docs.length > 0) await collection.insertMany([...docs], { ordered: false, ignoreUndefined: true });
}

const DUPLICATE_KEY = 11000;

/**
 * Inserts documents unordered and answers the `_id`s refused as stored already (duplicate
 * key); any other failure is thrown. The driver splits the insert by the server's batch size
 * and names each refused document by its index in `docs`.
 */
export async function insertRefusingStored<D extends { _id: string }>(
  collection: InsertCollection,
  docs: readonly D[],
  options: { ignoreUndefined?: boolean } = {},
): Promise<Set<string>> {
  const refused = new Set<string>();
  if (docs.length === 0) return refused;
  try {
    await collection.insertMany([...docs], { ordered: false, ...options });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
    const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as { code?: number; index: number }[];
    if (list.length === 0 || list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
    for (const e of list) refused.add(docs[e.index]!._id);
  }
  return refused;
}

/**
 * Inserts documents whose `_id` may be stored already (a round cut off after writing some of
 * them): a document whose `_id` is stored is left as it is. Answers the `_id`s it inserted.
 * The documents go to the driver as they are (cast them first), undefined fields left out as
 * the model leaves them. An insert costs the dev database a fraction of an upsert (an upsert
 * queries first), and MongoDB less too (docs/dev-database.md).
 */
export async function insertMissing<T extends { _id: string }>(
  model: { collection: InsertCollection },
  docs: readonly T[],
): Promise<Set<string>> {
  const refused = await insertRefusingStored(model.collection, docs, { ignoreUndefined: true });
  return new Set(docs.flatMap((d) => (refused.has(d._id) ? [] : [d._id])));
}
