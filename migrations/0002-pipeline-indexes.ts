import type { Db } from 'mongodb';
import { collections } from '../src/db/collections.js';

export const description = 'indexes for the escalation pipeline (batch lookups)';

/**
 * createIndex is idempotent for an identical definition, so this migration is safe to
 * re-run. MongoDB uses these; the dev database keeps them but scans non-_id filters.
 */
export async function up(db: Db): Promise<void> {
  for (const name of [
    collections.imports,
    collections.items,
    collections.gold,
    collections.consensus,
    collections.hits,
    collections.assignments,
    collections.labels,
  ]) {
    await db.collection(name).createIndex({ batch: 1 }, { name: 'batch' });
  }
  await db.collection(collections.assignments).createIndex({ batch: 1, reviewState: 1 }, { name: 'batch_reviewState' });
  await db.collection(collections.hits).createIndex({ batch: 1, state: 1 }, { name: 'batch_state' });
}
