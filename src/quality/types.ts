import type { Judgment } from '../domain/cases.js';

/**
 * The records quality control works on. The pipeline maps database records onto these;
 * everything in quality/ is pure.
 */

/** An item with a known right answer, placed in a HIT as an attention check. Its polarity is `expected`. */
export interface KnownAnswer {
  readonly item: string;
  readonly expected: Judgment;
}

/** One answer in a submitted assignment. */
export interface Answer {
  readonly item: string;
  readonly label: Judgment;
  /** Time spent on this item, when the HIT page measured it. */
  readonly timeMs?: number;
  /** The worker's comment on the item, when not empty. */
  readonly comment?: string;
  /** Page events the HIT page counted on the item, when any. */
  readonly copies?: number;
  readonly pastes?: number;
  readonly focusLosses?: number;
  /** The canary word the item's page carried (src/hits/canary.ts). */
  readonly canary?: string;
}

/** MTurk's assignment status; `submitted` means not reviewed yet. */
export type AssignmentStatus = 'submitted' | 'approved' | 'rejected';

export interface AssignmentRecord {
  readonly assignmentId: string;
  readonly hitId: string;
  readonly worker: string;
  readonly status: AssignmentStatus;
  /** Approved (paid) but its votes do not count: the review action `approve-and-discard`. */
  readonly discarded?: boolean;
  /** Approved and counted by the review although a check failed (the worker's record spoke for them: quality/worker-review.ts). */
  readonly kept?: boolean;
  /** A person's decision that wins over the checks: `counts` (approved by hand) or `excluded`. */
  readonly overridden?: 'counts' | 'excluded';
  /** Answers to the HIT's real items and checks alike (the page marks neither: same markup and fields). */
  readonly answers: readonly Answer[];
  /** SubmitTime − AcceptTime, when known. */
  readonly workTimeMs?: number;
}

export interface HitRecord {
  readonly hitId: string;
  /** The real items of the HIT (checks excluded). */
  readonly items: readonly string[];
  readonly checks: readonly KnownAnswer[];
}
