import type { BatchDoc } from '../db/models/index.js';
import { endpointAnswers } from '../crowd/reachable.js';
import { CrowdCallError } from '../crowd/call-error.js';
import { requireCapability } from '../crowd/platform.js';
import { NotFound, UserError, errorMessage } from '../errors.js';
import { buildLabels, loadBatchData, type BatchAggregation, type BatchData } from '../batches/index.js';
import { requireBatch } from '../batches/index.js';
import { withLlmFlags } from '../pipeline/llm-flags.js';
import { itemCases } from '../pipeline/records.js';
import { bySubmission } from '../pipeline/votes.js';
import { BLOCKED_QUALIFICATION } from '../pipeline/blocked-qualification.js';
import { REVIEW_ACTOR, workerDecisions } from '../pipeline/worker-decisions.js';
import { withReputation } from '../pipeline/reputation.js';
import type { ActionContext } from './context.js';
import { itemsTable, type ItemRow } from './items-table.js';
import type { BonusDoc, ManualLabelDoc } from './models.js';
import {
  labelMap,
  stopHistory,
  workerAnswers,
  workerTable,
  type PlatformFacts,
  type StopAuditEntry,
  type WorkerAnswer,
  type WorkerRow,
} from './worker-table.js';

/** The console's and the CLI's read models of a batch, loaded from the database and the platform. */

export interface BatchView {
  doc: BatchDoc;
  data: BatchData;
  /** Null before publishing. */
  aggregation: BatchAggregation | null;
}

export async function loadBatchView(ctx: ActionContext, batch: string): Promise<BatchView> {
  const doc = await requireBatch(ctx.pipeline, batch);
  const data = await loadBatchData(ctx.pipeline, batch);
  return { doc, data, aggregation: doc.settings ? buildLabels(doc, data, ctx.pipeline.now()) : null };
}

/** Where a batch's platform fields came from: its target, and whether it answered (`note` says why not). */
export interface PlatformState {
  target: string;
  reachable: boolean;
  note: string | null;
}

export interface WorkerTable {
  workers: WorkerRow[];
  /** Null before publishing (no platform yet). */
  platform: PlatformState | null;
}

/** What the platform knows of the batch's workers: blocks and qualification scores. */
async function platformFacts(ctx: ActionContext, doc: BatchDoc): Promise<PlatformFacts> {
  const backend = ctx.pipeline.backend(doc.settings!.target);
  const blocks = new Map((await backend.listWorkerBlocks()).map((b) => [b.workerId, b.reason]));
  const scores = new Map<string, Map<string, number>>();
  for (const [name, id] of Object.entries(doc.qualificationIds ?? {}))
    scores.set(name, await requireCapability(backend, 'qualifications', `the batch's qualification ${name}`).qualificationScores(id));
  // soft blocks: the target's qrelay-blocked qualification, with the reason this batch recorded
  const decisions = await workerDecisions(ctx.pipeline, doc._id);
  for (const workerId of scores.get(BLOCKED_QUALIFICATION)?.keys() ?? []) {
    if (blocks.has(workerId)) continue;
    const reason = decisions.get(workerId)?.reason;
    blocks.set(workerId, `soft block (${BLOCKED_QUALIFICATION} qualification)${reason ? `: ${reason}` : ''}`);
  }
  return { blocks, scores };
}

/**
 * `qrelay workers BATCH`: one row per worker who submitted anything, by worker id, from
 * qrelay's database; blocks and qualification scores from the batch's platform. A platform
 * that does not answer (checked with a quick connection first, rather than a minute of
 * retries) leaves those fields unknown (null) and says so in `platform.note`.
 */
export async function loadWorkerTable(ctx: ActionContext, batch: string, view?: BatchView): Promise<WorkerTable> {
  const v = view ?? (await loadBatchView(ctx, batch));
  if (!v.doc.settings || !v.aggregation) return { workers: [], platform: null };
  const target = v.doc.settings.target;
  const unknown = (why: string): { facts: PlatformFacts; platform: PlatformState } => ({
    facts: { blocks: null, scores: null },
    platform: { target, reachable: false, note: `${why}: blocks and qualification scores are unknown` },
  });
  let known: { facts: PlatformFacts; platform: PlatformState };
  try {
    const { endpoint } = ctx.pipeline.backend(target).target;
    if (!(await endpointAnswers(endpoint))) known = unknown(`the crowd platform at ${endpoint} does not answer`);
    else known = { facts: await platformFacts(ctx, v.doc), platform: { target, reachable: true, note: null } };
  } catch (err) {
    if (!(err instanceof CrowdCallError) && !(err instanceof UserError)) throw err;
    known = unknown(`the crowd platform ${target} failed (${errorMessage(err)})`);
  }
  const bonuses = await ctx.models.bonuses.find({ batch }).lean<BonusDoc[]>();
  const assignmentIds = new Map<string, string[]>();
  for (const a of bySubmission(v.data.assignments)) assignmentIds.set(a.workerId, [...(assignmentIds.get(a.workerId) ?? []), a._id]);
  const stats = await withLlmFlags(ctx.pipeline, v.data, v.aggregation.aggregate.workers);
  const stopEntries = await ctx.models.audit
    .find(
      // the review's stops and lifts, and a person's revoke of the soft block (stopHistory reads which)
      { batch, $or: [{ who: REVIEW_ACTOR, action: { $in: ['soft-block', 'unblock'] } }, { action: 'revoke' }] },
      { action: 1, subject: 1, at: 1, reason: 1, details: 1 },
    )
    .lean<StopAuditEntry[]>();
  const stops = stopHistory(stopEntries);
  return {
    // each row with the worker's cross-batch reputation on the target (qrelay's database)
    workers: await withReputation(ctx.pipeline, target, workerTable({ stats, ...known.facts, bonuses, assignmentIds, stops })),
    platform: known.platform,
  };
}

export async function loadWorkerAnswers(ctx: ActionContext, batch: string, workerId: string, view?: BatchView): Promise<WorkerAnswer[]> {
  const v = view ?? (await loadBatchView(ctx, batch));
  if (!v.data.assignments.some((a) => a.workerId === workerId))
    throw new NotFound(`worker ${workerId} has no assignment in batch ${batch}: see the batch's workers (qrelay workers ${batch})`);
  const manual = await ctx.models.manualLabels.find({ batch }).lean<ManualLabelDoc[]>();
  const labels = labelMap(v.aggregation?.labels ?? []);
  for (const m of manual) labels.set(m._id, m.label);
  return workerAnswers(workerId, v.data.hits, v.data.assignments, labels);
}

export async function loadItems(ctx: ActionContext, batch: string, view?: BatchView): Promise<ItemRow[]> {
  const v = view ?? (await loadBatchView(ctx, batch));
  if (!v.aggregation) return [];
  const labels = v.aggregation.labels;
  const cases = await itemCases(ctx.pipeline, labels);
  const manual = await ctx.models.manualLabels.find({ batch }).lean<ManualLabelDoc[]>();
  return itemsTable({
    hits: v.data.hits,
    assignments: v.data.assignments,
    labels,
    valid: new Set(v.aggregation.aggregate.valid.map((x) => `${x.item}\u0000${x.worker}`)),
    cases: new Map(labels.map((l, i) => [l._id, cases[i]!])),
    manual: new Map(manual.map((m) => [m._id, m])),
  });
}
