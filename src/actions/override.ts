import { CrowdCallError } from '../crowd/call-error.js';
import type { AssignmentDoc, BatchSettings, ReviewOutcome, ReviewOverride, ReviewRecord } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { aggregateBatch } from '../pipeline/aggregate.js';
import { requireBatch } from '../batches/index.js';
import { recordAudit } from './audit.js';
import type { ActionContext } from './context.js';
import { checkText } from './scope.js';
import { requireAssignment } from './worker-actions.js';

/**
 * `qrelay review override`: a person overturns the review of one assignment.
 * `approve`: the assignment is paid (approved, or approved over its rejection) and its votes
 * count whatever its attention checks said. `reject`: its votes never count; a submitted
 * assignment is rejected on the platform, an approved one stays paid (MTurk cannot take
 * an approval back). The decision is stored on the assignment before the platform call
 * (a repeat sends it again; approve and reject are repeat-safe), then labels, κ and α are
 * recomputed.
 */

export type OverrideDecision = 'approve' | 'reject';

export interface OverrideResult {
  assignmentId: string;
  batch: string;
  workerId: string;
  decision: OverrideDecision;
  /** What the platform now holds, and what the call did. */
  platform: 'approved' | 'approved-over-rejection' | 'already-approved' | 'rejected' | 'already-rejected' | 'kept-paid';
  countsVotes: boolean;
  summary: { items: number; labels: number; unresolved: number; fleissKappa: number | null; krippendorffAlpha: number | null };
}

/** Which platform call the decision needs, from what the platform last held (pure). */
export function overrideCall(
  decision: OverrideDecision,
  a: Pick<AssignmentDoc, 'platformStatus' | 'outcome' | 'reviewState'>,
): 'approve' | 'approve-over-rejection' | 'reject' | 'none' {
  const status = a.reviewState === 'done' ? (a.outcome === 'rejected' ? 'Rejected' : 'Approved') : a.platformStatus;
  if (decision === 'approve') return status === 'Approved' ? 'none' : status === 'Rejected' ? 'approve-over-rejection' : 'approve';
  return status === 'Submitted' ? 'reject' : 'none';
}

async function sendDecision(
  ctx: ActionContext,
  settings: BatchSettings,
  a: AssignmentDoc,
  decision: OverrideDecision,
  reason: string,
): Promise<OverrideResult['platform']> {
  const backend = ctx.pipeline.backend(settings.target);
  const call = overrideCall(decision, a);
  if (call === 'none') return decision === 'approve' ? 'already-approved' : a.outcome === 'rejected' ? 'already-rejected' : 'kept-paid';
  if (call === 'reject') return (await backend.rejectAssignment(a._id, reason)) === 'rejected' ? 'rejected' : 'already-rejected';
  const r = await backend.approveAssignment(a._id, reason, call === 'approve-over-rejection');
  return r === 'already-approved' ? 'already-approved' : call === 'approve-over-rejection' ? 'approved-over-rejection' : 'approved';
}

export async function overrideReview(
  ctx: ActionContext,
  input: { assignmentId: string; decision: OverrideDecision; reason: string },
): Promise<OverrideResult> {
  const reason = checkText(input.reason, '--reason');
  const a = await requireAssignment(ctx, input.assignmentId);
  const batch = await requireBatch(ctx.pipeline, a.batch);
  if (!batch.settings) throw new UserError(`batch ${batch._id} is not published`);
  const override: ReviewOverride = { decision: input.decision, reason, who: ctx.who, at: ctx.pipeline.now() };
  // recorded first: a crash before the call leaves the decision for a repeat to send
  const review: ReviewRecord =
    a.reviewState === 'done' && a.review
      ? a.review
      : {
          action: input.decision === 'approve' ? 'approve' : 'reject',
          countsVotes: input.decision === 'approve',
          reason: `overridden by hand: ${reason}`,
          feedback: reason,
          decidedAt: override.at,
        };
  await ctx.pipeline.models.assignments.updateOne(
    { _id: a._id },
    { $set: { override, review, reviewState: a.reviewState === 'done' ? 'done' : 'decided' } },
  );
  let platform: OverrideResult['platform'];
  try {
    platform = await sendDecision(ctx, batch.settings, a, input.decision, reason);
  } catch (err) {
    if (err instanceof CrowdCallError)
      throw new UserError(`overriding assignment ${a._id}: ${err.message}; run the command again to continue`, { cause: err });
    throw err;
  }
  const outcome: ReviewOutcome = platform === 'rejected' || platform === 'already-rejected' ? 'rejected' : 'approved';
  await ctx.pipeline.models.assignments.updateOne(
    { _id: a._id },
    {
      $set: {
        reviewState: 'done',
        outcome,
        platformStatus: outcome === 'rejected' ? 'Rejected' : 'Approved',
        reviewedAt: a.reviewedAt ?? ctx.pipeline.now(),
      },
    },
  );
  const aggregation = await aggregateBatch(ctx.pipeline, batch);
  await recordAudit(ctx, {
    batch: batch._id,
    action: 'override',
    subject: a._id,
    reason,
    details: { decision: input.decision, workerId: a.workerId, platform },
    outcome: 'done',
  });
  const s = aggregation.summary;
  return {
    assignmentId: a._id,
    batch: batch._id,
    workerId: a.workerId,
    decision: input.decision,
    platform,
    countsVotes: input.decision === 'approve',
    summary: {
      items: s.items,
      labels: s.labels,
      unresolved: s.unresolved,
      fleissKappa: s.fleissKappa,
      krippendorffAlpha: s.krippendorffAlpha,
    },
  };
}
