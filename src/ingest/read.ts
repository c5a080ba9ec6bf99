import { UserError } from '../errors.js';
import { RecordChecker, type IngestKind, type InputFormat, type RecordOf, lookalikeKind } from './checker.js';
import { formatIssue, IngestError, type IngestIssue } from './issues.js';
import { hasBridgeRounds } from './bridge.js';
import type { IgnoredField } from './ignored-fields.js';
import { parseJsonObject, qrelsLineFormat } from './json-line.js';
import { readLines, type RawLine } from './lines.js';

export interface ReadOptions {
  /** Lines longer than this are refused without being held in memory (default 10 MiB). */
  maxLineBytes?: number;
  /** Bytes read at a time; each piece's lines are yielded together (default 1 MiB). */
  chunkBytes?: number;
}

export interface ValidateOptions extends ReadOptions {
  /** How many errors to list; the rest are only counted (default 50). */
  maxErrors?: number;
}

export const DEFAULT_MAX_ERRORS = 50;

export interface IngestedRecord<R> {
  /** The line of the file the record came from (1-based). */
  line: number;
  record: R;
}

export interface FileSummary {
  file: string;
  kind: IngestKind;
  /** Decided by the first line holding a JSON object; null when there is none. */
  format: InputFormat | null;
  /** Lines read, blank ones included. */
  lines: number;
  /** Distinct valid records: what a `readRecords` pass yields. */
  records: number;
  /** Lines repeating an earlier line's key with identical content: ignored. */
  duplicates: number;
  /** BRIDGE rows of the other kind (consensus rows when reading escalations, and the reverse). */
  skipped: number;
  /** Fields of valid lines that qrelay does not read: the importer names them in a warning. */
  ignoredFields: IgnoredField[];
}

export interface ValidationReport extends FileSummary {
  ok: boolean;
  /** The first `maxErrors` errors, in line order. */
  errors: IngestIssue[];
  /** Errors found beyond those listed. */
  moreErrors: number;
}

function emptySummary(file: string, kind: IngestKind): FileSummary {
  return { file, kind, format: null, lines: 0, records: 0, duplicates: 0, skipped: 0, ignoredFields: [] };
}

/** The whole-file error for a file that yields nothing. */
function noRecordsIssue(summary: FileSummary): IngestIssue {
  if (summary.skipped > 0) {
    const other = summary.kind === 'consensus' ? 'escalated cases (consensus: false)' : 'consensus labels (consensus: true)';
    return { line: 0, field: '', reason: `holds no ${summary.kind} records: all ${summary.skipped} BRIDGE rows are ${other}` };
  }
  return { line: 0, field: '', reason: 'holds no records (it is empty or has only blank lines)' };
}

/** One line through the checker; updates the counts and returns what the caller acts on. */
function step<K extends IngestKind>(
  raw: RawLine,
  checker: RecordChecker<K>,
  summary: FileSummary,
): IngestIssue[] | RecordOf<K> | undefined {
  if ('problem' in raw) return [{ line: raw.line, field: '', reason: raw.problem }];
  const outcome = checker.check(raw.line, raw.text);
  switch (outcome.type) {
    case 'record':
      summary.records += 1;
      return outcome.record;
    case 'duplicate':
      summary.duplicates += 1;
      return undefined;
    case 'skipped':
      summary.skipped += 1;
      return undefined;
    case 'issues':
      return outcome.issues;
    default:
      return undefined;
  }
}

/** What one chunk of lines of a file held: its valid records, and the errors of its bad lines. */
export interface ScannedChunk<R> {
  records: IngestedRecord<R>[];
  issues: IngestIssue[];
}

export interface ScanSummary extends FileSummary {
  /** The whole-file error of a file without any record or line error (empty, or only rows of the other kind). */
  fileIssue: IngestIssue | null;
}

/**
 * One pass over a file, chunk by chunk: every line checked, records and errors alike, so
 * that a caller can validate and act in the same read (`qrelay import`). Constant memory
 * but for the duplicate check's hashes.
 */
export async function* scanFile<K extends IngestKind>(
  file: string,
  kind: K,
  opts: ReadOptions = {},
): AsyncGenerator<ScannedChunk<RecordOf<K>>, ScanSummary, undefined> {
  const checker = new RecordChecker(kind);
  const summary = emptySummary(file, kind);
  let issues = 0;
  for await (const batch of readLines(file, opts)) {
    const chunk: ScannedChunk<RecordOf<K>> = { records: [], issues: [] };
    for (const raw of batch) {
      summary.lines = raw.line;
      const result = step(raw, checker, summary);
      if (Array.isArray(result)) {
        chunk.issues.push(...result);
        issues += result.length;
      } else if (result !== undefined) chunk.records.push({ line: raw.line, record: result });
    }
    yield chunk;
  }
  summary.format = checker.format ?? null;
  summary.ignoredFields = checker.ignoredFields;
  return { ...summary, fileIssue: issues === 0 && summary.records === 0 ? noRecordsIssue(summary) : null };
}

/**
 * Reads the whole file and returns every error (the first `maxErrors` listed, the rest
 * counted) with the file's counts. Holds only the duplicate check's hashes, never records.
 */
