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
  /** The `_id`s of the documents the upserts inserted. */
  upsertedIds: unknown[];
}

/** What the helper needs of a mongoose model. */
interface BulkWriter<Op> {
  bulkWrite(
    ops: Op[],
    options: { ordered: boolean },
  ): Promise<{ matchedCount: number; upsertedCount: number; upsertedIds: Record<number, unknown> }>;
}

export async function bulkWriteSliced<Op>(model: BulkWriter<Op>, ops: readonly Op[]): Promise<BulkCounts> {
  const counts: BulkCounts = { matched: 0, upserted: 0, upsertedIds: [] };
  for (let i = 0; i < ops.length; i += BULK_SLICE) {
    const result = await model.bulkWrite(ops.slice(i, i + BULK_SLICE), { ordered: false });
    counts.matched += result.matchedCount;
    counts.upserted += result.upsertedCount;
    counts.upsertedIds.push(...Object.values(result.upsertedIds));
  }
  return counts;
}
