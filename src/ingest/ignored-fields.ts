import type { IngestKind, InputFormat } from './kinds.js';
import { BridgeRowInput, BridgeTurnInput, ConsensusLabelInput, DebateTurnInput, EscalatedCaseInput, GoldItemInput } from './schemas.js';

/**
 * The fields of an input record that qrelay does not read: named in a warning by the
 * importer, never dropped in silence. Paths are given per shape, not per position:
 * `debate[].confidence`, `round_N.agent_a.confidence`, so a field repeated on every line
 * is one entry. Pure; the record has its aliases resolved (`q_id` is `query_id` here).
 */

const keys = (shape: object) => new Set(Object.keys(shape));

const TOP: Record<IngestKind, Set<string>> = {
  escalations: keys(EscalatedCaseInput.shape),
  consensus: keys(ConsensusLabelInput.shape),
  gold: keys(GoldItemInput.shape),
};
const TURN = keys(DebateTurnInput.shape);
const BRIDGE_TOP = keys(BridgeRowInput.shape);
const BRIDGE_TURN = keys(BridgeTurnInput.shape);
const BRIDGE_AGENTS = new Set(['agent_a', 'agent_b']);
const ROUND_KEY = /^round_\d+$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function extra(value: Record<string, unknown>, known: Set<string>, prefix: string, into: Set<string>): void {
  for (const key of Object.keys(value)) if (!known.has(key)) into.add(`${prefix}${key}`);
}

export function ignoredFields(value: Record<string, unknown>, format: InputFormat, kind: IngestKind): string[] {
  const found = new Set<string>();
  if (format === 'bridge') {
    for (const [key, round] of Object.entries(value)) {
      if (ROUND_KEY.test(key)) {
        if (!isObject(round)) continue;
        extra(round, BRIDGE_AGENTS, 'round_N.', found);
        for (const agent of BRIDGE_AGENTS) {
          const turn = round[agent];
          if (isObject(turn)) extra(turn, BRIDGE_TURN, `round_N.${agent}.`, found);
        }
      } else if (!BRIDGE_TOP.has(key)) found.add(key);
    }
    return [...found];
  }
  extra(value, TOP[kind], '', found);
  if (kind === 'escalations' && Array.isArray(value.debate)) {
    for (const turn of value.debate) if (isObject(turn)) extra(turn, TURN, 'debate[].', found);
  }
  return [...found];
}

/** Per ignored field: on how many lines, and the first. */
export interface IgnoredField {
  field: string;
  lines: number;
  firstLine: number;
}

/** Collects the ignored fields of a file's lines, in order of first appearance. */
export class IgnoredFieldTally {
  private readonly byField = new Map<string, IgnoredField>();

  add(line: number, fields: readonly string[]): void {
    for (const field of fields) {
      const seen = this.byField.get(field);
      if (seen) seen.lines += 1;
      else this.byField.set(field, { field, lines: 1, firstLine: line });
    }
  }

  get list(): IgnoredField[] {
    return [...this.byField.values()].map((f) => ({ ...f }));
  }
}

/** The warning line for a file's ignored fields ('' when there are none). */
export function ignoredFieldsWarning(file: string, fields: readonly IgnoredField[]): string {
  if (fields.length === 0) return '';
  const shown = fields.slice(0, 12).map((f) => `${f.field} (${f.lines} line${f.lines === 1 ? '' : 's'}, first line ${f.firstLine})`);
  const more = fields.length > 12 ? ` and ${fields.length - 12} more` : '';
  return `warning: ${file}: fields qrelay does not use were ignored: ${shown.join(', ')}${more}; see docs/input-formats.md for the fields it reads`;
}
