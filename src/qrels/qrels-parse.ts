import { extname } from 'node:path';
import { UserError } from '../errors.js';
import { quote } from './ids.js';
import { InputLineError } from './input-error.js';
import type { Qrels, QrelsFormat } from './types.js';

/**
 * Pure parsing of base qrels, one line at a time (the file adapter in read.ts streams the
 * lines in). Accepted formats:
 * - `trec`: `qid iter docid rel`, 4 whitespace-separated columns, integer grades;
 * - `beir`: tsv with the header `query-id<TAB>corpus-id<TAB>score`, integer grades;
 * - `bridge`: JSONL, `{"q_id": ..., "doc_id": [ ...relevant doc ids ]}` per line; every
 *   listed document gets grade 1, a query may span several lines. The same reader takes
 *   qrelay's own JSONL with provenance (`{"query_id", "doc_id", "rel", "source", ...}`,
 *   what `export-qrels --format jsonl` writes): a line with `query_id` is one graded pair.
 * A (query, document) pair given twice with the same grade is counted in `duplicates`
 * and kept once; with different grades it is an error naming both lines.
 */

export const BEIR_HEADER = ['query-id', 'corpus-id', 'score'] as const;

export interface QrelsParseResult {
  qrels: Qrels;
  format: QrelsFormat;
  /** Distinct (query, document) pairs. */
  pairs: number;
  /** Lines that repeated a pair with the same grade. */
  duplicates: number;
}

const FORMAT_NAMES: Record<QrelsFormat, string> = {
  trec: 'TREC qrels ("qid iter docid rel")',
  beir: 'BEIR tsv ("query-id corpus-id score")',
  bridge: 'BRIDGE jsonl ({"q_id": ..., "doc_id": [...]})',
};

const INTEGER = /^[+-]?\d+$/;

/**
 * The format of a qrels file, from its extension and its first non-blank line:
 * `.jsonl`/`.json`/`.ndjson` is BRIDGE, `.tsv` is BEIR, anything else is decided by the
 * content (a JSON object is BRIDGE, the BEIR header is BEIR, otherwise TREC). An
 * extension that contradicts the content is an error, so a mislabelled file is not
 * silently misread.
 */
export function detectQrelsFormat(file: string, firstLine: string | undefined): QrelsFormat {
  const ext = extname(file).toLowerCase();
  const byContent = firstLine === undefined ? undefined : contentFormat(firstLine);
  const byExtension: QrelsFormat | undefined =
    ext === '.jsonl' || ext === '.json' || ext === '.ndjson' ? 'bridge' : ext === '.tsv' ? 'beir' : undefined;
  if (byExtension && byContent && byExtension !== byContent) {
    throw new UserError(
      `${file}: the extension ${ext} says ${FORMAT_NAMES[byExtension]} but the first line looks like ${FORMAT_NAMES[byContent]}; rename the file or give the format explicitly`,
    );
  }
  return byExtension ?? byContent ?? 'trec';
}

function contentFormat(line: string): QrelsFormat {
  const text = line.trim();
  if (text.startsWith('{')) return 'bridge';
  // the header, or a headerless BEIR row (the parser then asks for the header)
  if (isBeirHeader(text) || text.split('\t').length === 3) return 'beir';
  return 'trec';
}

/** The BEIR header, also when spaces stand for the tabs (rows then get a clear error). */
function isBeirHeader(text: string): boolean {
  const cols = text.trim().split(/\s+/);
  return cols.length === 3 && cols.every((c, i) => c === BEIR_HEADER[i]);
}

/** What another format's line looks like, to name the mix-up in an error. */
function looksLike(text: string): QrelsFormat | 'run' | undefined {
  if (text.startsWith('{')) return 'bridge';
  if (isBeirHeader(text)) return 'beir';
  const tabs = text.split('\t');
  if (tabs.length === 3) return 'beir';
  const cols = text.split(/\s+/);
  if (cols.length === 4) return 'trec';
  if (cols.length === 6) return 'run';
  return undefined;
}

function mixHint(text: string, format: QrelsFormat): string {
  const other = looksLike(text);
  if (!other || other === format) return '';
  if (other === 'run') return ' (it looks like a TREC run line: pass a qrels file here, runs go after the options)';
  return ` (it looks like ${FORMAT_NAMES[other]}: one format per file)`;
}

export class QrelsParser {
  private readonly qrels: Qrels = new Map();
  /** Line of each pair's first occurrence, for naming both lines of a conflict. */
  private readonly lineOf = new Map<string, Map<string, number>>();
  private duplicates = 0;
  private pairs = 0;
  private sawHeader = false;

  constructor(
    readonly file: string,
    readonly format: QrelsFormat,
  ) {}

  /** Adds one line (without its line break); `line` is 1-based. */
  addLine(raw: string, line: number): void {
    const text = raw.trim();
    if (text === '') return;
    switch (this.format) {
      case 'trec':
        return this.addTrec(text, line);
      case 'beir':
        return this.addBeir(text, line);
      case 'bridge':
        return this.addBridge(text, line);
    }
  }

  result(): QrelsParseResult {
    return { qrels: this.qrels, format: this.format, pairs: this.pairs, duplicates: this.duplicates };
  }

