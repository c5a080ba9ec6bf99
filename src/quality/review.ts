import { quote } from '../aggregate/votes.js';
import { UserError } from '../errors.js';
import type { AttentionCheckScore } from './attention-checks.js';

export type ReviewAction = 'approve' | 'approve-and-discard' | 'reject';

export interface ReviewPolicy {
  /**
   * What an assignment that failed a check gets:
   * - `approve-and-discard` (the default): paid, its votes not counted. Kinder: on MTurk a
   *   rejection lowers the worker's approval rate, which gates most of their future work,
   *   and one slip on a hard relevance question is not proof of bad faith.
   * - `reject`: not paid; for work that is plainly careless (see `rejectFromFailures`).
   */
  readonly onFailure: 'reject' | 'approve-and-discard';
  /**
   * With `reject`: reject only from this many failed checks; fewer failures are approved
   * and discarded. Default 1 (any failure). 2 rejects only workers who missed at least
   * two checks, e.g. both polarities in a HIT with one check of each.
   */
  readonly rejectFromFailures?: number;
  /**
   * Worker-level decisions (quality/worker-review.ts, pipeline/worker-decisions.ts): on
   * unless false. Off, the checks alone decide, assignment by assignment.
   */
  readonly workerDecisions?: boolean;
  /**
   * What the not yet reviewed work of a worker stopped for the batch gets (the preset's
   * `workerStop`): `discard` (paid, votes not counted) or `reject` (not paid). Absent (batches
   * published before the field): as `onFailure` says.
   */
  readonly workerStop?: WorkerStopPolicy;
}

type WorkerStopPolicy = 'discard' | 'reject';

/** Whether a stopped worker's not yet reviewed work is rejected under the policy. */
export const rejectsStoppedWork = (policy: ReviewPolicy): boolean =>
  (policy.workerStop ?? (policy.onFailure === 'reject' ? 'reject' : 'discard')) === 'reject';

export const DEFAULT_REVIEW_POLICY: ReviewPolicy = { onFailure: 'approve-and-discard' };

export interface ReviewDecision {
  readonly action: ReviewAction;
  /** Whether the assignment's votes count. */
  readonly countsVotes: boolean;
  /** For the requester's records (names the failed checks); never shown to the worker. */
  readonly reason: string;
  /** RequesterFeedback for the worker (MTurk allows 1024 characters), or null for none. */
  readonly feedback: string | null;
}

/** The worker is told how many checks they missed and which answer each missed one called for, never which items they were. */
const CHECK_NOTICE =
  'This HIT contained quality-control questions whose answers are known and unambiguous; they look like the other questions.';

export function checkReviewPolicy(policy: ReviewPolicy, where = 'reviewPolicy'): void {
  if (policy.onFailure !== 'reject' && policy.onFailure !== 'approve-and-discard') {
    throw new UserError(`${where}.onFailure: ${quote(policy.onFailure)} is not "reject" or "approve-and-discard"`);
  }
  const from = policy.rejectFromFailures;
  if (from !== undefined && (!Number.isSafeInteger(from) || from < 1)) {
    throw new UserError(`${where}.rejectFromFailures: ${quote(from)} is not a whole number >= 1`);
  }
}

/**
 * The review of one submitted assignment from its attention-check score: `approve` when
 * it passed every check, otherwise what the policy says.
 *
 * Feedback to the worker, on purpose: it says how many of the quality-control questions
 * were missed and, for each, whether the known answer was "relevant" or "not relevant",
 * but never which questions they were. Checks are drawn from a reusable gold pool;
 * naming them would let them circulate among workers and stop measuring anything. The
 * count and polarity are enough to understand the decision (for example that a passage
 * with no evidence was marked relevant) and to dispute it quoting the assignment, which
 * the requester can look up in `reason`.
 */
export function decideReview(score: AttentionCheckScore, policy: ReviewPolicy = DEFAULT_REVIEW_POLICY): ReviewDecision {
  checkReviewPolicy(policy);
  if (score.passed) {
    const reason =
      score.checks === 0 ? 'no attention checks in this HIT: approved unchecked' : `passed all ${score.checks} attention checks`;
    return { action: 'approve', countsVotes: true, reason, feedback: null };
  }
  const missed = score.failures.length;
  const reason = `failed ${missed} of ${score.checks} attention checks: ${score.failures
    .map((f) => `${quote(f.item)} expected ${f.expected}, got ${f.given ?? 'no answer'}`)
    .join('; ')}`;
  const missedYes = score.failures.filter((f) => f.expected === 'yes').length;
  const detail = [
    missedYes > 0 ? `${missedYes} whose passage clearly supports an answer` : '',
    missed - missedYes > 0 ? `${missed - missedYes} whose passage clearly supports none` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  const summary = `${CHECK_NOTICE} You answered ${missed} of ${score.checks} of them incorrectly (${detail}).`;

  return notCountedDecision(
    policy.onFailure === 'reject' && missed >= (policy.rejectFromFailures ?? 1),
    reason,
    summary,
    ' Please read each passage carefully against the guidelines.',
  );
}

/** The decision for work whose votes do not count: rejected (with the way to dispute it), or paid and discarded. */
export function notCountedDecision(reject: boolean, reason: string, summary: string, advice = ''): ReviewDecision {
  if (reject) {
    return {
      action: 'reject',
      countsVotes: false,
      reason,
      feedback: `${summary} We are sorry to reject this assignment. If you think this is a mistake, contact us quoting the assignment ID and we will review it again.`,
    };
  }
  return {
    action: 'approve-and-discard',
    countsVotes: false,
    reason,
    feedback: `${summary} Your work is approved and paid, but its answers are not used.${advice}`,
  };
}
