import { randomBytes } from 'node:crypto';
import type { ActionContext } from './context.js';
import type { AuditDoc } from './models.js';
import type { PipelineContext } from '../pipeline/context.js';

/** An action not tied to any batch (a worker no batch knows) is logged under this name. */
export const NO_BATCH = '-';

export interface AuditEntry {
  batch: string;
  action: string;
  subject: string;
  reason?: string;
  details?: Record<string, unknown>;
  outcome: string;
}

/**
 * When an entry happened: `at` in real time, as a person reads it, and the simulated
 * marketplace's time beside it, labelled, when the pipeline runs on one.
 */
export function auditTimes(pipeline: Pick<PipelineContext, 'now' | 'simulatedClock'>): Pick<AuditDoc, 'at' | 'simulatedAt'> {
  return { at: new Date(), ...(pipeline.simulatedClock && { simulatedAt: pipeline.now() }) };
}

/** Appends one entry to the batch's audit log (who from the context, when by auditTimes). */
export async function recordAudit(ctx: ActionContext, entry: AuditEntry): Promise<AuditDoc> {
  const times = auditTimes(ctx.pipeline);
  const doc: AuditDoc = {
    _id: `${entry.batch}|${times.at.getTime()}|${randomBytes(4).toString('hex')}`,
    batch: entry.batch,
    ...times,
    who: ctx.who,
    action: entry.action,
    subject: entry.subject,
    reason: entry.reason ?? '',
    details: entry.details ?? {},
    outcome: entry.outcome,
  };
  await ctx.models.audit.create(doc);
  return doc;
}

/** The batch's audit log, oldest first. */
export async function auditLog(ctx: ActionContext, batch: string): Promise<AuditDoc[]> {
  const rows = await ctx.models.audit.find({ batch }).lean<AuditDoc[]>();
  return rows.sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime() || (a._id < b._id ? -1 : 1));
}
