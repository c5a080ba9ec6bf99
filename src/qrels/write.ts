import { extname } from 'node:path';
import { UserError } from '../errors.js';
import { writeLinesAtomically } from './atomic-write.js';
import { compareIds, quote } from './ids.js';
import type { QrelsEntry } from './merge.js';
import type { QrelsOutputFormat } from './types.js';

/**
 * Qrels output (docs/interfaces.md, "Outputs"): TREC `qid 0 docid rel`, BEIR tsv with the header
 * `query-id corpus-id score`, or JSONL with provenance per line. Lines are always in
 * query id, then document id order (ids.ts), so equal inputs give identical files.
 */

export type WritableEntry = Pick<QrelsEntry, 'query_id' | 'doc_id' | 'rel'> &
  Partial<QrelsEntry> & {
    /** P(relevant) (posterior.ts), JSONL only; written only when given, so exports without `--posterior` are unchanged. */
    p_relevant?: number;
  };

/** The format an output path implies: `.tsv` BEIR, `.jsonl`/`.ndjson` JSONL, else TREC. */
export function outputFormatFor(file: string): QrelsOutputFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.tsv') return 'beir';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  return 'trec';
}

/** Ids that the format's reader would split or trim differently. */
function checkId(id: string, what: string, format: QrelsOutputFormat): void {
  if (format === 'trec' && (id === '' || /\s/.test(id))) {
    throw new UserError(
      `cannot write ${what} ${quote(id)} to TREC qrels: ids there must be non-empty and without whitespace; use --format jsonl`,
    );
  }
  if (format === 'beir' && (id === '' || id !== id.trim() || /[\t\r\n]/.test(id))) {
    throw new UserError(
      `cannot write ${what} ${quote(id)} to BEIR qrels: ids there must be non-empty, without tabs or line breaks, and not start or end with spaces; use --format jsonl`,
    );
  }
}

/** The lines of a qrels file (without line breaks), sorted, header included. */
export function* qrelsLines(entries: Iterable<WritableEntry>, format: QrelsOutputFormat): Generator<string> {
  const sorted = [...entries].sort((a, b) => compareIds(a.query_id, b.query_id) || compareIds(a.doc_id, b.doc_id));
  if (format === 'beir') yield 'query-id\tcorpus-id\tscore';
  let previous: WritableEntry | undefined;
  for (const e of sorted) {
    if (previous && previous.query_id === e.query_id && previous.doc_id === e.doc_id) {
      throw new UserError(`query ${quote(e.query_id)} document ${quote(e.doc_id)} appears twice in the qrels to write`);
    }
    previous = e;
    if (!Number.isSafeInteger(e.rel))
      throw new UserError(`query ${quote(e.query_id)} document ${quote(e.doc_id)}: grade ${e.rel} is not an integer`);
    checkId(e.query_id, 'query id', format);
    checkId(e.doc_id, 'document id', format);
    switch (format) {
      case 'trec':
        yield `${e.query_id} 0 ${e.doc_id} ${e.rel}`;
        break;
      case 'beir':
        yield `${e.query_id}\t${e.doc_id}\t${e.rel}`;
        break;
      case 'jsonl':
        yield JSON.stringify({
          query_id: e.query_id,
          doc_id: e.doc_id,
          rel: e.rel,
          source: e.source ?? 'base',
          // an entry without provenance is a base judgment
          base_rel: e.base_rel !== undefined ? e.base_rel : (e.source ?? 'base') === 'base' ? e.rel : null,
          votes: e.votes ?? null,
          workers: e.workers ?? null,
          batch: e.batch ?? null,
          dataset: e.dataset ?? null,
          ...(e.p_relevant !== undefined && { p_relevant: e.p_relevant }),
        });
        break;
    }
  }
}

/** Writes qrels atomically (nothing is written when any entry is invalid). */
export async function writeQrels(
  file: string,
  entries: Iterable<WritableEntry>,
  format: QrelsOutputFormat = outputFormatFor(file),
): Promise<{ pairs: number }> {
  const list = [...entries];
  await writeLinesAtomically(file, qrelsLines(list, format));
  return { pairs: list.length };
}
