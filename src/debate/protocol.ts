import type { DebateTurn, EscalatedCase, Judgment } from '../domain/cases.js';
import type { AgentAnswer } from './answer.js';
import { numberedAnswers, render, type ChatMessage, type Templates } from './prompts.js';

/**
 * The DREAM protocol (prompts/README.md), pure: Agent A starts from "yes" (stance
 * relevant), Agent B from "no" (irrelevant); a round's two turns are asked together; the
 * first round where both agree ends the debate with that label; disagreement after the
 * last round escalates the case with the whole debate.
 */

/** A debate's input: a case without a debate (the shapes `qrelay import` accepts). */
export type Candidate = Omit<EscalatedCase, 'debate'>;

export const AGENTS = ['A', 'B'] as const;
export type Agent = (typeof AGENTS)[number];

export const STANCE: Record<Agent, DebateTurn['stance']> = { A: 'relevant', B: 'irrelevant' };
const NAME: Record<Agent, string> = { A: 'Agent A', B: 'Agent B' };
const OTHER: Record<Agent, Agent> = { A: 'B', B: 'A' };

export type Outcome =
  { type: 'next'; round: number } | { type: 'consensus'; label: Judgment; round: number } | { type: 'escalated'; rounds: number };

/** What follows the finished rounds `turns` (both agents of rounds 1..n, in order). */
export function nextStep(turns: readonly DebateTurn[], maxRounds: number): Outcome {
  const rounds = turns.length === 0 ? 0 : Math.max(...turns.map((t) => t.round));
  if (rounds > 0) {
    const last = turns.filter((t) => t.round === rounds);
    const [a, b] = [last.find((t) => t.agent === 'A'), last.find((t) => t.agent === 'B')];
    if (a && b && a.label === b.label) return { type: 'consensus', label: a.label, round: rounds };
  }
  return rounds >= maxRounds ? { type: 'escalated', rounds } : { type: 'next', round: rounds + 1 };
}

const capital = (label: Judgment) => (label === 'yes' ? 'Yes' : 'No');

/** One turn as the history shows it: "Yes. <reasoning>". */
export function turnText(turn: Pick<DebateTurn, 'label' | 'reasoning'>): string {
  return `${capital(turn.label)}. ${turn.reasoning}`.trim();
}

/** An agent's earlier rounds for `{agentX_reasoning}`: rounds marked when there are several. */
export function agentHistory(turns: readonly DebateTurn[], agent: Agent): string {
  const own = turns.filter((t) => t.agent === agent).sort((x, y) => x.round - y.round);
  if (own.length === 1) return turnText(own[0]!);
  return own.map((t) => `(round ${t.round}) ${turnText(t)}`).join(' ');
}

/** The messages asking `agent` for its turn in `round`, given the earlier rounds. */
export function debateMessages(
  templates: Templates,
  candidate: Candidate,
  agent: Agent,
  round: number,
  earlier: readonly DebateTurn[],
): ChatMessage[] {
  const common = {
    agent1: NAME[agent],
    agent2: NAME[OTHER[agent]],
    agentA: NAME.A,
    agentB: NAME.B,
    query: candidate.query,
    answer: numberedAnswers(candidate.answers),
    'ground-truth answers': numberedAnswers(candidate.answers),
    chunk: candidate.chunk,
  };
  if (round === 1) return render(templates.firstRound, common);
  return render(templates.laterRound, {
    ...common,
    agentA_reasoning: agentHistory(earlier, 'A'),
    agentB_reasoning: agentHistory(earlier, 'B'),
  });
}

/** The canonical debate turn of an answer. */
export function toTurn(agent: Agent, round: number, answer: AgentAnswer): DebateTurn {
  return { round, agent, stance: STANCE[agent], label: answer.label, reasoning: answer.reasoning, references: answer.references };
}

/** The prefilter request (Table 17). */
export function prefilterMessages(templates: Templates, candidate: Candidate): ChatMessage[] {
  return render(templates.prefilter, {
    query: candidate.query,
    chunk: candidate.chunk,
    answer: numberedAnswers(candidate.answers),
    'ground-truth answers': numberedAnswers(candidate.answers),
  });
}

/** The adjudicator's view of a debate: the final round of both agents. */
export function finalRoundHistory(debate: readonly DebateTurn[]): string {
  const last = Math.max(...debate.map((t) => t.round));
  return debate
    .filter((t) => t.round === last)
    .sort((x, y) => x.agent.localeCompare(y.agent))
    .map((t) => `Agent ${t.agent}: ${turnText(t)}`)
    .join(' ');
}

/** The adjudicator request (Table 29). */
export function adjudicatorMessages(templates: Templates, escalated: EscalatedCase): ChatMessage[] {
  return render(templates.adjudicator, {
    query: escalated.query,
    answer: numberedAnswers(escalated.answers),
    'ground-truth answers': numberedAnswers(escalated.answers),
    chunk: escalated.chunk,
    history: finalRoundHistory(escalated.debate),
    agentA: NAME.A,
    agentB: NAME.B,
  });
}
