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

/**
 * `concurrency`: slices in flight at once (default one); after a failure no slice starts, and
 * the ones in flight are waited for (see inChunks).
 */
export async function bulkWriteSliced<Op>(
  model: BulkWriter<Op>,
  ops: readonly Op[],
  opts: { concurrency?: number } = {},
): Promise<BulkCounts> {
  const counts: BulkCounts = { matched: 0, upserted: 0 };
  await inChunks(ops, BULK_SLICE, opts.concurrency ?? 1, async (slice) => {
    const result = await model.bulkWrite(slice, { ordered: false });
    counts.matched += result.matchedCount;
    counts.upserted += result.upsertedCount;
  });
  return counts;
}

/** What an insert of new documents needs: a driver collection (a mongoose model's `collection`). */
interface InsertCollection {
  insertMany(docs: readonly object[], options: { ordered: boolean; ignoreUndefined?: boolean }): Promise<unknown>;
}

/**
 * Documents per `insertMany` call. The driver splits a call into batches of the server's
 * maxWriteBatchSize (50 on the dev database) and, after each batch, rebuilds its result's
 * map of every id inserted so far: one call of 40,000 documents spent some 2.7 s of CPU on
 * that alone (quadratic in the batches). Calls of this size keep it negligible.
 */
export const INSERT_CHUNK = 1000;

/**
 * Chunks or slices a large write keeps in flight when its caller asks for more than one at a
 * time: the driver serializes one while the database writes another. On the dev database a
 * round's 800 label updates took a tenth less three slices at a time than one after another;
 * the 40,560-case copy (its reads also side by side) went from 16-17 s to 11-14 s.
 */
export const WRITES_IN_FLIGHT = 3;

/**
 * Runs `write` on `docs` in chunks of `size`, `concurrency` chunks at a time (at least
 * one; see WRITES_IN_FLIGHT). After a failure no further chunk starts; the ones in flight
 * are waited for, then the first failure is thrown.
 */
async function inChunks<D>(docs: readonly D[], size: number, concurrency: number, write: (chunk: D[]) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < docs.length) {
      const at = next;
      next += size;
      await write(docs.slice(at, at + size)).catch((err: unknown) => {
        failed = true;
        throw err;
      });
    }
  };
  const lanes = Array.from({ length: Math.min(Math.max(1, concurrency), Math.ceil(docs.length / size)) }, lane);
  const settled = await Promise.allSettled(lanes);
  const failure = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * Inserts documents already in their stored form (read lean from collections of the same
 * schema, as a batch's copy does) through the driver, unordered: no mongoose document is
 * built per row to cast, validate and default what is stored already (about a second of
 * CPU for a 4,000-item batch's copy). A document stored already (duplicate key) fails the
 * insert, as through mongoose. Inserted in calls of INSERT_CHUNK documents, `concurrency` of
 * them at a time (default one).
 */
export async function insertStoredForm(
  collection: InsertCollection,
  docs: readonly object[],
  opts: { concurrency?: number } = {},
): Promise<void> {
  await inChunks(docs, INSERT_CHUNK, opts.concurrency ?? 1, async (chunk) => {
    await collection.insertMany(chunk, { ordered: false, ignoreUndefined: true });
  });
}

const DUPLICATE_KEY = 11000;

/**
 * Inserts documents unordered and answers the `_id`s refused as stored already (duplicate
 * key); any other failure is thrown (see inChunks). Inserted in calls of INSERT_CHUNK
 * documents, `concurrency` of them at a time (default one).
 */
export async function insertRefusingStored<D extends { _id: string }>(
  collection: InsertCollection,
  docs: readonly D[],
  options: { ignoreUndefined?: boolean; concurrency?: number } = {},
): Promise<Set<string>> {
  const refused = new Set<string>();
  const { concurrency = 1, ...driver } = options;
  await inChunks(docs, INSERT_CHUNK, concurrency, async (chunk) => {
    try {
      await collection.insertMany(chunk, { ordered: false, ...driver });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as { code?: number; index: number }[];
      if (list.length === 0 || list.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      // the driver names each refused document by its index in this call's chunk
      for (const e of list) refused.add(chunk[e.index]!._id);
    }
  });
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
  opts: { concurrency?: number } = {},
): Promise<Set<string>> {
  const refused = await insertRefusingStored(model.collection, docs, { ignoreUndefined: true, ...opts });
  return new Set(docs.flatMap((d) => (refused.has(d._id) ? [] : [d._id])));
}
