import { Schema } from 'mongoose';
import { collections } from '../collections.js';

/**
 * A worker stopped in a batch by the evidence of their work (src/pipeline/worker-decisions.ts).
 * Recorded first (`decided`), then sent: the worker is given the target's "blocked"
 * qualification, which every HIT of qrelay's batches on that target requires not to exist
 * (`sent`). A crash between the two repeats the send (AssociateQualificationWithWorker is
 * repeat-safe). Their work not reviewed yet is discarded by the review.
 */
export type WorkerStopCause = 'not-working' | 'llm-assisted' | 'drift';

export interface WorkerDecisionDoc {
  /** `${batch}|${workerId}`. */
  _id: string;
  batch: string;
  workerId: string;
  target: string;
  action: 'soft-block';
  state: 'decided' | 'sent';
  reason: string;
  /**
   * Why: the evidence says they do not do the task, they were flagged `llm-assisted` under a
   * preset with `llmAssisted: block`, or they turned careless mid-batch (`drift`: only the work
   * from the change on, `evidence.after`, is withdrawn). Absent in older records: `not-working`.
   */
  cause?: WorkerStopCause;
  probabilityNotWorking: number;
  evidence: Record<string, unknown>;
  decidedAt: Date;
  sentAt: Date | null;
}

export const workerDecisionSchema = new Schema<WorkerDecisionDoc>(
  {
    _id: { type: String, required: true },
    batch: { type: String, required: true },
    workerId: { type: String, required: true },
    target: { type: String, required: true },
    action: { type: String, enum: ['soft-block'], required: true },
    state: { type: String, enum: ['decided', 'sent'], required: true },
    reason: { type: String, required: true },
    cause: { type: String, enum: ['not-working', 'llm-assisted', 'drift'], default: 'not-working' },
    probabilityNotWorking: { type: Number, required: true },
    evidence: { type: Schema.Types.Mixed, default: {} },
    decidedAt: { type: Date, required: true },
    sentAt: { type: Date, default: null },
  },
  { collection: collections.workerDecisions, versionKey: false, minimize: false },
);
