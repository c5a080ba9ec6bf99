import type { BatchDoc } from '../db/models/index.js';
import { BatchStateError } from '../pipeline/errors.js';
import { requireBatch } from '../batches/index.js';
import { batchStatus, type BatchStatus } from '../pipeline/status.js';
import { recordAudit } from './audit.js';
import { batchBonusCents } from './bonus.js';
import type { ActionContext } from './context.js';

/**
 * `qrelay batches` (state, items, progress, spend) and `qrelay delete` (drafts only).
 */

export interface BatchOverview {
  batch: string;
  state: BatchDoc['state'];
  target: string | null;
  preset: string | null;
  createdAt: string;
  items: number;
  itemsComplete: number;
  /** itemsComplete / items; null without items. */
  progress: number | null;
  labelled: number;
  unresolved: number;
  fleissKappa: number | null;
  /** Whole cents: paid work and fees plus bonuses with their fees. */
  spendCents: number;
  bonusCents: number;
  committedCents: number;
  budgetCents: number | null;
}

/** The overview row of one batch from its status and its bonuses (pure). */
export function overviewOf(s: BatchStatus, bonusCents: number): BatchOverview {
  return {
    batch: s.batch,
    state: s.state,
    target: s.target,
    preset: s.preset,
    createdAt: s.createdAt,
    items: s.items.total,
    itemsComplete: s.items.complete,
    progress: s.items.total > 0 ? s.items.complete / s.items.total : null,
    labelled: s.items.labelled,
    unresolved: s.items.unresolved,
    fleissKappa: s.fleissKappa.value,
    spendCents: s.cost.spent + bonusCents,
    bonusCents,
    committedCents: s.cost.committed,
    budgetCents: s.cost.budget,
  };
}

export async function batchOverview(ctx: ActionContext, batch: string): Promise<BatchOverview> {
  return overviewOf(await batchStatus(ctx.pipeline, batch), await batchBonusCents(ctx, batch));
}

/** Every batch, oldest first. */
export async function listBatches(ctx: ActionContext): Promise<BatchOverview[]> {
  const docs = await ctx.pipeline.models.batches.find({}, { _id: 1, createdAt: 1 }).lean<Pick<BatchDoc, '_id' | 'createdAt'>[]>();
  docs.sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || (a._id < b._id ? -1 : 1));
  const out: BatchOverview[] = [];
  for (const d of docs) out.push(await batchOverview(ctx, d._id));
  return out;
}

export interface DeleteResult {
  batch: string;
  deleted: { items: number; gold: number; consensus: number; imports: number };
}

/**
 * Removes a draft batch (imported, never published) and everything imported into it.
 * Published batches have HITs and money behind them and are refused (expire and clean
 * them up instead). The batch document goes last, so a crash half-way leaves a draft
 * that `delete` finishes.
 */
export async function deleteDraftBatch(ctx: ActionContext, batch: string): Promise<DeleteResult> {
  const doc = await requireBatch(ctx.pipeline, batch);
  if (doc.state !== 'draft' || doc.settings) {
    throw new BatchStateError(
      `batch ${batch} is ${doc.state}, not a draft: only a batch never published can be deleted (stop one with qrelay expire ${batch}, then qrelay cleanup ${batch})`,
    );
  }
  const m = ctx.pipeline.models;
  const ids = async (model: typeof m.items) => (await model.find({ batch }, { _id: 1 }).lean()).map((r) => r._id);
  const itemIds = await ids(m.items);
  const goldIds = await ids(m.gold);
  const consensusIds = await ids(m.consensus);
  if (itemIds.length) await m.itemTexts.deleteMany({ _id: { $in: itemIds } });
  if (goldIds.length) await m.goldTexts.deleteMany({ _id: { $in: goldIds } });
  await m.items.deleteMany({ batch });
  await m.gold.deleteMany({ batch });
  await m.consensus.deleteMany({ batch });
  const imports = await m.imports.deleteMany({ batch });
  await ctx.models.manualLabels.deleteMany({ batch });
  await m.batches.deleteOne({ _id: batch, state: 'draft' });
  await recordAudit(ctx, {
    batch,
    action: 'delete',
    subject: batch,
    reason: 'draft deleted',
    details: { items: itemIds.length, gold: goldIds.length, consensus: consensusIds.length },
    outcome: 'done',
  });
  return {
    batch,
    deleted: { items: itemIds.length, gold: goldIds.length, consensus: consensusIds.length, imports: imports.deletedCount ?? 0 },
  };
}
