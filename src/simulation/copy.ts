import type { EscalatedCase, GoldItem, Judgment } from '../domain/cases.js';
import type { ImportDoc, RecordDoc } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { insertStoredForm, WRITES_IN_FLIGHT } from '../pipeline/bulk.js';
import type { PipelineContext } from '../pipeline/context.js';
import { draftBatch, requireBatch } from '../batches/index.js';
import { batchIdPrefix } from '../pipeline/names.js';
import { byBatchOrder } from '../pipeline/records.js';

/**
 * The simulated copy of a batch (`qrelay simulate`): its finished imports, cases, gold pool
 * and consensus labels under a new name, as a draft marked `simulated: true`. The source
 * is only read. The copy's hidden labels are the truth file's (or none without one), so
 * that its reports measure accuracy against what the user said is true.
 */

export interface CopyResult {
  items: number;
  gold: number;
  consensus: number;
  /** Items given a true label by the truth file. */
  withTruth: number;
}

const PREFIX_END = '|';

const idPrefix = batchIdPrefix;

/** What publishing and collecting wrote for batch `name`: HITs, assignments, labels, stopped workers (its imported records stay). */
async function deletePublished(ctx: PipelineContext, name: string): Promise<void> {
  const m = ctx.models;
  const assignments = await m.assignments.find({ batch: name }, { _id: 1 }).lean();
  for (let i = 0; i < assignments.length; i += 200)
    await m.assignmentAnswers.deleteMany({ _id: { $in: assignments.slice(i, i + 200).map((a) => a._id) } });
  await Promise.all([
    m.assignments.deleteMany({ batch: name }),
    m.labels.deleteMany({ batch: name }),
    m.hitIds.deleteMany({ batch: name }),
    m.hits.deleteMany({ batch: name }),
    m.hitQuestions.deleteMany({ _id: idPrefix(name) }),
    // the workers stopped in that publication: they belong to its private marketplace, which is gone
    // (kept, a replaced copy's next run pushed their reputation to a marketplace that never had them)
    m.workerDecisions.deleteMany({ batch: name }),
  ]);
}

/** Every document of batch `name` in the pipeline's collections. */
export async function deleteBatchData(ctx: PipelineContext, name: string): Promise<void> {
  const m = ctx.models;
  const ids = idPrefix(name);
  await deletePublished(ctx, name);
  await Promise.all([
    m.items.deleteMany({ batch: name }),
    m.itemTexts.deleteMany({ _id: ids }),
    m.gold.deleteMany({ batch: name }),
    m.goldTexts.deleteMany({ _id: ids }),
    m.consensus.deleteMany({ batch: name }),
    m.imports.deleteMany({ batch: name }),
  ]);
  await m.batches.deleteOne({ _id: name });
}

/**
 * The batch itself made ready for a simulation (the demo): marked simulated, and a
 * publication left unfinished by an earlier run (its private marketplace is gone) undone,
 * so the simulation starts over; the same seed gives the same result. Answers whether
 * the batch still needs its simulation (false: it is complete).
 */
export async function prepareInPlace(ctx: PipelineContext, name: string): Promise<boolean> {
  const doc = await requireBatch(ctx, name);
  if (doc.state === 'complete' || doc.state === 'closed') return false;
  if (doc.settings) {
    await deletePublished(ctx, name);
    await ctx.models.batches.updateOne(
      { _id: name },
      {
        $set: {
          state: 'draft',
          settings: null,
          plan: null,
          hitTypeId: null,
          starterHitTypeId: null,
          qualificationIds: {},
          publishStartedAt: null,
          publishedAt: null,
          completedAt: null,
          expiredAt: null,
          reposts: 0,
          summary: null,
          roundLeaseUntil: null,
          roundOwner: null,
        },
      },
    );
  }
  await ctx.models.batches.updateOne({ _id: name }, { $set: { simulated: true, updatedAt: ctx.now() } });
  return true;
}

/** Refuses an existing `name` unless `replace` (and never replaces a batch that is not simulated). */
export async function claimCopyName(ctx: PipelineContext, source: string, name: string, replace: boolean): Promise<void> {
  if (name === source)
    throw new UserError(`--as ${name}: the simulated copy needs a name of its own (batch ${source} itself is never changed)`);
  const existing = await ctx.models.batches.findById(name, { simulated: 1 }).lean();
  if (!existing) return;
  if (!replace) throw new UserError(`batch ${name} already exists: give --replace to simulate it again, or another name with --as`);
  if (existing.simulated !== true)
    throw new UserError(
      `batch ${name} exists and is not a simulated copy: --replace only replaces simulated batches; choose another name with --as`,
    );
  await deleteBatchData(ctx, name);
}

function renamed(id: string, source: string, name: string): string {
  return id.startsWith(source + PREFIX_END) ? name + id.slice(source.length) : `${name}${PREFIX_END}${id}`;
}

/**
 * The copy's visible records with their texts, as the copy wrote them: what publishing
 * (the plan), the simulation's oracle and the final report would otherwise each read back
 * from the database (every case's text, the largest documents of a batch).
 */
export interface CopiedRecords {
  /** Visible escalated cases in the batch's order (as `visibleRecords` gives them), with their cases (parallel). */
  items: RecordDoc[];
  cases: EscalatedCase[];
  /** Visible gold records in the batch's order, with their gold items (parallel). */
  gold: RecordDoc[];
  goldItems: GoldItem[];
}

