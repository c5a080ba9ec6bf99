import { describe, expect, it } from 'vitest';
import { bridgeRow, bridgeConsensusRow } from '../../test/ingest/records.js';
import { bridgeConsensus, bridgeEscalation, hasBridgeRounds } from './bridge.js';
import { formatPath, type PathIssue } from './issues.js';

const canonicalNames = (row: Record<string, unknown>) => {
  const { q_id, doc_id, question, text, ...rest } = row;
  return { ...rest, query_id: q_id, chunk_id: doc_id, query: question, chunk: text };
};

function issuesOf(outcome: { type: string; issues?: PathIssue[] }): string[] {
  if (outcome.type !== 'issues' || !outcome.issues) throw new Error(`expected issues, got ${outcome.type}`);
  return outcome.issues.map((i) => `${formatPath(i.path)}: ${i.reason}`);
}

describe('hasBridgeRounds', () => {
  it('recognises round_N keys', () => {
    expect(hasBridgeRounds({ round_1: {} })).toBe(true);
    expect(hasBridgeRounds({ debate: [] })).toBe(false);
    expect(hasBridgeRounds({ round: 1 })).toBe(false);
  });
});

describe('bridgeEscalation', () => {
  it('turns rounds into the canonical debate, agent A and B per round', () => {
    const outcome = bridgeEscalation(canonicalNames(bridgeRow({ hidden_label: 'no', dataset: 'nq' })));
    expect(outcome).toEqual({
      type: 'record',
      record: {
        query_id: '12',
        query: 'who wrote dracula',
        answers: ['Bram Stoker'],
        chunk_id: 'd9',
        chunk: 'Dracula is an 1897 novel by Bram Stoker.',
        dataset: 'nq',
        hidden_label: 'no',
        debate: [
          { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: 'because', references: [] },
          { round: 1, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: 'because', references: [] },
          { round: 2, agent: 'A', stance: 'relevant', label: 'yes', reasoning: 'because', references: [] },
          { round: 2, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: 'because', references: [] },
        ],
      },
    });
  });

  it('skips consensus rows', () => {
    expect(bridgeEscalation(canonicalNames(bridgeConsensusRow('yes')))).toEqual({ type: 'skipped' });
  });

  it('needs the query and chunk texts of an escalation', () => {
    const { question: _q, text: _t, ...row } = bridgeRow();
    expect(issuesOf(bridgeEscalation(canonicalNames(row)))).toEqual(['query: required but missing', 'chunk: required but missing']);
  });

  it('names the round and agent of a bad turn', () => {
    const row = bridgeRow({
      round_2: {
        agent_a: { stance: 'relevant', reasoning: 'x', label: 'maybe' },
        agent_b: { stance: 'neutral', reasoning: 'y', label: 'no' },
      },
    });
    expect(issuesOf(bridgeEscalation(canonicalNames(row)))).toEqual([
      'round_2.agent_a.label: expected "yes" or "no", got "maybe" (also accepted: relevant/irrelevant, 1/0, true/false)',
      'round_2.agent_b.stance: expected "relevant" or "irrelevant", got "neutral"',
    ]);
  });

  it('refuses gaps in the rounds and rows without rounds', () => {
    const gap = bridgeRow({ round_3: bridgeRow().round_2, round_2: undefined });
    expect(issuesOf(bridgeEscalation(canonicalNames(gap)))).toEqual([
      'round_3: round_2 is missing: rounds are numbered from round_1 without gaps',
    ]);
    const none = canonicalNames(bridgeRow({ round_1: null, round_2: null }));
    expect(issuesOf(bridgeEscalation(none))).toEqual(['round_1: required but missing (a BRIDGE row needs at least one round)']);
  });

  it('refuses consensus: false when the agents end in agreement', () => {
    const row = bridgeRow({
      round_2: {
        agent_a: { stance: 'relevant', reasoning: 'x', label: 'yes' },
        agent_b: { stance: 'irrelevant', reasoning: 'y', label: 'true' },
      },
    });
    expect(issuesOf(bridgeEscalation(canonicalNames(row)))).toEqual([
      'consensus: is false, but both agents end with "yes" in round_2: set consensus to true or check the labels',
    ]);
  });

  it('wants consensus to be a boolean', () => {
    expect(issuesOf(bridgeEscalation(canonicalNames(bridgeRow({ consensus: 'no' }))))).toEqual([
      'consensus: expected true or false, got "no"',
    ]);
  });
});

describe('bridgeConsensus', () => {
  it('reads final_label of a consensus row', () => {
    expect(bridgeConsensus(canonicalNames(bridgeConsensusRow('no')))).toEqual({
      type: 'record',
      record: { query_id: '12', chunk_id: 'd9', label: 'no', dataset: 'default' },
    });
  });

  it('needs no texts for a consensus label', () => {
    const { question: _q, text: _t, ...row } = bridgeConsensusRow('yes');
    expect(bridgeConsensus(canonicalNames(row))).toMatchObject({ type: 'record', record: { label: 'yes' } });
  });

  it('skips escalation rows', () => {
    expect(bridgeConsensus(canonicalNames(bridgeRow()))).toEqual({ type: 'skipped' });
  });

  it('refuses a final_label the agents did not end with, or none', () => {
    expect(issuesOf(bridgeConsensus(canonicalNames(bridgeConsensusRow('yes', { final_label: 'no' }))))).toEqual([
      'final_label: is "no", but in round_1 agent_a says "yes" and agent_b says "yes": a consensus needs both agents to end with the final label',
    ]);
    expect(issuesOf(bridgeConsensus(canonicalNames(bridgeConsensusRow('yes', { final_label: null }))))).toEqual([
      'final_label: required when consensus is true',
    ]);
  });
});
