import { z } from 'zod';
import { UserError } from '../errors.js';
import { resolveAliases, type AliasedField } from '../ingest/aliases.js';
import { formatIssue, formatPath, quote, zodPathIssues, type IngestIssue } from '../ingest/issues.js';
import { parseJsonObject } from '../ingest/json-line.js';
import { caseKey } from '../ingest/keys.js';
import { readLines } from '../ingest/lines.js';
import { EscalatedCaseInput } from '../ingest/schemas.js';
import type { Candidate } from './protocol.js';

/**
 * Debate candidates: one (query, answers, chunk) per JSONL line, in the shapes and with
 * the field names `qrelay import` accepts (`query_id`/`q_id`, `chunk`/`text`/`passage`, ...);
 * a `debate` or `label` on the line is ignored. Every bad line is found before any request.
 */

export const CandidateInput = EscalatedCaseInput.omit({ debate: true });

const ALIASED: readonly AliasedField[] = ['query_id', 'chunk_id', 'query', 'chunk', 'answers'];
const MAX_LISTED = 5;

/** One line's candidate, or its problems (pure). */
export function parseCandidateLine(line: number, text: string): { candidate: Candidate } | { issues: IngestIssue[] } {
  const json = parseJsonObject(text);
  if (!json.ok) return { issues: [{ line, field: '', reason: json.reason }] };
  const { value, renamed, issues } = resolveAliases(json.value, ALIASED);
  const parsed = CandidateInput.safeParse(value, { reportInput: true });
  const all = [...issues, ...(parsed.success ? [] : zodPathIssues(parsed.error))];
  if (all.length > 0) {
    return {
      issues: all.map(({ path, reason }) => {
        const [head, ...rest] = path;
        const source = typeof head === 'string' ? renamed.get(head) : undefined;
        return { line, field: formatPath(source === undefined ? path : [source, ...rest]), reason };
      }),
    };
  }
  return { candidate: (parsed as z.ZodSafeParseSuccess<Candidate>).data };
}

/** All candidates of a file, in order, identical repeats dropped; a UserError naming every bad line's first problem. */
export async function readCandidates(file: string): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  const seen = new Map<string, { line: number; json: string }>();
  const problems: IngestIssue[] = [];
  for await (const batch of readLines(file)) {
    for (const raw of batch) {
      if ('problem' in raw) {
        problems.push({ line: raw.line, field: '', reason: raw.problem });
        continue;
      }
      if (raw.text.trim() === '') continue;
      const result = parseCandidateLine(raw.line, raw.text);
      if ('issues' in result) {
        problems.push(...result.issues);
        continue;
      }
      const { candidate } = result;
      const key = caseKey(candidate.query_id, candidate.chunk_id);
      const json = JSON.stringify(candidate);
      const first = seen.get(key);
      if (first && first.json !== json) {
        problems.push({
          line: raw.line,
          field: '',
          reason: `query_id ${quote(candidate.query_id)} with chunk_id ${quote(candidate.chunk_id)} already appeared on line ${first.line} with different content: keep one of the two lines`,
        });
      } else if (!first) {
        seen.set(key, { line: raw.line, json });
        candidates.push(candidate);
      }
    }
  }
  if (problems.length > 0) {
    const more = problems.length > MAX_LISTED ? `; and ${problems.length - MAX_LISTED} more` : '';
    const listed = problems
      .slice(0, MAX_LISTED)
      .map((p) => formatIssue(file, p))
      .join('; ');
    throw new UserError(`${problems.length} bad candidate line${problems.length === 1 ? '' : 's'}, nothing was asked: ${listed}${more}`);
  }
  if (candidates.length === 0)
    throw new UserError(
      `${file} holds no candidates (it is empty or has only blank lines): expected one {query_id, query, answers, chunk_id, chunk} per line`,
    );
  return candidates;
}
