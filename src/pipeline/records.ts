import type { Model } from 'mongoose';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import type { RecordDoc } from '../db/models/index.js';
import type { IngestKind } from '../ingest/index.js';
import { UserError } from '../errors.js';
import type { PipelineContext } from './context.js';
import { batchIdPrefix } from './names.js';
import { mapPool } from './pool.js';

export function recordModel(ctx: PipelineContext, kind: IngestKind): Model<RecordDoc> {
  return kind === 'escalations' ? ctx.models.items : kind === 'gold' ? ctx.models.gold : ctx.models.consensus;
}

/** Ids of the batch's finished imports (the imports collection is small). */
export async function doneImports(ctx: PipelineContext, batch: string): Promise<Set<string>> {
  const rows = await ctx.models.imports.find({ batch, state: 'done' }, { _id: 1 }).lean();
  return new Set(rows.map((r) => r._id));
}

/** In the batch's order: first import, then line. */
export const byBatchOrder = (a: Pick<RecordDoc, 'order'>, b: Pick<RecordDoc, 'order'>): number =>
  (a.order[0] ?? 0) - (b.order[0] ?? 0) || (a.order[1] ?? 0) - (b.order[1] ?? 0);

/**
 * The batch's records of a kind that a finished import wrote, in the batch's order (first
 * import, then line). Rows of an import that never finished are not shown.
 */
export async function visibleRecords(ctx: PipelineContext, kind: IngestKind, batch: string): Promise<RecordDoc[]> {
  const done = await doneImports(ctx, batch);
  if (done.size === 0) return [];
  const rows = await recordModel(ctx, kind).find({ batch }).lean<RecordDoc[]>();
  return rows.filter((r) => r.imports.some((id) => done.has(id))).sort(byBatchOrder);
}

/** Above this many records of one batch, its texts are read in one pass rather than one lookup each. */
const ONE_PASS_FROM = 64;

/** The batch name shared by every `_id` (`${batch}|${caseKey}`), when there is one. */
function sharedBatch(ids: readonly string[]): string | undefined {
  const first = ids[0]?.split('|')[0];
  return first !== undefined && ids.every((id) => id.startsWith(`${first}|`)) ? first : undefined;
}

/** What the text helpers need of the item and gold text models (`_id`, the record). */
interface TextModel<R> {
  find(filter: { _id: RegExp }): { lean(): PromiseLike<{ _id: string; record: R }[]> };
  findById(id: string): { lean(): PromiseLike<{ record: R } | null> };
}

/**
 * The stored texts of these records. Few: read by `_id`, several at a time. Many of one
 * batch (a plan, a report, a simulation's oracle): the batch's texts in one pass over the
 * collection by `_id` prefix, since each lookup by `_id` is a round trip and the pass
 * costs about as much as a few dozen of them.
 */
async function textsOf<R>(model: TextModel<R>, rows: readonly Pick<RecordDoc, '_id'>[], missing: (id: string) => Error): Promise<R[]> {
  const batch = rows.length >= ONE_PASS_FROM ? sharedBatch(rows.map((r) => r._id)) : undefined;
  if (batch !== undefined) {
    const texts = new Map((await model.find({ _id: batchIdPrefix(batch) }).lean()).map((t) => [t._id, t.record]));
    return rows.map((row) => {
      const record = texts.get(row._id);
      if (!record) throw missing(row._id);
      return record;
    });
  }
  return mapPool(rows, 8, async (row) => {
    const doc = await model.findById(row._id).lean();
    if (!doc) throw missing(row._id);
    return doc.record;
  });
}

/** The full cases of these records. */
export function itemCases(ctx: PipelineContext, rows: readonly Pick<RecordDoc, '_id'>[]): Promise<EscalatedCase[]> {
  const known = ctx.knownCases;
  if (known && rows.every((r) => known.has(r._id))) return Promise.resolve(rows.map((r) => known.get(r._id)!));
  return textsOf(
    ctx.models.itemTexts,
    rows,
    (id) => new UserError(`the text of item ${id} is missing from the database: import its file again`),
  );
}

/** The gold items of these records (a plan's attention checks). */
export function goldItems(ctx: PipelineContext, rows: readonly RecordDoc[]): Promise<GoldItem[]> {
  return textsOf(
    ctx.models.goldTexts,
    rows,
    (id) => new UserError(`the text of gold item ${id} is missing from the database: import its file again`),
  );
}
