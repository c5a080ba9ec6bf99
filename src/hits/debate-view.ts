import type { DebateTurn, Judgment, Stance } from '../domain/cases.js';

/** What the HIT page shows of one agent: where it started, where it ended, and why. */
export interface AgentSummary {
  /** Display name by order of first appearance ("Agent A", "Agent B", ...), never the
   * name in the data: every item's agents are named alike, checks' and real items'. */
  name: string;
  /** 0, 1, ...: the agent's highlight colour. */
  index: number;
  initialStance: Stance;
  finalLabel: Judgment;
  /** Reasoning and quoted references of the agent's last turn. */
  reasoning: string;
  references: string[];
}

const displayName = (index: number): string => {
  let name = '';
  for (let i = index; ; i = Math.floor(i / 26) - 1) {
    name = String.fromCharCode(65 + (i % 26)) + name;
    if (i < 26) break;
  }
  return `Agent ${name}`;
};

/**
 * One summary per agent, in order of first appearance (earliest round, then input order).
 * The last turn of an agent is its turn in the highest round, the later one on a tie, as
 * `finalLabels` decides.
 */
export function summariseDebate(debate: readonly DebateTurn[]): AgentSummary[] {
  const order = debate.map((turn, i) => ({ turn, i })).sort((x, y) => x.turn.round - y.turn.round || x.i - y.i);
  const first = new Map<string, DebateTurn>();
  const last = new Map<string, DebateTurn>();
  for (const { turn } of order) {
    if (!first.has(turn.agent)) first.set(turn.agent, turn);
    last.set(turn.agent, turn);
  }
  return [...first.keys()].map((agent, index) => {
    const start = first.get(agent) as DebateTurn;
    const end = last.get(agent) as DebateTurn;
    return {
      name: displayName(index),
      index,
      initialStance: start.stance,
      finalLabel: end.label,
      reasoning: end.reasoning,
      references: [...end.references],
    };
  });
}
