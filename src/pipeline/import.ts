import { createHash, randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { ImportCounts, ImportDoc, RecordDoc } from '../db/models/index.js';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { simKey } from '../hits/index.js';
import {
  caseKey,
  DEFAULT_MAX_ERRORS,
  detectFileKind,
  detectKind,
  formatIssue,
  refuseQrelsFile,
  scanFile,
  validateFile,
  type IgnoredField,
  type IngestIssue,
  type IngestKind,
  type RecordOf,
  type ValidationReport,
} from '../ingest/index.js';
import { ImportWriter } from './import-writer.js';
import { draftBatch } from '../batches/index.js';
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
  /**
   * false: leave the import `committing` (its records invisible) for `finishImports` to flip;
   * `importAny` does so to make a BRIDGE file's two kinds visible together or not at all.
   */
  commit?: boolean;
}

export interface ImportResult {
  importId: string;
  batch: string;
  kind: IngestKind;
  file: string;
  format: string | null;
  counts: ImportCounts;
  /** Fields of the file's valid lines that qrelay does not read. */
  ignoredFields: IgnoredField[];
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
async function storedRecords(
  ctx: PipelineContext,
  kind: IngestKind,
  batch: string,
): Promise<Map<string, { sha: string; visible: boolean }>> {
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
    {
      $setOnInsert: draftBatch(batch, now),
    },
    { upsert: true },
  );
  return result.upsertedCount > 0;
}

const changedRecordReason = (batch: string, record: { query_id: string; chunk_id: string }) =>
  `batch ${batch} already holds query_id ${JSON.stringify(record.query_id)} with chunk_id ${JSON.stringify(record.chunk_id)} with different content: a batch's records do not change; import the new version into a new batch`;

/**
 * The file is read and written in pieces of this many bytes: what an import holds in memory
 * is bounded by it (and by the longest line), not by the file's size or its records' size.
 */
const READ_BYTES = 256 * 1024;

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
    const doc: ImportDoc = {
      _id: importId,
      batch,
      kind,
      file: basename(shown),
      format: null,
      state: 'committing',
      startedAt: started,
      finishedAt: null,
      counts,
    };
    await ctx.models.imports.create(doc);
  });
  const chunkSize = opts.chunkSize ?? 500;
  const scan = scanFile(file, kind, { maxLineBytes: opts.maxLineBytes, chunkBytes: READ_BYTES });
  let format: string | null = null;
  let ignoredFields: IgnoredField[] = [];
  let written: Promise<void> = Promise.resolve();
  const flush = async () => {
    // one chunk in flight while the next is read and checked: the database and the parser overlap
    await written;
    written = writer.flush(counts).then(() => ctx.progress(`${shown}: ${counts.inserted + counts.existing} ${kind} records written`));
    written.catch(() => undefined); // awaited at the next chunk or at the end; not unhandled meanwhile
  };
  for (;;) {
    const next = await scan.next();
    if (next.done) {
      const { fileIssue, ...summary } = next.value;
      if (fileIssue) addIssue(fileIssue);
      Object.assign(counts, { lines: summary.lines, records: summary.records, duplicates: summary.duplicates, skipped: summary.skipped });
      format = summary.format;
      ignoredFields = summary.ignoredFields;
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
      if (writer.pending >= chunkSize) await flush();
    }
    // and at the end of every piece of the file read (READ_BYTES): whatever the records' size,
    // at most two pieces' records are held, one being written and one being checked
    if (writer.pending > 0 && errors.length === 0) await flush();
  }
  await written;
  if (errors.length > 0) {
    await writer.undo();
    if (createdBatch && (await ctx.models.imports.countDocuments({ batch })) === 0)
      await ctx.models.batches.deleteOne({ _id: batch, settings: null });
    throw new ImportRejected(shown, errors, moreErrors);
  }
  await writer.flush(counts);
  const result = { importId, batch, kind, file: shown, format, counts, ignoredFields };
  if (opts.commit !== false) await finishImports(ctx, [result]);
  return result;
}

