import type { BatchData } from '../batches/index.js';
import type { CrowdPlatform } from '../crowd/platform.js';
import { CrowdCallError } from '../crowd/call-error.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc, ReviewOutcome, ReviewRecord } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { decideWithStanding, scoreAttentionChecks, type ReviewDecision, type WorkerStanding } from '../quality/index.js';
import { handOver } from './alongside.js';
import type { PipelineContext } from './context.js';
import { BULK_SLICE, bulkWriteSliced, insertMissing } from './bulk.js';
import { asInserted } from './reconcile.js';
import { mapPool } from './pool.js';
import { assignmentRecord, hitRecord } from './votes.js';

/**
 * Review: an assignment counts only if it passes every attention check of its HIT (the
 * DREAM protocol); one that fails is rejected with feedback or approved and discarded, as
 * the batch's policy says. Every assignment is approved or rejected exactly once, also
 * across crashes: the decision is recorded first (`decided`), then sent (approve and
 * reject are repeat-safe: a repeat finds the platform already agreeing), then marked
 * `done`. A restart finds `decided` assignments and sends them again. An assignment the
 * platform approved by itself before we could reject it (its auto-approval delay passed)
 * is recorded as `auto-approved`, and its votes stay discarded.
 */

export interface ReviewResult {
  decided: number;
  approved: number;
  discarded: number;
  rejected: number;
  autoApproved: number;
}

/** The decision for one stored assignment, in the light of its worker's standing in the batch (pure). */
export function decide(
  assignment: AssignmentDoc,
  hit: HitDoc,
  settings: Pick<BatchSettings, 'review'>,
  standing?: WorkerStanding,
): ReviewDecision {
  const record = hitRecord(hit);
  const score = scoreAttentionChecks(assignmentRecord(assignment).answers, record.checks);
  const decision = decideWithStanding(score, standing, settings.review);
  if (!assignment.parseError) return decision;
  return { ...decision, reason: `the answer could not be read (${assignment.parseError}); ${decision.reason}` };
}

async function platformStatus(backend: CrowdPlatform, a: AssignmentDoc): Promise<string | undefined> {
  return (await backend.listAssignments(a.hitId)).find((x) => x.assignmentId === a._id)?.status;
}

/** Sends a recorded decision; returns what the platform now holds. */
async function send(backend: CrowdPlatform, a: AssignmentDoc, review: ReviewRecord): Promise<ReviewOutcome> {
  if (review.action !== 'reject') {
    await backend.approveAssignment(a._id, review.feedback ?? undefined);
    return 'approved';
  }
  try {
    await backend.rejectAssignment(a._id, review.feedback ?? 'This assignment did not pass the quality checks.');
    return 'rejected';
  } catch (err) {
    // the auto-approval delay ran out before we got to it: it is paid, its votes stay out
    if (err instanceof CrowdCallError && err.failure.kind === 'request-error' && (await platformStatus(backend, a)) === 'Approved')
      return 'auto-approved';
    throw err;
  }
}

/** What a sent decision leaves on its assignment (written in bulk, by `_id` alone). */
function doneFields(outcome: ReviewOutcome, at: Date) {
  return { reviewState: 'done' as const, outcome, reviewedAt: at, platformStatus: outcome === 'rejected' ? 'Rejected' : 'Approved' };
}

/**
 * Reviews the batch's assignments not yet done. Given the round's `data`, it reads nothing
 * of the batch again and leaves `data` as the database holds it (decisions and outcomes).
 * `held`: new assignments of `data` the round's reconcile left for the review to store
 * (reconcile.ts): each is inserted with its decision, one write where an insert and then an
 * update were two (an update costs the dev database several times an insert: it queries first).
 * `pending`: the `done` marks (written after their calls were sent) are started and added
 * there rather than awaited; the caller awaits them before its round ends.
 */
