import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DebateTurn, EscalatedCase, Judgment } from '../domain/cases.js';
import type { Candidate } from './protocol.js';

/** The records of a debate's output files (pure), and their atomic writing. */

export const OUTPUT_FILES = {
  escalations: 'escalations.jsonl',
  consensus: 'consensus.jsonl',
  filtered: 'filtered.jsonl',
  failed: 'failed.jsonl',
  summary: 'summary.json',
  journal: 'journal.jsonl',
} as const;

/** An escalated case in the canonical shape `qrelay import` reads with no flag. */
export function escalationRecord(c: Candidate, debate: readonly DebateTurn[]): EscalatedCase {
  return {
    ...caseFields(c),
    debate: [...debate],
    ...(c.hidden_label !== undefined && { hidden_label: c.hidden_label }),
  };
}

export interface ConsensusRecord {
  query_id: string;
  chunk_id: string;
  label: Judgment;
  dataset: string;
  /** The round in which the agents agreed. */
  round: number;
  debate: DebateTurn[];
}

export function consensusRecord(c: Candidate, label: Judgment, round: number, debate: readonly DebateTurn[]): ConsensusRecord {
  return { query_id: c.query_id, chunk_id: c.chunk_id, label, dataset: c.dataset, round, debate: [...debate] };
}

export interface PrefilterVerdict {
  model: string;
  /** null: the answer could not be read (such a candidate is never dropped). */
  is_supported: boolean | null;
}

export function filteredRecord(c: Candidate, verdicts: readonly PrefilterVerdict[]) {
  return { ...caseFields(c), prefilter: [...verdicts] };
}

/** A candidate's case as the output files carry it (its hidden label, debate and verdicts apart). */
function caseFields(c: Candidate) {
  return {
    query_id: c.query_id,
    query: c.query,
    answers: c.answers,
    chunk_id: c.chunk_id,
    chunk: c.chunk,
    dataset: c.dataset,
  };
}

export function failedRecord(c: Candidate, reason: string, debate: readonly DebateTurn[]) {
  return { query_id: c.query_id, chunk_id: c.chunk_id, dataset: c.dataset, reason, debate: [...debate] };
}

/** Writes `text` to `file` through a synced temporary file and a rename: whole or not at all. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    const buf = Buffer.from(text);
    let written = 0;
    while (written < buf.length) written += writeSync(fd, buf, written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export const jsonl = (records: readonly unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

export const outPath = (dir: string, name: keyof typeof OUTPUT_FILES) => join(dir, OUTPUT_FILES[name]);
