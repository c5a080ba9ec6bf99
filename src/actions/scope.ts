import type { AssignmentDoc, BatchDoc } from '../db/models/index.js';
import { CONTROL_CHARACTERS, isWorkerId, WORKER_ID_RULE } from '../crowd/ids.js';
import { UserError } from '../errors.js';
import { requireBatch } from '../batches/index.js';
import { NO_BATCH } from './audit.js';
import type { ActionContext } from './context.js';

/**
 * Where a worker-level action applies. Blocks, messages and qualification scores live on
 * a platform (a target), not in a batch; the audit log is per batch. With `--batch`, that
 * batch and its target; without, every batch the worker has worked in and their targets;
 * a worker no batch knows gets the default target (MTURK_TARGET) and the log `-`.
 */
export interface WorkerScope {
  batches: string[];
  targets: string[];
}

const targetOf = (doc: BatchDoc, fallback: string) => doc.settings?.target ?? fallback;

export async function workerScope(ctx: ActionContext, workerIds: readonly string[], batch?: string): Promise<WorkerScope> {
  if (batch !== undefined) {
    const doc = await requireBatch(ctx.pipeline, batch);
    return { batches: [batch], targets: [targetOf(doc, ctx.defaultTarget)] };
  }
  const rows = await ctx.pipeline.models.assignments
    .find({ workerId: { $in: [...workerIds] } }, { batch: 1 })
    .lean<Pick<AssignmentDoc, 'batch'>[]>();
  const batches = [...new Set(rows.map((r) => r.batch))].sort();
  if (batches.length === 0) return { batches: [NO_BATCH], targets: [ctx.defaultTarget] };
  const targets = new Set<string>();
  for (const name of batches) targets.add(targetOf(await requireBatch(ctx.pipeline, name), ctx.defaultTarget));
  return { batches, targets: [...targets].sort() };
}

/** A worker id as MTurk documents them (crowd/ids.ts); one line naming `where` otherwise. */
export function checkWorkerId(value: string, where = 'WORKER'): string {
  const id = value.trim();
  if (!isWorkerId(id)) throw new UserError(`${where}: ${JSON.stringify(value.slice(0, 80))} is not a worker id (${WORKER_ID_RULE})`);
  return id;
}

const CONTROL = new RegExp(`[${CONTROL_CHARACTERS}]`);

/** A reason or note: trimmed, not empty, at most `max` characters, no control characters but tab and line breaks. */
export function checkText(value: string | undefined, where: string, max = 1024): string {
  const text = (value ?? '').trim();
  if (CONTROL.test(text)) throw new UserError(`${where}: no ASCII control characters but tab and line breaks (MTurk refuses them)`);
  if (text.length === 0)
    throw new UserError(
      `${where}: give a reason (it is recorded in the audit log${where === '--reason' ? ' and MTurk shows it to the worker' : ''})`,
    );
  if (text.length > max) throw new UserError(`${where}: at most ${max} characters (got ${text.length})`);
  return text;
}
