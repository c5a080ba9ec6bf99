import { Schema } from 'mongoose';
import type { Judgment } from '../../domain/cases.js';
import type { ReviewAction } from '../../quality/index.js';
import { collections } from '../collections.js';
import { required } from '../fields.js';

/** One answer of a submitted assignment, tied to the HIT's planned item. */
export interface StoredAnswer {
  position: number;
  /** The page's opaque key. */
  key: string;
  kind: 'real' | 'check';
  /** Real items: the item id (`${batch}|${caseKey}`); checks: `check|${caseKey}`. */
  item: string;
  answer: Judgment | null;
  difficult: boolean;
  comment: string;
  ms: number | null;
  /** Page events on the item (absent in answers stored before the page counted them). */
  copies?: number;
  pastes?: number;
  focusLosses?: number;
}

export interface ReviewRecord {
  action: ReviewAction;
  countsVotes: boolean;
  reason: string;
  feedback: string | null;
  decidedAt: Date;
}

/** A review decision overturned by hand (`qrelay review override`): it wins over the attention checks. */
export interface ReviewOverride {
  /** approve: paid and its votes count; reject: its votes never count (rejected, or kept paid when already approved). */
  decision: 'approve' | 'reject';
  reason: string;
  who: string;
  at: Date;
}

/**
 * `pending`: stored, not decided; `decided`: the decision is recorded, the platform call
 * may not have happened (a restart repeats it; approve/reject are repeat-safe); `done`:
 * the platform has it.
 */
export const REVIEW_STATES = ['pending', 'decided', 'done'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** What the platform answered: our call, a repeat of it, or an auto-approval that came first. */
export type ReviewOutcome = 'approved' | 'rejected' | 'auto-approved';

export interface AssignmentDoc {
  /** The platform's AssignmentId. */
  _id: string;
  batch: string;
  /** Our HIT (`${batch}|${index}`). */
  hit: string;
  hitId: string;
  workerId: string;
  /** Submitted | Approved | Rejected, as last seen. */
  platformStatus: string;
  acceptedAt: Date | null;
  submittedAt: Date | null;
  storedAt: Date;
  answers: StoredAnswer[];
  /** Why the Answer XML could not be read (the assignment then fails its checks). */
  parseError: string | null;
  review: ReviewRecord | null;
  reviewState: ReviewState;
  outcome: ReviewOutcome | null;
  reviewedAt: Date | null;
  /** Absent unless a person overturned the review. */
  override?: ReviewOverride | null;
}

/** The raw Answer XML, kept apart (large, never filtered). */
export interface AssignmentAnswerDoc {
  _id: string;
  xml: string;
}

const options = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

export const assignmentSchema = new Schema<AssignmentDoc>(
  {
    ...required(String, '_id', 'batch', 'hit', 'hitId', 'workerId', 'platformStatus'),
    acceptedAt: { type: Date, default: null },
    submittedAt: { type: Date, default: null },
    storedAt: { type: Date, required: true },
    answers: { type: Schema.Types.Mixed, required: true },
    parseError: { type: String, default: null },
    review: { type: Schema.Types.Mixed, default: null },
    reviewState: { type: String, enum: REVIEW_STATES, required: true },
    outcome: { type: String, default: null },
    reviewedAt: { type: Date, default: null },
    override: { type: Schema.Types.Mixed, default: null },
  },
  options(collections.assignments),
);

export const assignmentAnswerSchema = new Schema<AssignmentAnswerDoc>(
  { _id: { type: String, required: true }, xml: { type: String, required: true } },
  options(collections.assignmentAnswers),
);
