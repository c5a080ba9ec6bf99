import type { ConsensusLabel, DebateTurn, EscalatedCase } from '../domain/cases.js';
import { zodPathIssues, type PathIssue } from './issues.js';
import { BridgeRoundInput, BridgeRowInput, ConsensusLabelInput, EscalatedCaseInput, type BridgeRound, type BridgeRow } from './schemas.js';

/**
 * The BRIDGE-style row: `round_1`, `round_2`, ... each `{agent_a, agent_b}` with
 * `{stance, reasoning, label, references?}`, plus `consensus` and `final_label`.
 * A row with `consensus: false` is an escalated case; one with `consensus: true` is a
 * consensus label (`final_label`). Reading a file as one kind skips the other kind's rows.
 */

const ROUND_KEY = /^round_(\d+)$/;
const AGENTS = [
  ['agent_a', 'A'],
  ['agent_b', 'B'],
] as const;

export type BridgeOutcome<R> = { type: 'record'; record: R } | { type: 'skipped' } | { type: 'issues'; issues: PathIssue[] };

export function hasBridgeRounds(record: Record<string, unknown>): boolean {
  return Object.keys(record).some((key) => ROUND_KEY.test(key));
}

interface BridgeParts {
  row: BridgeRow;
  debate: DebateTurn[];
}

function readRounds(record: Record<string, unknown>, issues: PathIssue[]): { n: number; round: BridgeRound }[] {
  const rounds: { n: number; round: BridgeRound }[] = [];
  const present = Object.keys(record)
    .map((key) => ({ key, n: Number(ROUND_KEY.exec(key)?.[1] ?? NaN) }))
    .filter(({ key, n }) => Number.isInteger(n) && record[key] !== null && record[key] !== undefined)
    .sort((a, b) => a.n - b.n);
  present.forEach(({ key, n }, i) => {
    const expected = i + 1;
    if (n !== expected) {
      issues.push({ path: [key], reason: `round_${expected} is missing: rounds are numbered from round_1 without gaps` });
      return;
    }
    const parsed = BridgeRoundInput.safeParse(record[key], { reportInput: true });
    if (parsed.success) rounds.push({ n, round: parsed.data });
    else issues.push(...zodPathIssues(parsed.error, [key]));
  });
  if (present.length === 0) issues.push({ path: ['round_1'], reason: 'required but missing (a BRIDGE row needs at least one round)' });
  return rounds;
}

/** Whether `consensus` agrees with the agents' labels in the last round. */
function consensusIssues(row: BridgeRow, last: BridgeRound, lastKey: string): PathIssue[] {
  const a = last.agent_a.label;
  const b = last.agent_b.label;
  if (!row.consensus) {
    return a === b
      ? [
          {
            path: ['consensus'],
            reason: `is false, but both agents end with "${a}" in ${lastKey}: set consensus to true or check the labels`,
          },
        ]
      : [];
  }
  if (row.final_label === undefined) {
    return [{ path: ['final_label'], reason: 'required when consensus is true' }];
  }
  if (a !== row.final_label || b !== row.final_label) {
    return [
      {
        path: ['final_label'],
        reason: `is "${row.final_label}", but in ${lastKey} agent_a says "${a}" and agent_b says "${b}": a consensus needs both agents to end with the final label`,
      },
    ];
  }
  return [];
}

function parseBridgeParts(record: Record<string, unknown>): { ok: true; parts: BridgeParts } | { ok: false; issues: PathIssue[] } {
  const issues: PathIssue[] = [];
  const top = BridgeRowInput.safeParse(record, { reportInput: true });
  if (!top.success) issues.push(...zodPathIssues(top.error));
  const rounds = readRounds(record, issues);
  const last = rounds[rounds.length - 1];
  if (!top.success || issues.length > 0 || !last) return { ok: false, issues };
  issues.push(...consensusIssues(top.data, last.round, `round_${last.n}`));
  if (issues.length > 0) return { ok: false, issues };
  const debate = rounds.flatMap(({ n, round }) => AGENTS.map(([key, agent]) => ({ round: n, agent, ...round[key] })));
  return { ok: true, parts: { row: top.data, debate } };
}

/** A BRIDGE row read as an escalated case (rows with `consensus: true` are skipped). */
export function bridgeEscalation(record: Record<string, unknown>): BridgeOutcome<EscalatedCase> {
  const parsed = parseBridgeParts(record);
  if (!parsed.ok) return { type: 'issues', issues: parsed.issues };
  const { row, debate } = parsed.parts;
  if (row.consensus) return { type: 'skipped' };
  const escalated = EscalatedCaseInput.safeParse(
    {
      query_id: row.query_id,
      query: row.query,
      answers: row.answers,
      chunk_id: row.chunk_id,
      chunk: row.chunk,
      dataset: row.dataset,
      debate,
      hidden_label: row.hidden_label,
    },
    { reportInput: true },
  );
  if (!escalated.success) return { type: 'issues', issues: zodPathIssues(escalated.error) };
  return { type: 'record', record: escalated.data };
}

/** A BRIDGE row read as a consensus label (rows with `consensus: false` are skipped). */
export function bridgeConsensus(record: Record<string, unknown>): BridgeOutcome<ConsensusLabel> {
  const parsed = parseBridgeParts(record);
  if (!parsed.ok) return { type: 'issues', issues: parsed.issues };
  const { row } = parsed.parts;
  if (!row.consensus) return { type: 'skipped' };
  const label = ConsensusLabelInput.safeParse(
    { query_id: row.query_id, chunk_id: row.chunk_id, label: row.final_label, dataset: row.dataset },
    { reportInput: true },
  );
  if (!label.success) return { type: 'issues', issues: zodPathIssues(label.error) };
  return { type: 'record', record: label.data };
}
