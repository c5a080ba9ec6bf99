import type { AssignmentDoc, BatchDoc } from '../db/models/index.js';
import { NotFound, UserError } from '../errors.js';
import { requireCapability } from '../crowd/platform.js';
import { requireBatch } from '../batches/index.js';
import { NO_BATCH, recordAudit } from './audit.js';
import type { ActionContext } from './context.js';
import { checkText, checkWorkerId, workerScope } from './scope.js';

/**
 * Block, unblock, message and qualify workers, through the crowd platform (the MTurk API:
 * Amazon's endpoints and the bundled marketplace alike), each recorded in the audit log of
 * every batch in scope. Every one is safe to repeat: the platform calls are (a block
 * again updates the reason, an unblock of a worker not blocked succeeds, a score set
 * again is the same score).
 */

export interface BlockResult {
  workerId: string;
  blocked: boolean;
  /** The state before: a repeat changes nothing. */
  wasBlocked: boolean;
  targets: string[];
  batches: string[];
}

async function isBlocked(ctx: ActionContext, target: string, workerId: string): Promise<boolean> {
  return (await ctx.pipeline.backend(target).listWorkerBlocks()).some((b) => b.workerId === workerId);
}

export async function blockWorker(ctx: ActionContext, input: { workerId: string; reason: string; batch?: string }): Promise<BlockResult> {
  const workerId = checkWorkerId(input.workerId);
  const reason = checkText(input.reason, '--reason');
  const scope = await workerScope(ctx, [workerId], input.batch);
  let wasBlocked = true;
  for (const target of scope.targets) {
    if (!(await isBlocked(ctx, target, workerId))) wasBlocked = false;
    await ctx.pipeline.backend(target).blockWorker(workerId, reason);
  }
  for (const batch of scope.batches) {
    await recordAudit(ctx, {
      batch,
      action: 'block',
      subject: workerId,
      reason,
      details: { targets: scope.targets },
      outcome: wasBlocked ? 'already-done' : 'done',
    });
  }
  return { workerId, blocked: true, wasBlocked, ...scope };
}

export async function unblockWorker(
  ctx: ActionContext,
  input: { workerId: string; reason?: string; batch?: string },
): Promise<BlockResult> {
  const workerId = checkWorkerId(input.workerId);
  const reason = input.reason?.trim() || undefined;
  const scope = await workerScope(ctx, [workerId], input.batch);
  let wasBlocked = false;
  for (const target of scope.targets) {
    if (await isBlocked(ctx, target, workerId)) wasBlocked = true;
    await ctx.pipeline.backend(target).unblockWorker(workerId, reason);
  }
  for (const batch of scope.batches) {
    await recordAudit(ctx, {
      batch,
      action: 'unblock',
      subject: workerId,
      reason: reason ?? '',
      details: { targets: scope.targets },
      outcome: wasBlocked ? 'done' : 'already-done',
    });
  }
  return { workerId, blocked: false, wasBlocked, ...scope };
}

export interface MessageResult {
  sent: string[];
  failed: { workerId: string; message: string }[];
  batches: string[];
}

export async function messageWorkers(
  ctx: ActionContext,
  input: { workerIds: string[]; subject: string; text: string; batch?: string },
): Promise<MessageResult> {
  if (input.workerIds.length === 0) throw new UserError('WORKER: name at least one worker');
  const workerIds = [...new Set(input.workerIds.map((w) => checkWorkerId(w)))];
  const subject = checkText(input.subject, '--subject', 200);
  const text = checkText(input.text, '--text', 4096);
  const scope = await workerScope(ctx, workerIds, input.batch);
  const failures = new Map<string, string>();
  for (const target of scope.targets) {
    for (const f of await ctx.pipeline.backend(target).notifyWorkers(workerIds, subject, text))
      failures.set(f.workerId, f.message || f.code);
  }
  const failed = [...failures].map(([workerId, message]) => ({ workerId, message }));
  const sent = workerIds.filter((w) => !failures.has(w));
  for (const batch of scope.batches) {
    await recordAudit(ctx, {
      batch,
      action: 'message',
      subject: workerIds.join(','),
      reason: subject,
      details: { text, sent, failed },
      outcome: failed.length === 0 ? 'done' : `${failed.length} not reached`,
    });
  }
  return { sent, failed, batches: scope.batches };
}

