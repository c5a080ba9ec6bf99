import {
  decideReview,
  DEFAULT_REVIEW_POLICY,
  notCountedDecision,
  rejectsStoppedWork,
  type ReviewDecision,
  type ReviewPolicy,
} from './review.js';
import type { AttentionCheckScore } from './attention-checks.js';
import { clears } from './revisit.js';
import { checkPosterior, DEFAULT_PROBATION_POLICY, type ProbationPolicy } from './probation.js';
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
 * - Otherwise the worker is on probation (quality/probation.ts): the assignment that failed a
 *   check is discarded only when the worker's check accuracy, a Beta posterior over every
 *   check they answered in the batch, is below the threshold with the stated confidence
 *   (95%), or when P(not doing the task) reaches that confidence; else it counts, and a stop
 *   that comes later withdraws it (pipeline/worker-decisions.ts). One missed check moves the
 *   posterior; it does not throw a new worker's first assignment away.
 * - Without a standing (worker-level decisions off) the checks decide, as the DREAM protocol
 *   has it (`decideReview`).
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
  probation: ProbationPolicy = DEFAULT_PROBATION_POLICY,
): ReviewDecision {
  if (standing?.stoppedReason)
    return notCountedDecision(
      rejectsStoppedWork(policy),
      `the worker was stopped for the batch: ${standing.stoppedReason}`,
      standing.stoppedCause === 'llm-assisted' ? LLM_STOPPED_FEEDBACK : STOPPED_FEEDBACK,
    );
  const byChecks = decideReview(score, policy);
  if (score.passed || !standing) return byChecks;
  const counted = (why: string): ReviewDecision => ({
    action: 'approve',
    countsVotes: true,
    reason: `${byChecks.reason}; counted: ${why}`,
    feedback: null,
  });
  const { verdict } = standing;
  if (clears(verdict, verdictPolicy)) return counted(`the worker's record across the batch speaks for them (${verdict.reason})`);
  // probation: the failed checks discard the work only when the worker's record says so with
  // the stated confidence, from their checks across the batch or from all the evidence
  const checks = checkPosterior(verdict.evidence.checksPassed, verdict.evidence.checks - verdict.evidence.checksPassed, probation);
  if (checks.discard || verdict.probabilityNotWorking >= probation.confidence)
    return { ...byChecks, reason: `${byChecks.reason}; ${checks.reason}; ${verdict.reason}` };
  return counted(`on probation, one miss is no evidence of carelessness: ${checks.reason}; ${verdict.reason}`);
}
