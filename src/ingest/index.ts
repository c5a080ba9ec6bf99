/**
 * Streaming parsers for qrelay's input files (escalated cases, consensus labels, gold
 * items) with line-precise validation. No database code: the importer reads a file once
 * with `scanFile` (records and line errors together) and makes nothing visible if any line
 * is bad. Formats and decisions: ./README.md.
 */
export { INGEST_KINDS, lookalikeKind, RecordChecker } from './checker.js';
export type { IngestKind, InputFormat, LineOutcome, RecordOf } from './checker.js';
export {
  DEFAULT_MAX_ERRORS,
  detectFileKind,
  detectKind,
  readRecords,
  refuseQrelsFile,
  scanFile,
  validateFile,
  validationMessage,
} from './read.js';
export { ignoredFields, ignoredFieldsWarning } from './ignored-fields.js';
export type { IgnoredField } from './ignored-fields.js';
export type { FileSummary, IngestedRecord, ReadOptions, ScanSummary, ScannedChunk, ValidateOptions, ValidationReport } from './read.js';
export { DEFAULT_MAX_LINE_BYTES, readLines } from './lines.js';
export type { RawLine } from './lines.js';
export { formatIssue, IngestError } from './issues.js';
export type { IngestIssue } from './issues.js';
export { caseKey } from './keys.js';
export { JUDGMENT_SPELLINGS, normalizeJudgment, normalizeStance, STANCE_SPELLINGS } from './labels.js';
export { FIELD_ALIASES } from './aliases.js';