export interface QualifyResult {
  workerId: string;
  qualification: string;
  qualificationTypeId: string;
  value: number | null;
  revoked: boolean;
  targets: string[];
}

const targetQualifications = (ctx: ActionContext, target: string) =>
  requireCapability(ctx.pipeline.backend(target), 'qualifications', '--qualification');

/**
 * The type a `--qualification` names on a target: a qualification test of the batch
 * (`dream-exam`, as in the preset), the exact name of one of the requester's types, or a
 * QualificationTypeId.
 */
async function resolveQualification(ctx: ActionContext, target: string, name: string, batches: readonly BatchDoc[]): Promise<string> {
  for (const b of batches) {
    const id = b.qualificationIds?.[name];
    if (id && b.settings?.target === target) return id;
  }
  const recorded = await ctx.pipeline.models.targetQualifications.findById(`${target}|${name}`).lean();
  if (recorded) return recorded.qualificationTypeId;
  const byName = await targetQualifications(ctx, target).findQualificationTypeId(name);
  if (byName) return byName;
  if (/^[A-Z0-9]{20,40}$/.test(name)) return name;
  throw new NotFound(
    `--qualification: no qualification type ${JSON.stringify(name)} on target ${target} (give a test name from the batch's preset, the type's exact name, or its QualificationTypeId)`,
  );
}

export async function qualifyWorker(
  ctx: ActionContext,
  input: { workerId: string; qualification: string; value?: number; revoke?: boolean; reason?: string; batch?: string },
): Promise<QualifyResult> {
  const workerId = checkWorkerId(input.workerId);
  const qualification = input.qualification.trim();
  if (!qualification) throw new UserError('--qualification: name the qualification');
  if (input.revoke && input.value !== undefined) throw new UserError('give either --value N or --revoke, not both');
  if (!input.revoke && (input.value === undefined || !Number.isInteger(input.value) || input.value < 0 || input.value > 2 ** 31 - 1)) {
    throw new UserError('--value: give the score as a whole number from 0 (or --revoke to take the qualification away)');
  }
  const scope = await workerScope(ctx, [workerId], input.batch);
  const docs = await Promise.all(scope.batches.filter((b) => b !== NO_BATCH).map((b) => requireBatch(ctx.pipeline, b)));
  let typeId = '';
  const reason = input.reason?.trim() || (input.revoke ? 'revoked by the requester' : '');
  for (const target of scope.targets) {
    typeId = await resolveQualification(ctx, target, qualification, docs);
    const qualifications = targetQualifications(ctx, target);
    if (input.revoke) await qualifications.revokeQualification(typeId, workerId, reason);
    else await qualifications.setQualificationScore(typeId, workerId, input.value as number);
  }
  for (const batch of scope.batches) {
    await recordAudit(ctx, {
      batch,
      action: input.revoke ? 'revoke' : 'qualify',
      subject: workerId,
      reason,
      details: { qualification, qualificationTypeId: typeId, value: input.revoke ? null : input.value },
      outcome: 'done',
    });
  }
  return {
    workerId,
    qualification,
    qualificationTypeId: typeId,
    value: input.revoke ? null : (input.value as number),
    revoked: input.revoke === true,
    targets: scope.targets,
  };
}

/** The stored assignment, or one line saying where it was looked for. */
export async function requireAssignment(ctx: ActionContext, assignmentId: string, where = 'ASSIGNMENT'): Promise<AssignmentDoc> {
  const id = assignmentId.trim();
  const doc = id ? await ctx.pipeline.models.assignments.findById(id).lean<AssignmentDoc>() : null;
  if (!doc)
    throw new NotFound(
      `${where}: no assignment ${JSON.stringify(assignmentId)} in any batch (collected assignments only: run qrelay review <batch> first)`,
    );
  return doc;
}
