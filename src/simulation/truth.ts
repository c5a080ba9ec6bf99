import { readFileSync } from 'node:fs';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';

/**
 * The true labels a simulation is measured against (`qrelay simulate --truth FILE`):
 * TREC qrels (`query_id iteration chunk_id relevance`, relevance > 0 is relevant) or JSONL
 * (`{"query_id", "chunk_id", "label"}`, label `yes`/`no`, `1`/`0` or `true`/`false`).
 * The format is told by the first non-empty line (`{`: JSONL). Keys: `${query_id}\t${chunk_id}`.
 */

export const truthKey = (queryId: string, chunkId: string): string => `${queryId}\t${chunkId}`;

function jsonLabel(value: unknown): Judgment | undefined {
  if (value === 'yes' || value === 1 || value === true || value === '1') return 'yes';
  if (value === 'no' || value === 0 || value === false || value === '0') return 'no';
  return undefined;
}

/** Parses a truth file's text (pure); every error names the file, line and field. */
export function parseTruth(text: string, file: string): Map<string, Judgment> {
  const lines = text.split(/\r?\n/);
  const first = lines.find((l) => l.trim() !== '');
  if (first === undefined)
    throw new UserError(`${file}: the truth file is empty; give TREC qrels or JSONL lines {"query_id", "chunk_id", "label"}`);
  const jsonl = first.trim().startsWith('{');
  const truth = new Map<string, Judgment>();
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `${file}:${i + 1}`;
    let queryId: unknown;
    let chunkId: unknown;
    let label: Judgment | undefined;
    if (jsonl) {
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        throw new UserError(`${where}: not a JSON object (a JSONL truth file has one {"query_id", "chunk_id", "label"} per line)`);
      }
      if (typeof row !== 'object' || row === null)
        throw new UserError(`${where}: expected a JSON object with query_id, chunk_id and label`);
      const r = row as Record<string, unknown>;
      queryId = r.query_id;
      chunkId = r.chunk_id;
      if (!('label' in r)) throw new UserError(`${where}: field label is missing (yes or no)`);
      label = jsonLabel(r.label);
      if (label === undefined)
        throw new UserError(`${where}: field label: expected yes or no (or 1/0, true/false), got ${JSON.stringify(r.label)}`);
    } else {
      const f = line.split(/\s+/);
      if (f.length !== 4)
        throw new UserError(`${where}: a TREC qrels line has 4 fields (query_id iteration chunk_id relevance), this one has ${f.length}`);
      const rel = Number(f[3]);
      if (!Number.isInteger(rel)) throw new UserError(`${where}: field relevance: expected a whole number, got ${JSON.stringify(f[3])}`);
      [queryId, , chunkId] = f;
      label = rel > 0 ? 'yes' : 'no';
    }
    if (typeof queryId !== 'string' || queryId === '') throw new UserError(`${where}: field query_id: expected a non-empty string`);
    if (typeof chunkId !== 'string' || chunkId === '') throw new UserError(`${where}: field chunk_id: expected a non-empty string`);
    const key = truthKey(queryId, chunkId);
    const earlier = truth.get(key);
    if (earlier !== undefined && earlier !== label)
      throw new UserError(`${where}: ${queryId} ${chunkId} is labelled both yes and no in the truth file`);
    truth.set(key, label);
  });
  return truth;
}

export function readTruth(file: string): Map<string, Judgment> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`--truth ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseTruth(text, file);
}
