import { Schema } from 'mongoose';
import type { AggregatorId } from '../../aggregate/index.js';
import type { Judgment } from '../../domain/cases.js';
import { collections } from '../collections.js';
import { required } from '../fields.js';

export interface LabelDoc {
  /** The item id, `${batch}|${caseKey}`. */
  _id: string;
  batch: string;
  queryId: string;
  chunkId: string;
  /** null: unresolved (a tie the policy left open) or no valid vote yet. */
  label: Judgment | null;
  method: AggregatorId;
  /** clear | tie-weighted | tie-fallback | unresolved | no-votes */
  decidedBy: string;
  /** The votes the label was decided from. */
  votes: { yes: number; no: number };
  /** All valid votes of the item (extra assignments can bring more than the target). */
  validVotes: number;
  workers: string[];
  /** Dawid–Skene's posterior; majority vote: the vote shares. */
  probabilities: { yes: number; no: number } | null;
  complete: boolean;
  updatedAt: Date;
}

export const labelSchema = new Schema<LabelDoc>(
  {
    ...required(String, '_id', 'batch', 'queryId', 'chunkId'),
    label: { type: String, default: null },
    ...required(String, 'method', 'decidedBy'),
    votes: { type: Schema.Types.Mixed, required: true },
    validVotes: { type: Number, required: true },
    workers: { type: [String], default: [] },
    probabilities: { type: Schema.Types.Mixed, default: null },
    complete: { type: Boolean, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: collections.labels, versionKey: false, minimize: false },
);

/** The custom qualification type created on a target for a qualification test. */
export interface TargetQualificationDoc {
  /** `${target}|${test name}`. */
  _id: string;
  target: string;
  name: string;
  qualificationTypeId: string;
  recordedAt: Date;
}

export const targetQualificationSchema = new Schema<TargetQualificationDoc>(
  {
    ...required(String, '_id', 'target', 'name', 'qualificationTypeId'),
    recordedAt: { type: Date, required: true },
  },
  { collection: collections.targetQualifications, versionKey: false },
);
