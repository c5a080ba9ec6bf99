import type { Judgment } from '../domain/cases.js';
import { NotFound, UserError } from '../errors.js';
import { caseKey } from '../ingest/index.js';
import { itemId } from '../pipeline/names.js';
import { touchManualLabels } from '../pipeline/revision.js';
import { requireBatch } from '../batches/index.js';
import { recordAudit } from './audit.js';
import type { ActionContext } from './context.js';
import type { ManualLabelDoc } from './models.js';
import { checkText } from './scope.js';

/**
 * `qrelay label`: a person decides an item (typically one the crowd left unresolved or
 * contested). Stored with provenance `manual` (who, when, note); `export-qrels` uses it
 * over the crowd's label for that item, and the report lists it. Deciding the same item
 * again replaces the decision (the audit log keeps every one).
 */

export interface ManualLabelInput {
  batch: string;
  queryId: string;
  chunkId: string;
  label: Judgment;
  note: string;
}

export interface ManualLabelResult {
  batch: string;
  item: string;
  queryId: string;
  chunkId: string;
  label: Judgment;
  note: string;
  who: string;
  at: string;
  /** The label it replaced, if any; `changed: false` when it was the same. */
  previous: Judgment | null;
  changed: boolean;
}

export async function setManualLabel(ctx: ActionContext, input: ManualLabelInput): Promise<ManualLabelResult> {
  const doc = await requireBatch(ctx.pipeline, input.batch);
  if (input.label !== 'yes' && input.label !== 'no') throw new UserError(`--label: expected yes or no, got ${JSON.stringify(input.label)}`);
  const note = checkText(input.note, '--note', 2000);
  const queryId = input.queryId.trim();
  const chunkId = input.chunkId.trim();
  const id = itemId(doc._id, caseKey(queryId, chunkId));
  if (!(await ctx.pipeline.models.items.exists({ _id: id }))) {
    throw new NotFound(
      `--query ${JSON.stringify(queryId)} --chunk ${JSON.stringify(chunkId)}: batch ${doc._id} has no such escalated item (see qrelay status ${doc._id}, or the items on its console page)`,
    );
  }
  const previous = await ctx.models.manualLabels.findById(id).lean<ManualLabelDoc>();
  const at = ctx.pipeline.now();
  const changed = previous?.label !== input.label || previous.note !== note;
  if (changed) {
    await ctx.models.manualLabels.updateOne(
      { _id: id },
      { $set: { batch: doc._id, queryId, chunkId, label: input.label, note, who: ctx.who, at } },
      { upsert: true },
    );
    // the report snapshots (src/api/answers.ts) list manual decisions
    await touchManualLabels(ctx.pipeline, doc._id);
  }
  await recordAudit(ctx, {
    batch: doc._id,
    action: 'label',
    subject: id,
    reason: note,
    details: { queryId, chunkId, label: input.label, previous: previous?.label ?? null },
    outcome: changed ? 'done' : 'already-done',
  });
  const stored = changed ? { who: ctx.who, at } : { who: previous!.who, at: new Date(previous!.at) };
  return {
    batch: doc._id,
    item: id,
    queryId,
    chunkId,
    label: input.label,
    note,
    who: stored.who,
    at: stored.at.toISOString(),
    previous: previous?.label ?? null,
    changed,
  };
}

/** The batch's manual decisions, by item id. */
export async function manualLabelsOf(
  connectionModels: { manualLabels: ActionContext['models']['manualLabels'] },
  batch: string,
): Promise<ManualLabelDoc[]> {
  const rows = await connectionModels.manualLabels.find({ batch }).lean<ManualLabelDoc[]>();
  return rows.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}
