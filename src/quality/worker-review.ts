import {
  decideReview,
  DEFAULT_REVIEW_POLICY,
  notCountedDecision,
  rejectsStoppedWork,
  type ReviewDecision,
  type ReviewPolicy,
} from './review.js';
import type { AttentionCheckScore } from './attention-checks.js';
import { DEFAULT_VERDICT_POLICY, type WorkerVerdict, type WorkerVerdictPolicy } from './worker-verdict.js';

/**
 * The review of one assignment in the light of its worker's record across the batch (pure).
 *
 * - A worker stopped by `workerVerdict` (not doing the task, with the stated confidence):
 *   every assignment of theirs not reviewed yet is discarded, paid (`workerStop: discard`,
 *   the default) or rejected (`workerStop: reject`; batches without the field follow
 *   `onFailure`); its items are collected again from other workers.
 * - A failed attention check in the work of a worker whose record speaks for them (the
 *   probability that they do not do the task is below half the prior share of such
 *   workers: their work so far clearly moved it down) does not throw the assignment away: one slip on a check is
 *   what careful people do now and then (about one check in twenty in DREAM's human study),
 *   and discarding their work costs a re-collection and loses good votes. The assignment is
 *   approved and counted, and the reason says why.
 * - Otherwise the checks decide, as the DREAM protocol has it (`decideReview`).
 */
export interface WorkerStanding {
  readonly verdict: WorkerVerdict;
  /** The worker was stopped in this batch (now or in an earlier round), with this reason. */
  readonly stoppedReason: string | null;
  /** Absent: stopped for not doing the task (or not stopped). */
  readonly stoppedCause?: 'llm-assisted';
}

const LLM_STOPPED_FEEDBACK =
  'Across this batch your answers showed the signs of answers produced with an AI assistant, which this task asks you not to use.';
const STOPPED_FEEDBACK =
  'Across this batch your answers did not follow the items (they disagreed with the known answers of quality-control questions and with other workers).';

export function decideWithStanding(
  score: AttentionCheckScore,
  standing: WorkerStanding | undefined,
  policy: ReviewPolicy = DEFAULT_REVIEW_POLICY,
  verdictPolicy: WorkerVerdictPolicy = DEFAULT_VERDICT_POLICY,
): ReviewDecision {
  if (standing?.stoppedReason)
    return notCountedDecision(
      rejectsStoppedWork(policy),
      `the worker was stopped for the batch: ${standing.stoppedReason}`,
      standing.stoppedCause === 'llm-assisted' ? LLM_STOPPED_FEEDBACK : STOPPED_FEEDBACK,
    );
  const byChecks = decideReview(score, policy);
  if (score.passed || !standing || standing.verdict.probabilityNotWorking >= verdictPolicy.priorNotWorking / 2) return byChecks;
  return {
    action: 'approve',
    countsVotes: true,
    reason: `${byChecks.reason}; counted: the worker's record across the batch speaks for them (${standing.verdict.reason})`,
    feedback: null,
  };
}
