import { randomBytes } from 'node:crypto';
import type { ActionContext } from './context.js';
import { auditTimes, type AuditDoc } from '../db/models/actions.js';

export { auditTimes };

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