/** The source's stored texts by record `_id`, read in one pass (by `_id` prefix). */
async function sourceTexts<R>(
  model: { find(filter: { _id: RegExp }): { lean<T>(): PromiseLike<T> } },
  source: string,
): Promise<Map<string, R>> {
  return new Map((await model.find({ _id: idPrefix(source) }).lean<{ _id: string; record: R }[]>()).map((t) => [t._id, t.record]));
}

/** Each copied record's text (its source record's). */
function textsOf<R>(source: string, texts: ReadonlyMap<string, R>, rows: readonly RecordDoc[], name: string): R[] {
  return rows.map((r) => {
    const record = texts.get(renamed(r._id, name, source));
    if (!record) throw new UserError(`batch ${source}: case ${r.queryId}/${r.chunkId} has no stored text; import it again`);
    return record;
  });
}

/**
 * Copies `source` into the draft `name` (which must not exist). `truth`: true labels by
 * `${query_id}\t${chunk_id}`. Reads each collection of the source once and writes the copy
 * in bulk: texts first, then records, then the imports that make the records visible (as
 * an import commits); independent collections at the same time.
 */
export async function copyBatch(
  ctx: PipelineContext,
  source: string,
  name: string,
  truth: ReadonlyMap<string, Judgment> | undefined,
): Promise<CopyResult & { records: CopiedRecords }> {
  await requireBatch(ctx, source);
  const m = ctx.models;
  const imports = await m.imports.find({ batch: source, state: 'done' }).lean<ImportDoc[]>();
  const importIds = new Map(imports.map((i) => [i._id, `${i._id}@${name}`]));
  const now = ctx.now();
  const trueLabel = (r: RecordDoc): Judgment | null => (truth ? (truth.get(`${r.queryId}\t${r.chunkId}`) ?? null) : null);
  const copyRecords = (rows: RecordDoc[], kind: 'items' | 'other') =>
    rows
      .filter((r) => r.imports.some((id) => importIds.has(id)))
      .map((r) => ({
        ...r,
        _id: renamed(r._id, source, name),
        batch: name,
        imports: r.imports.flatMap((id) => (importIds.has(id) ? [importIds.get(id)!] : [])),
        ...(kind === 'items' ? { label: trueLabel(r) } : {}),
      }));
  // the texts are read alongside the records (the larger read of the two), matched to them after
  const texts = Promise.all([sourceTexts<EscalatedCase>(m.itemTexts, source), sourceTexts<GoldItem>(m.goldTexts, source)]);
  // awaited below; a failure of the records' read first must not leave this one unhandled
  texts.catch(() => undefined);
  const [items, gold, consensus] = await Promise.all([
    m.items
      .find({ batch: source })
      .lean<RecordDoc[]>()
      .then((r) => copyRecords(r, 'items')),
    m.gold
      .find({ batch: source })
      .lean<RecordDoc[]>()
      .then((r) => copyRecords(r, 'other')),
    m.consensus
      .find({ batch: source })
      .lean<RecordDoc[]>()
      .then((r) => copyRecords(r, 'other')),
  ]);
  const [itemTextsById, goldTextsById] = await texts;
  const itemTexts = textsOf(source, itemTextsById, items, name);
  const goldItems = textsOf(source, goldTextsById, gold, name);
  // the copy's hidden labels are the truth file's (or none)
  const cases = items.map((r, i): EscalatedCase => {
    const { hidden_label: _hidden, ...rest } = itemTexts[i]!;
    return { ...rest, ...(r.label ? { hidden_label: r.label } : {}) };
  });
  await m.batches.create({ ...draftBatch(name, now), simulated: true });
  // every row is a stored document of the same collection, renamed: written as it is
  await Promise.all([
    insertStoredForm(
      m.itemTexts.collection,
      items.map((r, i) => ({ _id: r._id, record: cases[i]! })),
      { concurrency: WRITES_IN_FLIGHT },
    ),
    insertStoredForm(
      m.goldTexts.collection,
      gold.map((r, i) => ({ _id: r._id, record: goldItems[i]! })),
    ),
  ]);
  await Promise.all([
    insertStoredForm(m.items.collection, items, { concurrency: WRITES_IN_FLIGHT }),
    insertStoredForm(m.gold.collection, gold),
    insertStoredForm(m.consensus.collection, consensus),
  ]);
  await insertStoredForm(
    m.imports.collection,
    imports.map((i) => ({ ...i, _id: importIds.get(i._id)!, batch: name })),
  );
  const caseOf = new Map(items.map((r, i) => [r._id, cases[i]!]));
  const goldOf = new Map(gold.map((r, i) => [r._id, goldItems[i]!]));
  const visibleItems = [...items].sort(byBatchOrder);
  const visibleGold = [...gold].sort(byBatchOrder);
  return {
    items: items.length,
    gold: gold.length,
    consensus: consensus.length,
    withTruth: items.filter((r) => r.label !== null).length,
    records: {
      items: visibleItems,
      cases: visibleItems.map((r) => caseOf.get(r._id)!),
      gold: visibleGold,
      goldItems: visibleGold.map((r) => goldOf.get(r._id)!),
    },
  };
}