export async function reviewBatch(
  ctx: PipelineContext,
  doc: BatchDoc,
  standings: ReadonlyMap<string, WorkerStanding> = new Map(),
  data?: BatchData,
  held: readonly AssignmentDoc[] = [],
  pending?: Promise<void>[],
): Promise<ReviewResult> {
  const settings = doc.settings as BatchSettings;
  const backend = ctx.backend(settings.target);
  const hits = new Map((data?.hits ?? (await ctx.models.hits.find({ batch: doc._id }).lean<HitDoc[]>())).map((h) => [h._id, h]));
  const open = (
    data
      ? data.assignments.filter((a) => a.reviewState !== 'done')
      : await ctx.models.assignments.find({ batch: doc._id, reviewState: { $ne: 'done' } }).lean<AssignmentDoc[]>()
  ).sort((a, b) => (a._id < b._id ? -1 : 1));
  const result: ReviewResult = { decided: 0, approved: 0, discarded: 0, rejected: 0, autoApproved: 0 };

  // 1. every new decision recorded before any is sent, in bulk writes filtered by `_id` alone:
  // the dev database answers a lone `_id` from its index but scans the whole collection for
  // `{_id, review: null}`, once per assignment (the round's cost grew with the batch squared).
  // The batch's round lease keeps other rounds out; an override recorded meanwhile still
  // decides the votes (its `override` field wins over `review`) and sends its own call.
  const decisions: { a: AssignmentDoc; review: ReviewRecord }[] = [];
  for (const a of open) {
    if (a.review) continue;
    const hit = hits.get(a.hit);
    if (!hit) throw new UserError(`assignment ${a._id} belongs to HIT ${a.hit}, which batch ${doc._id} does not hold`);
    const d = decide(a, hit, settings, standings.get(a.workerId));
    decisions.push({
      a,
      review: { action: d.action, countsVotes: d.countsVotes, reason: d.reason, feedback: d.feedback, decidedAt: ctx.now() },
    });
  }
  // the held ones inserted with their decision (the model's cast, as the round keeps them);
  // one stored meanwhile is refused as it is and updated like any other
  const heldIds = new Set(held.map((a) => a._id));
  const newcomers = decisions.filter(({ a }) => heldIds.has(a._id));
  const cast = new Map(newcomers.map(({ a, review }) => [a._id, asInserted(ctx, { ...a, review, reviewState: 'decided' })]));
  const inserted = await insertMissing(ctx.models.assignments, [...cast.values()]);
  const updates = decisions.filter(({ a }) => !inserted.has(a._id));
  await bulkWriteSliced(
    ctx.models.assignments,
    updates.map(({ a, review }) => ({
      updateOne: { filter: { _id: a._id }, update: { $set: { review, reviewState: 'decided' as const } } },
    })),
  );
  for (const { a, review } of decisions) {
    a.review = inserted.has(a._id) ? cast.get(a._id)!.review : review;
    a.reviewState = 'decided';
  }
  result.decided = decisions.length;

  // 2. sent (repeat-safe), then marked done a slice at a time: a crash between the two sends again
  for (let i = 0; i < open.length; i += BULK_SLICE) {
    const slice = open.slice(i, i + BULK_SLICE);
    const outcomes: (ReviewOutcome | undefined)[] = new Array(slice.length);
    let failure: { err: unknown; a: AssignmentDoc } | undefined;
    await mapPool(slice, settings.concurrency, async (a, n) => {
      try {
        outcomes[n] = await send(backend, a, a.review as ReviewRecord);
      } catch (err) {
        failure ??= { err, a };
        throw err;
      }
    }).catch(() => undefined);
    const sent = slice.flatMap((a, n) => (outcomes[n] ? [{ a, outcome: outcomes[n] }] : []));
    const done = sent.map(({ a, outcome }) => ({ a, fields: doneFields(outcome, ctx.now()) }));
    const marks = bulkWriteSliced(
      ctx.models.assignments,
      done.map(({ a, fields }) => ({ updateOne: { filter: { _id: a._id }, update: { $set: fields } } })),
    );
    if (pending) handOver(pending, marks);
    else await marks;
    for (const { a, fields } of done) Object.assign(a, fields);
    for (const { a, outcome } of sent) {
      if (outcome === 'rejected') result.rejected++;
      else if (outcome === 'auto-approved') result.autoApproved++;
      else if (a.review?.countsVotes) result.approved++;
      else result.discarded++;
    }
    if (failure) {
      // the marks of what was sent are written before the failure goes up: none is left in flight
      if (pending) await Promise.allSettled(pending);
      const { err, a } = failure;
      if (err instanceof CrowdCallError)
        throw new UserError(`reviewing assignment ${a._id} of batch ${doc._id}: ${err.message}; run review again to continue`, {
          cause: err,
        });
      throw err;
    }
  }
  if (open.length > 0) {
    ctx.progress(
      `batch ${doc._id}: reviewed ${open.length} assignments (${result.approved} approved, ${result.discarded} approved and discarded, ${result.rejected} rejected)`,
    );
  }
  return result;
}
