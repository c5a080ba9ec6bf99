import { Schema, type Connection, type Model } from 'mongoose';
import type { Judgment } from '../../domain/cases.js';
import { collections } from '../collections.js';
import { model } from './index.js';
import { required } from '../fields.js';

/**
 * What the requester's actions store (src/actions/), beside the pipeline's models: the
 * pipeline writes the audit log too (worker decisions) and reads it and the manual labels
 * (reports, exports), so they live below both. Each with a meaningful string `_id`
 * (FerretDB reads whole collections for any other filter):
 *
 * | collection | `_id` | holds |
 * |---|---|---|
 * | audit_log | `${batch}\|${ms}\|${random}` | one action on a batch: who, when, what, on whom, why, outcome |
 * | bonuses | the SendBonus UniqueRequestToken | a bonus: recorded (`sending`) before the call, `paid` after; a repeat finds it |
 * | manual_labels | the item id `${batch}\|${caseKey}` | a label decided by hand: label, note, who, when (provenance `manual`) |
 *
 * A review decision overturned by hand is stored on its assignment (`override`, see
 * src/db/models/assignments.ts), so every reader of the votes sees it.
 */

export interface AuditDoc {
  _id: string;
  batch: string;
  /** When it happened, in real time (the wall clock), whatever clock the pipeline runs by. */
  at: Date;
  /** The simulated marketplace's time of it, when the pipeline ran on one (the demo, `qrelay simulate`); absent otherwise. */
  simulatedAt?: Date;
  who: string;
  /** block | unblock | bonus | message | qualify | revoke | override | label | delete */
  action: string;
  /** The worker, assignment or item acted on. */
  subject: string;
  reason: string;
  details: Record<string, unknown>;
  /** What happened: `done`, `already-done`, or the failure. */
  outcome: string;
}

/**
 * When an entry happened: `at` in real time, as a person reads it, and the simulated
 * marketplace's time beside it, labelled, when the pipeline runs on one.
 */
export function auditTimes(clock: { now(): Date; simulatedClock: boolean }): Pick<AuditDoc, 'at' | 'simulatedAt'> {
  return { at: new Date(), ...(clock.simulatedClock && { simulatedAt: clock.now() }) };
}

export type BonusState = 'sending' | 'paid';

export interface BonusDoc {
  _id: string;
  batch: string;
  workerId: string;
  assignmentId: string;
  amountCents: number;
  /** The MTurk fee on it (20%, at least a cent), counted in the batch's spend. */
  feeCents: number;
  reason: string;
  state: BonusState;
  who: string;
  recordedAt: Date;
  paidAt: Date | null;
}

export interface ManualLabelDoc {
  _id: string;
  batch: string;
  queryId: string;
  chunkId: string;
  label: Judgment;
  note: string;
  who: string;
  at: Date;
}

const options = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

const auditSchema = new Schema<AuditDoc>(
  {
    ...required(String, '_id', 'batch'),
    at: { type: Date, required: true },
    simulatedAt: { type: Date },
    ...required(String, 'who', 'action', 'subject'),
    reason: { type: String, default: '' },
    details: { type: Schema.Types.Mixed, default: {} },
    outcome: { type: String, required: true },
  },
  options(collections.auditLog),
);

const bonusSchema = new Schema<BonusDoc>(
  {
    ...required(String, '_id', 'batch', 'workerId', 'assignmentId'),
    ...required(Number, 'amountCents', 'feeCents'),
    reason: { type: String, required: true },
    state: { type: String, enum: ['sending', 'paid'], required: true },
    who: { type: String, required: true },
    recordedAt: { type: Date, required: true },
    paidAt: { type: Date, default: null },
  },
  options(collections.bonuses),
);

const manualLabelSchema = new Schema<ManualLabelDoc>(
  {
    ...required(String, '_id', 'batch', 'queryId', 'chunkId'),
    label: { type: String, enum: ['yes', 'no'], required: true },
    note: { type: String, default: '' },
    who: { type: String, required: true },
    at: { type: Date, required: true },
  },
  options(collections.manualLabels),
);

export interface ActionModels {
  audit: Model<AuditDoc>;
  bonuses: Model<BonusDoc>;
  manualLabels: Model<ManualLabelDoc>;
}

/** The actions' models on this connection (registered once per connection). */
export function actionModels(connection: Connection): ActionModels {
  return {
    audit: model(connection, 'AuditEntry', auditSchema),
    bonuses: model(connection, 'Bonus', bonusSchema),
    manualLabels: model(connection, 'ManualLabel', manualLabelSchema),
  };
}
