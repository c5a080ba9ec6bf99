import { compareIds, quote } from './ids.js';
import { InputLineError } from './input-error.js';
import type { RankedDoc, Run } from './types.js';

/**
 * Pure parsing of TREC run files, `qid Q0 docid rank score tag`, one line at a time.
 * The rank column is read but ignored, as trec_eval ignores it: every query's documents
 * are ordered by {@link rankingOrder}.
 */

/** A decimal number as trec_eval's atof reads it, without hex, inf or nan. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * trec_eval's order (form_res_rels.c, comp_sim_docno): score descending, ties broken by
 * document id descending in byte order (`strcmp(p2->docno, p1->docno)`). trec_eval keeps
 * scores as C `float`, so they are compared as 32-bit floats: 1.00000002 and 1.00000001
 * tie there, and so here.
 */
export function rankingOrder(a: RankedDoc, b: RankedDoc): number {
  const x = Math.fround(a.score);
  const y = Math.fround(b.score);
  if (x !== y) return x > y ? -1 : 1;
  return compareIds(b.docid, a.docid);
}

export interface RunParseResult {
  run: Run;
  /** Distinct values of the tag column, in order of appearance. */
  tags: string[];
  /** Ranked (query, document) lines. */
  documents: number;
}

interface PendingDoc extends RankedDoc {
  line: number;
}

export class RunParser {
  private readonly pending = new Map<string, PendingDoc[]>();
  private readonly tags = new Set<string>();
  private documents = 0;

  constructor(readonly file: string) {}

  addLine(raw: string, line: number): void {
    const text = raw.trim();
    if (text === '') return;
    this.documents++;
    const cols = text.split(/\s+/);
    if (cols.length !== 6) {
      const hint = cols.length === 4 ? ' (4 columns look like a qrels line: pass qrels with --qrels)' : '';
      throw new InputLineError(
        this.file,
        line,
        `expected 6 columns "qid Q0 docid rank score tag" of a TREC run, found ${cols.length}${hint}`,
      );
    }
    const [qid, , docid, , scoreText, tag] = cols as [string, string, string, string, string, string];
    const score = Number(scoreText);
    if (!DECIMAL.test(scoreText) || !Number.isFinite(score)) {
      throw new InputLineError(this.file, line, `score (5th column) must be a decimal number, found ${quote(scoreText)}`);
    }
    this.tags.add(tag);
    let docs = this.pending.get(qid);
    if (!docs) {
      docs = [];
      this.pending.set(qid, docs);
    }
    docs.push({ docid, score, line });
  }

  /** Checks for repeated documents and orders every ranking. */
  result(): RunParseResult {
    let duplicate: { qid: string; docid: string; first: number; second: number } | undefined;
    const firstLine = new Map<string, number>();
    for (const [qid, docs] of this.pending) {
      firstLine.clear();
      for (const doc of docs) {
        const first = firstLine.get(doc.docid);
        if (first === undefined) firstLine.set(doc.docid, doc.line);
        else if (!duplicate || doc.line < duplicate.second) duplicate = { qid, docid: doc.docid, first, second: doc.line };
      }
    }
    if (duplicate) {
      throw new InputLineError(
        this.file,
        duplicate.second,
        `document ${quote(duplicate.docid)} appears twice in the ranking of query ${quote(duplicate.qid)} (also on line ${duplicate.first}); keep one line per (query, document)`,
      );
    }
    // The documents keep their line numbers: a few bytes each, cheaper than copying millions.
    const run: Run = new Map();
    for (const [qid, docs] of this.pending) run.set(qid, docs.sort(rankingOrder));
    return { run, tags: [...this.tags], documents: this.documents };
  }
}

export function parseRunText(text: string, file: string): RunParseResult {
  const parser = new RunParser(file);
  text.split(/\r?\n/).forEach((l, i) => parser.addLine(l, i + 1));
  return parser.result();
}
