import { CrowdCallError } from '../crowd/call-error.js';
import type { BatchDoc, BatchSettings, HitDoc } from '../db/models/index.js';
import { collectBatch, type CollectResult } from './collect.js';
import type { PipelineContext } from './context.js';
import { BatchStateError } from './errors.js';
import { requireBatch } from '../batches/index.js';
import { touchBatch } from './revision.js';

/**
 * `qrelay expire`: stop a batch early. Every HIT still offered is expired on the platform
 * (work already accepted may still be submitted, and is collected and reviewed), HITs not
 * created yet are dropped, and the batch stops asking for more votes.
 *
 * `qrelay cleanup`: once nothing is outstanding, delete the batch's HITs on the platform
 * (DeleteHIT needs every submitted assignment approved or rejected) and drop their stored
 * questions; votes, labels and the plan summary stay.
 */

export interface ExpireResult {
  batch: string;
  expired: number;
  dropped: number;
  collect: CollectResult;
}

function notPublished(batch: string): BatchStateError {
  return new BatchStateError(`batch ${batch} is not published: there is nothing to expire or clean up`);
}

export async function expireBatch(ctx: PipelineContext, batch: string): Promise<ExpireResult> {
  const doc = await requireBatch(ctx, batch);
  if (!doc.settings) throw notPublished(batch);
  if (doc.state === 'closed') throw new BatchStateError(`batch ${batch} is already closed`);
  const backend = ctx.backend(doc.settings.target);
  // the state first: no round started from now on asks for more work
  await ctx.models.batches.updateOne({ _id: batch }, { $set: { state: 'expired', expiredAt: ctx.now(), updatedAt: ctx.now() } });
  const hits = await ctx.models.hits.find({ batch }).lean<HitDoc[]>();
  let expired = 0;
  let dropped = 0;
  for (const hit of hits) {
    if (hit.state === 'planned') {
      await ctx.models.hits.updateOne(
        { _id: hit._id, state: 'planned' },
        { $set: { state: 'deleted', lastError: 'dropped: the batch was expired before this HIT was created' } },
      );
      dropped++;
    } else if (hit.state === 'published' && hit.hitId) {
      await backend.expireHit(hit.hitId);
      await ctx.models.hits.updateOne({ _id: hit._id, state: 'published' }, { $set: { state: 'expired' } });
      expired++;
    }
  }
  ctx.progress(`batch ${batch}: ${expired} HITs expired${dropped ? `, ${dropped} not created` : ''}`);
  // a HIT whose request may have reached the platform is created (same token) and expired
  const collect = await collectBatch(ctx, batch);
  for (const hit of await ctx.models.hits.find({ batch, state: 'published' }).lean<HitDoc[]>()) {
    await backend.expireHit(hit.hitId as string);
    await ctx.models.hits.updateOne({ _id: hit._id }, { $set: { state: 'expired' } });
    expired++;
  }
  await touchBatch(ctx, batch);
  return { batch, expired, dropped, collect };
}

export interface CleanupResult {
  batch: string;
  deleted: number;
  /** HITs the platform could not delete yet (work outstanding), with its reason. */
  remaining: Array<{ hit: string; reason: string }>;
  closed: boolean;
}

export async function cleanupBatch(ctx: PipelineContext, batch: string): Promise<CleanupResult> {
  let doc: BatchDoc = await requireBatch(ctx, batch);
  if (!doc.settings) throw notPublished(batch);
  if (doc.state === 'publishing' || doc.state === 'collecting') {
    throw new BatchStateError(`batch ${batch} is still ${doc.state}: wait until it is complete, or stop it first (qrelay expire ${batch})`);
  }
  if (doc.state !== 'closed') {
    await collectBatch(ctx, batch); // every submitted assignment in and reviewed
    doc = await requireBatch(ctx, batch);
  }
  const backend = ctx.backend((doc.settings as BatchSettings).target);
  const hits = (await ctx.models.hits.find({ batch }).lean<HitDoc[]>()).filter((h) => h.hitId && h.state !== 'deleted');
  const result: CleanupResult = { batch, deleted: 0, remaining: [], closed: false };
  for (const hit of hits) {
    try {
      await backend.deleteHit(hit.hitId as string);
    } catch (err) {
      if (err instanceof CrowdCallError && err.failure.kind === 'request-error') {
        result.remaining.push({ hit: hit._id, reason: err.failure.message });
        continue;
      }
      throw err;
    }
    await ctx.models.hits.updateOne({ _id: hit._id }, { $set: { state: 'deleted' } });
    await ctx.models.hitQuestions.deleteOne({ _id: hit._id });
    result.deleted++;
  }
  if (result.remaining.length === 0) {
    await ctx.models.batches.updateOne({ _id: batch }, { $set: { state: 'closed', closedAt: ctx.now(), updatedAt: ctx.now() } });
    result.closed = true;
  } else {
    await touchBatch(ctx, batch);
  }
  ctx.progress(
    `batch ${batch}: ${result.deleted} HITs deleted${result.remaining.length ? `, ${result.remaining.length} not yet (work outstanding): run cleanup again later` : ', batch closed'}`,
  );
  return result;
}