export async function validateFile(file: string, kind: IngestKind, opts: ValidateOptions = {}): Promise<ValidationReport> {
  const maxErrors = opts.maxErrors ?? DEFAULT_MAX_ERRORS;
  const errors: IngestIssue[] = [];
  let total = 0;
  const scan = scanFile(file, kind, opts);
  for (;;) {
    const next = await scan.next();
    if (next.done) {
      const { fileIssue, ...summary } = next.value;
      if (fileIssue) {
        errors.push(fileIssue);
        total = 1;
      }
      return { ...summary, ok: total === 0, errors, moreErrors: total - errors.length };
    }
    for (const issue of next.value.issues) if (errors.length < maxErrors) errors.push(issue);
    total += next.value.issues.length;
  }
}

/**
 * Streams the records of a file, each with its line, in constant memory; identical
 * duplicates and BRIDGE rows of the other kind are left out. Throws an IngestError at the
 * first problem `validateFile` would report. Returns the file's counts when done.
 */
export async function* readRecords<K extends IngestKind>(
  file: string,
  kind: K,
  opts: ReadOptions = {},
): AsyncGenerator<IngestedRecord<RecordOf<K>>, FileSummary, undefined> {
  const checker = new RecordChecker(kind);
  const summary = emptySummary(file, kind);
  for await (const batch of readLines(file, opts)) {
    for (const raw of batch) {
      summary.lines = raw.line;
      const result = step(raw, checker, summary);
      if (Array.isArray(result)) throw new IngestError(file, result[0]!);
      if (result !== undefined) yield { line: raw.line, record: result };
    }
  }
  summary.format = checker.format ?? null;
  summary.ignoredFields = checker.ignoredFields;
  if (summary.records === 0) throw new IngestError(file, noRecordsIssue(summary));
  return summary;
}

/** One line for a person: how many errors, and the first of them. */
export function validationMessage(report: ValidationReport): string {
  const count = report.errors.length + report.moreErrors;
  const [first] = report.errors;
  if (report.ok || !first) return `${report.file}: ${report.records} ${report.kind} records, no errors`;
  return `${report.file} has ${count} error${count === 1 ? '' : 's'}; the first: ${formatIssue(report.file, first)}`;
}

/**
 * What a file holds, judged from its first line with a JSON object, as `detectKind` does,
 * except that a BRIDGE debate row answers `bridge`: such a file holds escalated cases
 * (`consensus: false`) and consensus labels (`consensus: true`), split per row.
 */
export async function detectFileKind(file: string, opts: ReadOptions & { displayName?: string } = {}): Promise<IngestKind | 'bridge'> {
  return firstRecordKind(file, opts, () => 'bridge');
}

/**
 * What a file holds, judged from its first line with a JSON object: `{debate, ...}` is
 * escalations, `{label, query|chunk, ...}` gold, `{label, ...}` consensus. BRIDGE rows can
 * be read either as escalations or as consensus labels, so they need an explicit kind.
 */
export async function detectKind(file: string, opts: ReadOptions = {}): Promise<IngestKind> {
  return firstRecordKind(file, opts, (line) => {
    throw new UserError(
      `${file} line ${line} is a BRIDGE debate row: such files hold both escalated cases (consensus: false) and consensus labels (consensus: true), so say which kind to import (escalations or consensus: --kind on the command line, kind= in the API)`,
    );
  });
}

/**
 * Refuses a file of qrels (TREC, BEIR tsv) given where JSONL records are expected, at its
 * first line and as one error: read with an explicit kind, every line would be an error of
 * its own, all saying the same.
 */
export async function refuseQrelsFile(file: string, opts: ReadOptions & { displayName?: string } = {}): Promise<void> {
  for await (const batch of readLines(file, opts)) {
    for (const raw of batch) {
      if ('problem' in raw) return;
      if (raw.text.trim() === '') continue;
      const json = parseJsonObject(raw.text);
      if (!json.ok && qrelsLineFormat(raw.text))
        throw new IngestError(opts.displayName ?? file, { line: raw.line, field: '', reason: json.reason });
      return;
    }
  }
}

async function firstRecordKind<B>(
  file: string,
  opts: ReadOptions & { displayName?: string },
  onBridge: (line: number) => B,
): Promise<IngestKind | B> {
  const shown = opts.displayName ?? file;
  for await (const batch of readLines(file, opts)) {
    for (const raw of batch) {
      if ('problem' in raw) throw new IngestError(shown, { line: raw.line, field: '', reason: raw.problem });
      if (raw.text.trim() === '') continue;
      const json = parseJsonObject(raw.text);
      if (!json.ok) throw new IngestError(shown, { line: raw.line, field: '', reason: json.reason });
      if (hasBridgeRounds(json.value)) return onBridge(raw.line);
      const kind = lookalikeKind(json.value);
      if (kind) return kind;
      throw new UserError(
        `cannot tell what ${shown} holds from line ${raw.line}: expected an escalated case ({..., debate}), a gold item ({..., query, chunk, label}) or a consensus label ({query_id, chunk_id, label}); fix the line, or say which kind it is (escalations, gold or consensus: --kind on the command line, kind= in the API)`,
      );
    }
  }
  throw new IngestError(shown, { line: 0, field: '', reason: 'holds no records (it is empty or has only blank lines)' });
}