/** Makes imports visible: `done`, with their counts and format. */
async function finishImports(ctx: PipelineContext, results: readonly ImportResult[]): Promise<void> {
  for (const r of results) {
    await ctx.models.imports.updateOne(
      { _id: r.importId },
      { $set: { state: 'done', format: r.format, finishedAt: ctx.now(), counts: r.counts } },
    );
    await ctx.models.batches.updateOne({ _id: r.batch }, { $set: { updatedAt: ctx.now() } });
  }
}

/** What `importAny` did: one import per kind the file held (a BRIDGE file may hold two). */
export interface ImportOutcome {
  batch: string;
  file: string;
  format: string | null;
  imports: ImportResult[];
  /** Fields of the file that qrelay does not read (named in a warning, never dropped in silence). */
  ignoredFields: IgnoredField[];
}

/**
 * `qrelay import FILE --batch B` without `--kind`: a canonical file is of the kind its first
 * record shows; a BRIDGE debate file is split per row, its `consensus: false` rows imported
 * as escalated cases and its `consensus: true` rows as consensus labels. A BRIDGE file is
 * checked both ways before anything is written, and both kinds become visible together
 * (each import stays `committing`, invisible, until both are written), so a refusal or a
 * crash leaves nothing of the file visible. With `kind`, only that kind is imported.
 */
export async function importAny(ctx: PipelineContext, file: string, opts: ImportOptions): Promise<ImportOutcome> {
  const batch = checkBatchName(opts.batch, 'batch');
  const shown = opts.displayName ?? file;
  // with a kind given, a file of qrels would otherwise get one error per line
  if (opts.kind) await refuseQrelsFile(file, { maxLineBytes: opts.maxLineBytes, displayName: shown });
  const detected = opts.kind ?? (await detectFileKind(file, { maxLineBytes: opts.maxLineBytes, displayName: shown }));
  if (detected !== 'bridge') {
    const result = await importFile(ctx, file, { ...opts, kind: detected });
    return { batch, file: shown, format: result.format, imports: [result], ignoredFields: result.ignoredFields };
  }
  const read = { maxErrors: opts.maxErrors, maxLineBytes: opts.maxLineBytes };
  const reports = await Promise.all((['escalations', 'consensus'] as const).map((kind) => validateFile(file, kind, read)));
  const issues = bridgeIssues(reports, opts.maxErrors ?? DEFAULT_MAX_ERRORS);
  if (issues) throw new ImportRejected(shown, issues.errors, issues.moreErrors);
  const imports: ImportResult[] = [];
  for (const report of reports.filter((r) => r.records > 0))
    imports.push(await importFile(ctx, file, { ...opts, kind: report.kind, commit: false }));
  await finishImports(ctx, imports);
  return { batch, file: shown, format: reports[0]!.format, imports, ignoredFields: reports[0]!.ignoredFields };
}

/**
 * The errors of a BRIDGE file read both ways: each pass reports the rows of its kind (and
 * the errors every row can have, once per pass), so the two are merged without repeats. A
 * file with rows of only one kind is fine here; one with no valid row at all is not.
 */
function bridgeIssues(reports: ValidationReport[], maxErrors: number): { errors: IngestIssue[]; moreErrors: number } | undefined {
  const noRecords = (i: IngestIssue) => i.line === 0 && /^holds no /.test(i.reason);
  const seen = new Set<string>();
  const all: IngestIssue[] = [];
  for (const r of reports) {
    for (const issue of r.errors) {
      const key = `${issue.line}\u0000${issue.field}\u0000${issue.reason}`;
      if (noRecords(issue) || seen.has(key)) continue;
      seen.add(key);
      all.push(issue);
    }
  }
  const more = Math.max(...reports.map((r) => r.moreErrors));
  if (all.length === 0 && more === 0) {
    if (reports.some((r) => r.records > 0)) return undefined;
    return { errors: [{ line: 0, field: '', reason: 'holds no records (it is empty or has only blank lines)' }], moreErrors: 0 };
  }
  all.sort((a, b) => a.line - b.line);
  return { errors: all.slice(0, maxErrors), moreErrors: more + Math.max(0, all.length - maxErrors) };
}
