import { describe, expect, it } from 'vitest';
import type { DebateTurn } from '../domain/cases.js';
import {
  adjudicatorMessages,
  agentHistory,
  debateMessages,
  finalRoundHistory,
  nextStep,
  prefilterMessages,
  toTurn,
  type Candidate,
} from './protocol.js';
import { parseTemplate, type Templates } from './prompts.js';

const t = (round: number, agent: 'A' | 'B', label: 'yes' | 'no', reasoning = `${agent}${round}`): DebateTurn => ({
  round,
  agent,
  stance: agent === 'A' ? 'relevant' : 'irrelevant',
  label,
  reasoning,
  references: [],
});

const templates: Templates = {
  prefilter: parseTemplate('p', '=== user ===\nQ={query} D={chunk} A={ground-truth answers} {"is_supported": true/false}'),
  firstRound: parseTemplate(
    'f',
    'You are {agent1} vs {agent2}\n=== user ===\n<query> {query} </query> <answer> {answer} </answer> <doc> {chunk} </doc> <history> {agentA}: Yes. fixed {agentB}: No. fixed </history> {"response": "yes or no"}',
  ),
  laterRound: parseTemplate(
    'l',
    'You are {agent1} vs {agent2}\n=== user ===\n<history> {agentA}: {agentA_reasoning} {agentB}: {agentB_reasoning} </history> {unknown}',
  ),
  adjudicator: parseTemplate('a', 'ADJUDICATOR\n=== user ===\n<query> {query} </query> <history> {history} </history>'),
};

const c: Candidate = { query_id: 'q', query: 'who {agent1}?', answers: ['x', 'y'], chunk_id: 'd', chunk: 'text', dataset: 'default' };

describe('nextStep', () => {
  it('asks round 1 first, stops at the first agreement, escalates after the last round', () => {
    expect(nextStep([], 2)).toEqual({ type: 'next', round: 1 });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'yes')], 2)).toEqual({ type: 'consensus', label: 'yes', round: 1 });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'no')], 2)).toEqual({ type: 'next', round: 2 });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'no'), t(2, 'A', 'no'), t(2, 'B', 'no')], 2)).toEqual({
      type: 'consensus',
      label: 'no',
      round: 2,
    });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'no'), t(2, 'A', 'no'), t(2, 'B', 'yes')], 2)).toEqual({ type: 'escalated', rounds: 2 });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'no')], 1)).toEqual({ type: 'escalated', rounds: 1 });
    expect(nextStep([t(1, 'A', 'yes'), t(1, 'B', 'no'), t(2, 'A', 'no'), t(2, 'B', 'yes')], 3)).toEqual({ type: 'next', round: 3 });
  });
});

describe('debate messages', () => {
  it('round 1: the agent and the other, the candidate, numbered answers; values are not filled again', () => {
    const [system, user] = debateMessages(templates, c, 'B', 1, []);
    expect(system).toEqual({ role: 'system', content: 'You are Agent B vs Agent A' });
    expect(user!.content).toBe(
      '<query> who {agent1}? </query> <answer> 1. x\n2. y </answer> <doc> text </doc> <history> Agent A: Yes. fixed Agent B: No. fixed </history> {"response": "yes or no"}',
    );
  });
  it("later rounds carry both agents' earlier rounds with their reasoning; unknown braces stay", () => {
    const earlier = [t(1, 'A', 'yes', 'ra'), t(1, 'B', 'no', 'rb')];
    expect(debateMessages(templates, c, 'A', 2, earlier)[1]!.content).toBe(
      '<history> Agent A: Yes. ra Agent B: No. rb </history> {unknown}',
    );
    const more = [...earlier, t(2, 'A', 'no', 'ra2'), t(2, 'B', 'yes', 'rb2')];
    expect(agentHistory(more, 'A')).toBe('(round 1) Yes. ra (round 2) No. ra2');
    expect(debateMessages(templates, c, 'B', 3, more)[1]!.content).toContain('Agent B: (round 1) No. rb (round 2) Yes. rb2');
  });
  it('prefilter and adjudicator requests', () => {
    expect(prefilterMessages(templates, c)).toEqual([
      { role: 'user', content: 'Q=who {agent1}? D=text A=1. x\n2. y {"is_supported": true/false}' },
    ]);
    const debate = [t(1, 'A', 'yes', 'a1'), t(1, 'B', 'no', 'b1'), t(2, 'B', 'no', 'b2'), t(2, 'A', 'yes', 'a2')];
    expect(finalRoundHistory(debate)).toBe('Agent A: Yes. a2 Agent B: No. b2');
    expect(adjudicatorMessages(templates, { ...c, debate })[1]!.content).toBe(
      '<query> who {agent1}? </query> <history> Agent A: Yes. a2 Agent B: No. b2 </history>',
    );
  });
  it("toTurn gives the canonical turn with the agent's stance", () => {
    expect(toTurn('B', 2, { label: 'yes', reasoning: 'r', references: ['s'] })).toEqual({
      round: 2,
      agent: 'B',
      stance: 'irrelevant',
      label: 'yes',
      reasoning: 'r',
      references: ['s'],
    });
  });
});