  private fail(line: number, reason: string): never {
    throw new InputLineError(this.file, line, reason);
  }

  private addTrec(text: string, line: number): void {
    if (text.startsWith('{')) this.fail(line, `a JSON line in a file read as ${FORMAT_NAMES.trec}${mixHint(text, 'trec')}`);
    const cols = text.split(/\s+/);
    if (cols.length !== 4) {
      this.fail(line, `expected 4 columns "qid iter docid rel" of ${FORMAT_NAMES.trec}, found ${cols.length}${mixHint(text, 'trec')}`);
    }
    const [qid, , docid, grade] = cols as [string, string, string, string];
    this.add(qid, docid, this.grade(grade, line, 'rel (4th column)'), line);
  }

  private addBeir(text: string, line: number): void {
    if (!this.sawHeader) {
      if (!isBeirHeader(text)) {
        this.fail(
          line,
          `a BEIR tsv file starts with the header "query-id<TAB>corpus-id<TAB>score"; add it, or give the right format${mixHint(text, 'beir')}`,
        );
      }
      this.sawHeader = true;
      return;
    }
    if (isBeirHeader(text)) this.fail(line, 'a second BEIR header line; keep one header at the top of the file');
    if (text.startsWith('{')) this.fail(line, `a JSON line in a file read as ${FORMAT_NAMES.beir}${mixHint(text, 'beir')}`);
    const cols = text.split('\t').map((c) => c.trim());
    if (cols.length !== 3) {
      this.fail(line, `expected 3 tab-separated columns "query-id corpus-id score", found ${cols.length}${mixHint(text, 'beir')}`);
    }
    const [qid, docid, grade] = cols as [string, string, string];
    if (qid === '' || docid === '') this.fail(line, 'empty query-id or corpus-id');
    this.add(qid, docid, this.grade(grade, line, 'score (3rd column)'), line);
  }

  private addBridge(text: string, line: number): void {
    if (!text.startsWith('{')) {
      this.fail(line, `expected a JSON object {"q_id": ..., "doc_id": [...]} of BRIDGE jsonl${mixHint(text, 'bridge')}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.fail(line, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(line, 'expected a JSON object');
    const record = value as Record<string, unknown>;
    if ('query_id' in record) return this.addProvenance(record, line);
    const qid = bridgeId(record.q_id);
    if (qid === undefined) this.fail(line, 'field "q_id" must be a non-empty string or an integer');
    const docs = record.doc_id;
    if (!Array.isArray(docs)) this.fail(line, 'field "doc_id" must be a list of the relevant document ids');
    docs.forEach((d: unknown, i) => {
      const docid = bridgeId(d);
      if (docid === undefined) this.fail(line, `field "doc_id" item ${i} must be a non-empty string or an integer`);
      this.add(qid, docid, 1, line);
    });
  }

  /** A line of qrelay's JSONL with provenance: one (query, document) pair and its grade. */
  private addProvenance(record: Record<string, unknown>, line: number): void {
    const qid = bridgeId(record.query_id);
    if (qid === undefined) this.fail(line, 'field "query_id" must be a non-empty string or an integer');
    const docid = bridgeId(record.doc_id);
    if (docid === undefined)
      this.fail(line, 'field "doc_id" must be a non-empty string or an integer (one document per line in qrelay JSONL)');
    const rel = record.rel;
    if (typeof rel !== 'number' || !Number.isSafeInteger(rel))
      this.fail(line, `field "rel" must be an integer relevance grade, found ${quote(JSON.stringify(rel) ?? 'nothing')}`);
    this.add(qid, docid, rel, line);
  }

  private grade(text: string, line: number, column: string): number {
    const n = Number(text);
    if (!INTEGER.test(text) || !Number.isSafeInteger(n)) {
      this.fail(line, `${column} must be an integer relevance grade, found ${quote(text)}`);
    }
    return n;
  }

  private add(qid: string, docid: string, grade: number, line: number): void {
    let docs = this.qrels.get(qid);
    let lines = this.lineOf.get(qid);
    if (!docs || !lines) {
      docs = new Map();
      lines = new Map();
      this.qrels.set(qid, docs);
      this.lineOf.set(qid, lines);
    }
    const previous = docs.get(docid);
    if (previous === undefined) {
      docs.set(docid, grade);
      lines.set(docid, line);
      this.pairs++;
      return;
    }
    if (previous === grade) {
      this.duplicates++;
      return;
    }
    this.fail(
      line,
      `query ${quote(qid)} document ${quote(docid)} has grade ${grade} here but grade ${previous} on line ${lines.get(docid)}; keep one grade per (query, document)`,
    );
  }
}

function bridgeId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Parses a whole qrels text (tests, small inputs); files go through read.ts. */
export function parseQrelsText(text: string, file: string, format?: QrelsFormat): QrelsParseResult {
  const lines = text.split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '');
  const parser = new QrelsParser(file, format ?? detectQrelsFormat(file, first));
  lines.forEach((l, i) => parser.addLine(i === 0 ? stripBom(l) : l, i + 1));
  return parser.result();
}

export function stripBom(line: string): string {
  return line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
}
