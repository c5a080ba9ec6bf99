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

/** What `insertMissing` needs of a mongoose model: its driver collection. */
interface InsertTarget {
  collection: {
    insertMany(docs: object[], options: { ordered: boolean; ignoreUndefined: boolean }): Promise<unknown>;
  };
}

/** A driver error of an unordered insert: which documents were refused, and why. */
interface InsertErrors {
  code?: number;
  writeErrors?: { index: number; code: number } | { index: number; code: number }[];
}

const DUPLICATE_KEY = 11000;

/**
 * Inserts documents whose `_id` may be stored already (a round cut off after writing some of
 * them), a slice at a time, unordered: a document whose `_id` is stored is left as it is.
 * Answers the `_id`s it inserted. The documents go to the driver as they are (cast them
 * first), undefined fields left out as the model leaves them. An insert costs the dev
 * database an eighth of an upsert (0.3 ms against 2.4 ms a document: an upsert queries
 * first), and MongoDB less too.
 */
export async function insertMissing<T extends { _id: string }>(model: InsertTarget, docs: readonly T[]): Promise<Set<string>> {
  const inserted = new Set<string>();
  for (let i = 0; i < docs.length; i += BULK_SLICE) {
    const slice = docs.slice(i, i + BULK_SLICE);
    const refused = new Set<number>();
    try {
      await model.collection.insertMany([...slice], { ordered: false, ignoreUndefined: true });
    } catch (err) {
      const { writeErrors } = err as InsertErrors;
      const errors = writeErrors === undefined ? [] : Array.isArray(writeErrors) ? writeErrors : [writeErrors];
      if (errors.length === 0 || errors.some((e) => e.code !== DUPLICATE_KEY)) throw err;
      for (const e of errors) refused.add(e.index);
    }
    slice.forEach((d, n) => {
      if (!refused.has(n)) inserted.add(d._id);
    });
  }
  return inserted;
}
