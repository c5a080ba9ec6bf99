import { createHash, randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { ImportCounts, ImportDoc, RecordDoc } from '../db/models/index.js';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { simKey } from '../hits/index.js';
import { caseKey, DEFAULT_MAX_ERRORS, detectKind, formatIssue, scanFile, type IngestIssue, type IngestKind, type RecordOf } from '../ingest/index.js';
import { ImportWriter } from './import-writer.js';
import type { PipelineContext } from './context.js';
import { BatchStateError } from './errors.js';
import { checkBatchName, itemId } from './names.js';
import { doneImports, recordModel } from './records.js';

/**
 * `qrelay import` / `POST /api/v1/batches`: one file of escalated cases, gold items or
 * consensus labels into a batch.
 *
 * One pass over the file (`scanFile`), validating and writing together, in chunks:
 * - each record is checked against the batch's stored records of its kind (their `_id`,
 *   content hash and imports, loaded once): a changed record under a visible key is an
 *   error; an invisible one (left by an import that never finished) with other content is
 *   replaced;
 * - new records are inserted (`insertMany`, texts first: a record is never visible without
 *   its text), records already stored only gain the import's id (`$addToSet`), all under an
 *   import record `committing`, flipped to `done` at the end. Readers show a record only
 *   when one of its imports is done, so a crash mid-commit leaves nothing of the file
 *   visible, and a re-run (a new import of the same file) completes it;
 * - at the first bad line writing stops, the rest of the file is still checked, and what
 *   this import inserted is deleted again: the error lists every bad line (line, field,
 *   reason; the first `maxErrors`) and nothing was imported.
 */

export interface ImportOptions {
  batch: string;
  /** Detected from the first record when absent (BRIDGE files need it). */
  kind?: IngestKind;
  maxErrors?: number;
  maxLineBytes?: number;
  /** How messages name the file (the REST route names the upload, not its temp file). */
  displayName?: string;
  /** Records written per bulk request. */
  chunkSize?: number;
}

export interface ImportResult {
  importId: string;
  batch: string;
  kind: IngestKind;
  file: string;
  format: string | null;
  counts: ImportCounts;
}

/** The file's errors (all of them up to the limit): the CLI lists them, the API returns them. */
export class ImportRejected extends UserError {
  constructor(
    readonly file: string,
    readonly errors: IngestIssue[],
    readonly moreErrors: number,
  ) {
    const count = errors.length + moreErrors;
    const first = errors[0];
    super(
      `${file} has ${count} error${count === 1 ? '' : 's'}, nothing was imported${first ? `; the first: ${formatIssue(file, first)}` : ''}`,
    );
    this.name = 'ImportRejected';
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The stored fields of a record of any kind (its sha is of the canonical record). */
function recordFields<K extends IngestKind>(kind: K, batch: string, record: RecordOf<K>) {
  const key = caseKey(record.query_id, record.chunk_id);
  const label = kind === 'escalations' ? ((record as EscalatedCase).hidden_label ?? null) : (record as GoldItem).label;
  return {
    _id: itemId(batch, key),
    batch,
    caseKey: key,
    key: simKey(record.query_id, record.chunk_id),
    queryId: record.query_id,
    chunkId: record.chunk_id,
    dataset: record.dataset,
    label,
    sha: sha256(JSON.stringify(record)),
  };
}

/** The batch's stored records of a kind: id -> content hash, and whether a finished import shows it. */
async function storedRecords(ctx: PipelineContext, kind: IngestKind, batch: string): Promise<Map<string, { sha: string; visible: boolean }>> {
  const stored = await recordModel(ctx, kind).find({ batch }, { sha: 1, imports: 1 }).lean<Pick<RecordDoc, '_id' | 'sha' | 'imports'>[]>();
  if (stored.length === 0) return new Map();
  const done = await doneImports(ctx, batch);
  return new Map(stored.map((r) => [r._id, { sha: r.sha, visible: r.imports.some((id) => done.has(id)) }]));
}

/** Refuses a published batch's cases or gold pool (read only: a bad file creates no batch). */
async function checkBatchOpen(ctx: PipelineContext, batch: string, kind: IngestKind): Promise<void> {
  const doc = await ctx.models.batches.findById(batch, { state: 1, settings: 1 }).lean();
  if (doc?.settings && kind !== 'consensus') {
    throw new BatchStateError(
      `batch ${batch} is already published (${doc.state}): its ${kind === 'gold' ? 'gold pool' : 'cases'} can no longer change; import into a new batch`,
    );
  }
}

/** Creates the batch when new; true when this call created it. */
async function ensureBatch(ctx: PipelineContext, batch: string): Promise<boolean> {
  const now = ctx.now();
  const result = await ctx.models.batches.updateOne(
    { _id: batch },
    { $setOnInsert: { _id: batch, state: 'draft', createdAt: now, updatedAt: now, settings: null, plan: null, hitTypeId: null, qualificationIds: {}, reposts: 0, summary: null } },
    { upsert: true },
  );
  return result.upsertedCount > 0;
}

const changedRecordReason = (batch: string, record: { query_id: string; chunk_id: string }) =>
  `batch ${batch} already holds query_id ${JSON.stringify(record.query_id)} with chunk_id ${JSON.stringify(record.chunk_id)} with different content: a batch's records do not change; import the new version into a new batch`;

export async function importFile(ctx: PipelineContext, file: string, opts: ImportOptions): Promise<ImportResult> {
  const batch = checkBatchName(opts.batch, 'batch');
  const shown = opts.displayName ?? file;
  const kind = opts.kind ?? (await detectKind(file, { maxLineBytes: opts.maxLineBytes }));
  await checkBatchOpen(ctx, batch, kind);
  const stored = await storedRecords(ctx, kind, batch);

  const started = ctx.now();
  const importId = `imp-${started.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
  const counts: ImportCounts = { lines: 0, records: 0, inserted: 0, existing: 0, duplicates: 0, skipped: 0 };
  const maxErrors = opts.maxErrors ?? DEFAULT_MAX_ERRORS;
  const errors: IngestIssue[] = [];
  let moreErrors = 0;
  const addIssue = (issue: IngestIssue) => (errors.length < maxErrors ? errors.push(issue) : moreErrors++);

  let createdBatch = false;
  const writer = new ImportWriter(ctx, kind, importId, async () => {
    // the first write: the batch and the import record, `committing` until the end
    createdBatch = await ensureBatch(ctx, batch);
    const doc: ImportDoc = { _id: importId, batch, kind, file: basename(shown), format: null, state: 'committing', startedAt: started, finishedAt: null, counts };
    await ctx.models.imports.create(doc);
  });
  const chunkSize = opts.chunkSize ?? 500;
  const scan = scanFile(file, kind, { maxLineBytes: opts.maxLineBytes });
  let format: string | null = null;
  let written: Promise<void> = Promise.resolve();
  for (;;) {
    const next = await scan.next();
    if (next.done) {
      const { fileIssue, ...summary } = next.value;
      if (fileIssue) addIssue(fileIssue);
      Object.assign(counts, { lines: summary.lines, records: summary.records, duplicates: summary.duplicates, skipped: summary.skipped });
      format = summary.format;
      break;
    }
    for (const issue of next.value.issues) addIssue(issue);
    for (const { line, record } of next.value.records) {
      const { _id, ...fields } = recordFields(kind, batch, record as RecordOf<typeof kind>);
      const before = stored.get(_id);
      if (before && before.sha !== fields.sha && before.visible) {
        addIssue({ line, field: '', reason: changedRecordReason(batch, record) });
        continue;
      }
      if (errors.length > 0) continue; // only checking from the first error on
      const doc = { _id, ...fields, order: [started.getTime(), line], imports: [importId] };
      if (!before) writer.insert(doc, record);
      else if (before.sha === fields.sha) writer.existing(_id);
      else writer.replace(doc, record); // an unfinished import's other version
      if (writer.pending >= chunkSize) {
        // one chunk in flight while the next is read and checked: the database and the parser overlap
        await written;
        written = writer.flush(counts).then(() => ctx.progress(`${shown}: ${counts.inserted + counts.existing} ${kind} records written`));
        written.catch(() => undefined); // awaited at the next chunk or at the end; not unhandled meanwhile
      }
    }
  }
  await written;
  if (errors.length > 0) {
    await writer.undo();
    if (createdBatch && (await ctx.models.imports.countDocuments({ batch })) === 0) await ctx.models.batches.deleteOne({ _id: batch, settings: null });
    throw new ImportRejected(shown, errors, moreErrors);
  }
  await writer.flush(counts);
  await ctx.models.imports.updateOne({ _id: importId }, { $set: { state: 'done', format, finishedAt: ctx.now(), counts } });
  await ctx.models.batches.updateOne({ _id: batch }, { $set: { updatedAt: ctx.now() } });
  return { importId, batch, kind, file: shown, format, counts };
}
