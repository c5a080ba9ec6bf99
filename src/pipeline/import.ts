import { createHash, randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { AnyBulkWriteOperation } from 'mongoose';
import type { GoldTextDoc, ImportCounts, ImportDoc, ItemTextDoc, RecordDoc } from '../db/models/index.js';
import type { EscalatedCase, GoldItem } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { simKey } from '../hits/index.js';
import {
  caseKey,
  DEFAULT_MAX_ERRORS,
  detectFileKind,
  detectKind,
  formatIssue,
  readRecords,
  validateFile,
  type IgnoredField,
  type IngestIssue,
  type IngestKind,
  type RecordOf,
  type ValidationReport,
} from '../ingest/index.js';
import { bulkWriteSliced } from './bulk.js';
import type { PipelineContext } from './context.js';
import { BatchStateError } from './errors.js';
import { checkBatchName, itemId } from './names.js';
import { doneImports, recordModel } from './records.js';

/**
 * `qrelay import` / `POST /api/v1/batches`: one file of escalated cases, gold items or
 * consensus labels into a batch.
 *
 * 1. Validation: every line (`validateFile`); then, when the batch already holds records of
 *    this kind, a pass comparing each record with the stored one (a changed record under
 *    an existing key is refused). Any error: nothing is written, and the error lists them
 *    (line, field, reason; the first `maxErrors`).
 * 2. Commit, streaming: texts upserted by `_id`, then the small records with
 *    `$setOnInsert` and `$addToSet: {imports: id}` in bulk (re-importing a case is a
 *    no-op), under an import record `committing`, flipped to `done` at the end. Readers
 *    show a record only when one of its imports is done, so a crash mid-commit leaves
 *    nothing of the file visible, and a re-run (a new import of the same file) completes it.
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

/**
 * Refuses records that change a visible record of the batch (same key, other content), and
 * returns the ids of invisible rows (left by an import that never finished) whose content
 * differs: they are deleted before the commit, which then writes the new version.
 */
async function checkAgainstStored<K extends IngestKind>(
  ctx: PipelineContext,
  file: string,
  shown: string,
  kind: K,
  batch: string,
  opts: ImportOptions,
): Promise<string[]> {
  const stored = await recordModel(ctx, kind).find({ batch }, { sha: 1, imports: 1 }).lean<Pick<RecordDoc, '_id' | 'sha' | 'imports'>[]>();
  if (stored.length === 0) return [];
  const done = await doneImports(ctx, batch);
  const byId = new Map(stored.map((r) => [r._id, { sha: r.sha, visible: r.imports.some((id) => done.has(id)) }]));
  const maxErrors = opts.maxErrors ?? DEFAULT_MAX_ERRORS;
  const errors: IngestIssue[] = [];
  const stale: string[] = [];
  let more = 0;
  for await (const { line, record } of readRecords(file, kind, { maxLineBytes: opts.maxLineBytes })) {
    const fields = recordFields(kind, batch, record);
    const before = byId.get(fields._id);
    if (before === undefined || before.sha === fields.sha) continue;
    if (!before.visible) {
      stale.push(fields._id);
      continue;
    }
    const issue = {
      line,
      field: '',
      reason: `batch ${batch} already holds query_id ${JSON.stringify(record.query_id)} with chunk_id ${JSON.stringify(record.chunk_id)} with different content: a batch's records do not change; import the new version into a new batch`,
    };
    if (errors.length < maxErrors) errors.push(issue);
    else more++;
  }
  if (errors.length > 0) throw new ImportRejected(shown, errors, more);
  return stale;
}

async function ensureBatch(ctx: PipelineContext, batch: string, kind: IngestKind): Promise<void> {
  const now = ctx.now();
  await ctx.models.batches.updateOne(
    { _id: batch },
    { $setOnInsert: { _id: batch, state: 'draft', createdAt: now, updatedAt: now, settings: null, plan: null, hitTypeId: null, qualificationIds: {}, reposts: 0, summary: null } },
    { upsert: true },
  );
  const doc = await ctx.models.batches.findById(batch, { state: 1, settings: 1 }).lean();
  if (doc?.settings && kind !== 'consensus') {
    throw new BatchStateError(
      `batch ${batch} is already published (${doc.state}): its ${kind === 'gold' ? 'gold pool' : 'cases'} can no longer change; import into a new batch`,
    );
  }
}

/** A file (or one kind of a BRIDGE file's rows) validated and checked against the batch: ready to commit. */
interface Prepared {
  kind: IngestKind;
  report: ValidationReport;
  stale: string[];
}

/** Checks one kind of the file against the batch (nothing written yet but the batch itself). */
async function prepare(ctx: PipelineContext, file: string, shown: string, batch: string, kind: IngestKind, report: ValidationReport, opts: ImportOptions): Promise<Prepared> {
  await ensureBatch(ctx, batch, kind);
  const stale = await checkAgainstStored(ctx, file, shown, kind, batch, opts);
  return { kind, report, stale };
}

export async function importFile(ctx: PipelineContext, file: string, opts: ImportOptions): Promise<ImportResult> {
  const batch = checkBatchName(opts.batch, 'batch');
  const shown = opts.displayName ?? file;
  const kind = opts.kind ?? (await detectKind(file, { maxLineBytes: opts.maxLineBytes }));

  const report = await validateFile(file, kind, { maxErrors: opts.maxErrors, maxLineBytes: opts.maxLineBytes });
  if (!report.ok) throw new ImportRejected(shown, report.errors, report.moreErrors);
  return commit(ctx, file, shown, batch, await prepare(ctx, file, shown, batch, kind, report, opts), opts);
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
 * as escalated cases and its `consensus: true` rows as consensus labels. Every part is
 * validated and checked against the batch before any is committed, so a refusal leaves
 * nothing of the file written. With `kind`, only that kind is imported (`importFile`).
 */
export async function importAny(ctx: PipelineContext, file: string, opts: ImportOptions): Promise<ImportOutcome> {
  const batch = checkBatchName(opts.batch, 'batch');
  const shown = opts.displayName ?? file;
  const read = { maxErrors: opts.maxErrors, maxLineBytes: opts.maxLineBytes };
  const detected = opts.kind ?? (await detectFileKind(file, { maxLineBytes: opts.maxLineBytes, displayName: shown }));
  const kinds: IngestKind[] = detected === 'bridge' ? ['escalations', 'consensus'] : [detected];
  const reports = await Promise.all(kinds.map((kind) => validateFile(file, kind, read)));
  if (detected === 'bridge') {
    const issues = bridgeIssues(reports, opts.maxErrors ?? DEFAULT_MAX_ERRORS);
    if (issues) throw new ImportRejected(shown, issues.errors, issues.moreErrors);
  } else if (!reports[0]!.ok) {
    throw new ImportRejected(shown, reports[0]!.errors, reports[0]!.moreErrors);
  }
  const parts: Prepared[] = [];
  for (const report of reports.filter((r) => r.records > 0)) parts.push(await prepare(ctx, file, shown, batch, report.kind, report, opts));
  const imports: ImportResult[] = [];
  for (const part of parts) imports.push(await commit(ctx, file, shown, batch, part, opts));
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

async function commit(ctx: PipelineContext, file: string, shown: string, batch: string, prepared: Prepared, opts: ImportOptions): Promise<ImportResult> {
  const { kind, report, stale } = prepared;
  if (stale.length > 0) await recordModel(ctx, kind).deleteMany({ _id: { $in: stale } });

  const started = ctx.now();
  const importId = `imp-${started.getTime().toString(36)}-${randomBytes(4).toString('hex')}`;
  const counts: ImportCounts = { lines: 0, records: 0, inserted: 0, existing: 0, duplicates: 0, skipped: 0 };
  const doc: ImportDoc = {
    _id: importId,
    batch,
    kind,
    file: basename(shown),
    format: report.format,
    state: 'committing',
    startedAt: started,
    finishedAt: null,
    counts,
  };
  await ctx.models.imports.create(doc);

  const records = recordModel(ctx, kind);
  const chunkSize = opts.chunkSize ?? 500;
  let recordOps: AnyBulkWriteOperation<RecordDoc>[] = [];
  let textOps: Array<{ updateOne: { filter: { _id: string }; update: { $set: { record: unknown } }; upsert: true } }> = [];
  const flush = async () => {
    if (recordOps.length === 0) return;
    // texts first: a record is never visible without its text
    if (textOps.length > 0 && kind === 'gold') await bulkWriteSliced(ctx.models.goldTexts, textOps as AnyBulkWriteOperation<GoldTextDoc>[]);
    if (textOps.length > 0 && kind === 'escalations') await bulkWriteSliced(ctx.models.itemTexts, textOps as AnyBulkWriteOperation<ItemTextDoc>[]);
    const result = await bulkWriteSliced(records, recordOps);
    counts.inserted += result.upserted;
    counts.existing += result.matched;
    recordOps = [];
    textOps = [];
  };

  const stream = readRecords(file, kind, { maxLineBytes: opts.maxLineBytes });
  for (;;) {
    const next = await stream.next();
    if (next.done) {
      counts.lines = next.value.lines;
      counts.records = next.value.records;
      counts.duplicates = next.value.duplicates;
      counts.skipped = next.value.skipped;
      break;
    }
    const { line, record } = next.value;
    const { _id, ...fields } = recordFields(kind, batch, record);
    recordOps.push({
      updateOne: {
        filter: { _id },
        update: { $setOnInsert: { ...fields, order: [started.getTime(), line] }, $addToSet: { imports: importId } },
        upsert: true,
      },
    });
    if (kind !== 'consensus') textOps.push({ updateOne: { filter: { _id }, update: { $set: { record } }, upsert: true } });
    if (recordOps.length >= chunkSize) {
      await flush();
      ctx.progress(`${shown}: ${counts.inserted + counts.existing} ${kind} records written`);
    }
  }
  await flush();
  await ctx.models.imports.updateOne({ _id: importId }, { $set: { state: 'done', finishedAt: ctx.now(), counts } });
  await ctx.models.batches.updateOne({ _id: batch }, { $set: { updatedAt: ctx.now() } });
  return { importId, batch, kind, file: shown, format: report.format, counts };
}
