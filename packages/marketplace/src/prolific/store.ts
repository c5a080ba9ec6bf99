import { Schema, type Connection, type Model } from 'mongoose';
import { model } from '../store/models.js';
import type { CompletionCode, StudyFilter, StudyStatus, SubmissionStatus } from './domain.js';

/**
 * The Prolific side's collections, in the marketplace's own database beside the MTurk
 * side's (`prolific_*`). Every document is found by `_id` (the only quick lookup on the
 * dev database); the lists filter the small collections they read. The lease held by the
 * marketplace makes it the one writer, so the per-study lock of service.ts is enough.
 */

export interface StudyDoc {
  _id: string;
  name: string;
  internal_name: string | null;
  description: string;
  external_study_url: string;
  prolific_id_option: string;
  completion_codes: CompletionCode[];
  total_available_places: number;
  estimated_completion_time: number;
  maximum_allowed_time: number;
  reward: number;
  device_compatibility: string[];
  peripheral_requirements: string[];
  filters: StudyFilter[];
  project: string;
  submissions_config: { max_submissions_per_participant: number; max_concurrent_submissions: number };
  study_labels: string[];
  metadata: string | null;
  status: StudyStatus;
  stopped: boolean;
  date_created: Date;
  published_at: Date | null;
}

export interface SubmissionDoc {
  _id: string;
  study_id: string;
  participant_id: string;
  worker_id: string;
  status: SubmissionStatus;
  started_at: Date;
  completed_at: Date | null;
  study_code: string | null;
  return_requested: Date | null;
  rejection?: { message: string; category: string };
}

export interface GroupMember {
  participant_id: string;
  datetime_created: Date;
}

export interface GroupDoc {
  _id: string;
  name: string;
  workspace_id: string;
  description: string | null;
  participants: GroupMember[];
  is_deleted: boolean;
  date_created: Date;
}

export interface BonusLineDoc {
  participant_id: string;
  submission_id: string;
  cents: number;
}

export interface BulkBonusDoc {
  _id: string;
  study_id: string;
  lines: BonusLineDoc[];
  created_at: Date;
}

export interface ProlificMessageDoc {
  _id: string;
  sender_id: string;
  recipient_id: string;
  study_id: string | null;
  body: string;
  sent_at: Date;
}

export interface ProlificModels {
  studies: Model<StudyDoc>;
  submissions: Model<SubmissionDoc>;
  groups: Model<GroupDoc>;
  bonuses: Model<BulkBonusDoc>;
  messages: Model<ProlificMessageDoc>;
}

const opts = { versionKey: false, strict: 'throw', autoIndex: false, autoCreate: false } as const;
const mixed = Schema.Types.Mixed;

/** `db` is the marketplace's database (marketplaceDb). */
export function prolificModels(db: Connection): ProlificModels {
  return {
    studies: model(
      db,
      'prolific_studies',
      new Schema<StudyDoc>(
        {
          _id: String,
          name: String,
          internal_name: String,
          description: String,
          external_study_url: String,
          prolific_id_option: String,
          completion_codes: mixed,
          total_available_places: Number,
          estimated_completion_time: Number,
          maximum_allowed_time: Number,
          reward: Number,
          device_compatibility: [String],
          peripheral_requirements: [String],
          filters: mixed,
          project: String,
          submissions_config: mixed,
          study_labels: [String],
          metadata: String,
          status: String,
          stopped: Boolean,
          date_created: Date,
          published_at: Date,
        },
        opts,
      ),
    ),
    submissions: model(
      db,
      'prolific_submissions',
      new Schema<SubmissionDoc>(
        {
          _id: String,
          study_id: String,
          participant_id: String,
          worker_id: String,
          status: String,
          started_at: Date,
          completed_at: Date,
          study_code: String,
          return_requested: Date,
          rejection: mixed,
        },
        opts,
      ),
    ),
    groups: model(
      db,
      'prolific_participant_groups',
      new Schema<GroupDoc>(
        {
          _id: String,
          name: String,
          workspace_id: String,
          description: String,
          participants: mixed,
          is_deleted: Boolean,
          date_created: Date,
        },
        opts,
      ),
    ),
    bonuses: model(
      db,
      'prolific_bulk_bonuses',
      new Schema<BulkBonusDoc>({ _id: String, study_id: String, lines: mixed, created_at: Date }, opts),
    ),
    messages: model(
      db,
      'prolific_messages',
      new Schema<ProlificMessageDoc>(
        { _id: String, sender_id: String, recipient_id: String, study_id: String, body: String, sent_at: Date },
        opts,
      ),
    ),
  };
}

/** Writes a document whole, by `_id` (inserts it the first time). */
export async function save<T extends { _id: string }>(m: Model<T>, doc: T): Promise<void> {
  await m.collection.replaceOne({ _id: doc._id } as Record<string, unknown>, doc as Record<string, unknown>, { upsert: true });
}
