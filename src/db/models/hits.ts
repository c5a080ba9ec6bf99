import { Schema } from 'mongoose';
import type { PlannedItem } from '../../hits/index.js';
import { collections } from '../collections.js';
import { required } from '../fields.js';

/**
 * `planned`: stored, no request sent; `creating`: its request token is recorded and
 * CreateHIT may have reached the platform; `published`: the platform holds it (hitId);
 * `done`: every assignment it can bring is in and reviewed; `expired`: stopped on the
 * platform; `deleted`: disposed on the platform (cleanup).
 */
export const HIT_STATES = ['planned', 'creating', 'published', 'done', 'expired', 'deleted'] as const;
export type HitState = (typeof HIT_STATES)[number];

export interface PlatformHitView {
  status: string;
  maxAssignments: number;
  available: number;
  pending: number;
  completed: number;
  expiration: Date | null;
  checkedAt: Date;
}

export interface PendingExtension {
  round: number;
  targetMax: number;
  token: string;
}

export interface HitDoc {
  /** `${batch}|${index}`. */
  _id: string;
  batch: string;
  /** 0-based, in publishing order; reposts continue the numbering. */
  index: number;
  /** `plan`: the batch's plan; `repost`: a new HIT for items their HITs could not serve. */
  origin: 'plan' | 'repost';
  items: PlannedItem[];
  realItems: number;
  checks: number;
  bytes: number;
  questionSha256: string;
  /** MaxAssignments: as planned, then as extended. */
  maxAssignments: number;
  state: HitState;
  /** Raised only when a HIT is deliberately posted anew; part of the request token. */
  attempt: number;
  /** Recorded before CreateHIT is called, so a restart repeats the very same token. */
  requestToken: string | null;
  tokenRecordedAt: Date | null;
  hitId: string | null;
  hitTypeId: string | null;
  publishedAt: Date | null;
  /** Extension rounds applied (CreateAdditionalAssignmentsForHIT). */
  extensions: number;
  /** Recorded before the extension call; cleared once MaxAssignments is recorded. */
  pendingExtension: PendingExtension | null;
  platform: PlatformHitView | null;
  lastError: string | null;
  /** Adaptive checks: a starter HIT (new workers, more checks) or a regular one; absent: the batch has one kind (hits/adaptive-checks.ts). */
  audience?: 'starter' | 'regular';
}

export interface HitQuestionDoc {
  _id: string;
  xml: string;
  /** The debate experiment: the same page without the debate, served to the no-debate arm (docs/experiment.md). */
  withoutDebateXml?: string;
}

/** HITId -> our HIT, for notifications and lookups by the platform's id. */
export interface HitIdDoc {
  _id: string;
  hit: string;
  batch: string;
}

const options = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

export const hitSchema = new Schema<HitDoc>(
  {
    ...required(String, '_id', 'batch'),
    index: { type: Number, required: true },
    origin: { type: String, enum: ['plan', 'repost'], required: true },
    items: { type: Schema.Types.Mixed, required: true },
    ...required(Number, 'realItems', 'checks', 'bytes'),
    questionSha256: { type: String, required: true },
    maxAssignments: { type: Number, required: true },
    state: { type: String, enum: HIT_STATES, required: true },
    attempt: { type: Number, default: 0 },
    requestToken: { type: String, default: null },
    tokenRecordedAt: { type: Date, default: null },
    hitId: { type: String, default: null },
    hitTypeId: { type: String, default: null },
    publishedAt: { type: Date, default: null },
    extensions: { type: Number, default: 0 },
    pendingExtension: { type: Schema.Types.Mixed, default: null },
    platform: { type: Schema.Types.Mixed, default: null },
    lastError: { type: String, default: null },
    audience: { type: String, enum: ['starter', 'regular'] },
  },
  options(collections.hits),
);

export const hitQuestionSchema = new Schema<HitQuestionDoc>(
  { _id: { type: String, required: true }, xml: { type: String, required: true }, withoutDebateXml: { type: String } },
  options(collections.hitQuestions),
);

export const hitIdSchema = new Schema<HitIdDoc>(
  { _id: { type: String, required: true }, hit: { type: String, required: true }, batch: { type: String, required: true } },
  options(collections.hitIds),
);
