import type { BatchData } from '../batches/index.js';
import type { BatchDoc, LabelDoc } from '../db/models/index.js';
import type { LastLabels } from '../batches/labels.js';
import type { ReputationRecord } from '../quality/reputation.js';

/**
 * What a collection round leaves for the next round of the same batch in this process: the
 * batch's HITs and assignments as the round left them in the database, and the content of
 * every label it holds. The next round starts from them instead of reading the whole batch
 * and all its labels again (the dev database scans a collection for any filter but a lone
 * `_id`, and a 4,056-case batch runs some 65 rounds), so that a round costs what changed.
 *
 * It is kept only while nobody else can have changed the batch: every writer of a batch's
 * HITs, assignments or labels bumps its `revision` (HITs created, expired or deleted;
 * aggregation, which every override and manual label ends with; the round itself when it
 * ends), so a round remembers what it leaves only when the batch's revision when its lease
 * is released is exactly what its own two bumps make of the revision it claimed (aggregation
 * and release; a round that published HITs bumps more, and leaves nothing), and the next
 * round uses it only if it claims the batch at that very revision. A batch made anew under
 * the same name (`simulate --replace`), or published anew (the demo's in-place simulation),
 * has another creation or publishing time, which the stamp includes.
 * Several processes on one database each keep their own memory; a change by one moves the
 * revision, and the others read the batch again.
 */

export interface RoundMemory {
  data: BatchData;
  /** Label id -> its content as written (aggregate.ts's labelContent). */
  labels: Map<string, string>;
  /** Label id -> the label as built when its content was taken (aggregate.ts: unchanged labels are not serialized again). */
  built?: Map<string, LabelDoc>;
  /** The scores and labels the labels were last built from: the next round builds only those of the items they touch (aggregate.ts). */
  lastLabels?: LastLabels;
  /** Worker id -> the batch's reputation record as stored and pushed (reputation.ts). */
  reputation?: Map<string, ReputationRecord>;
  /** The reputation qualification type the round pushed with, and its target (reputation.ts). */
  reputationQualification?: { target: string; id: string };
}

/** Batches remembered at most (the least recently used is forgotten first). */
export const REMEMBERED_BATCHES = 4;

/** The bumps of the batch's revision a round that created no HIT makes: its aggregation and its release. */
export const ROUND_OWN_BUMPS = 2;

type Stamped = Pick<BatchDoc, 'createdAt'> & { publishedAt?: Date | null; revision?: number | null };

const time = (d: Date | null | undefined) => (d ? new Date(d).getTime() : 0);

/** The batch document's identity (created, published: a batch published anew is another) and revision (pure). */
export function batchStamp(doc: Stamped): string {
  return `${time(doc.createdAt)}|${time(doc.publishedAt)}|${doc.revision ?? 0}`;
}

/** Whether a round that claimed the batch at `claimed` and released it at `released` was alone in changing it (pure). */
export function changedOnlyByRound(claimed: Stamped, released: Stamped): boolean {
  return (
    time(claimed.createdAt) === time(released.createdAt) &&
    time(claimed.publishedAt) === time(released.publishedAt) &&
    (released.revision ?? 0) === (claimed.revision ?? 0) + ROUND_OWN_BUMPS
  );
}

export class RoundMemories {
  private readonly kept = new Map<string, { stamp: string; memory: RoundMemory }>();

  constructor(private readonly limit = REMEMBERED_BATCHES) {}

  /** Takes what the last round left for `key` if the batch is still at `stamp`; forgets it either way. */
  take(key: string, stamp: string): RoundMemory | undefined {
    const memory = this.peek(key, stamp);
    this.kept.delete(key);
    return memory;
  }

  /** What the last round left for `key` if the batch is still at `stamp`, kept for the next round. */
  peek(key: string, stamp: string): RoundMemory | undefined {
    const entry = this.kept.get(key);
    return entry?.stamp === stamp ? entry.memory : undefined;
  }

  keep(key: string, stamp: string, memory: RoundMemory): void {
    this.kept.delete(key);
    this.kept.set(key, { stamp, memory });
    while (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
  }

  get size(): number {
    return this.kept.size;
  }
}
