import { describe, expect, it } from 'vitest';
import { ignoredFields, ignoredFieldsWarning, IgnoredFieldTally } from './ignored-fields.js';

const turn = { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: 'r', references: [] };

describe('fields qrelay does not read', () => {
  it('are found at the top of canonical records and in their debate turns', () => {
    const record = {
      query_id: 'q',
      query: 'x',
      answers: [],
      chunk_id: 'd',
      chunk: 'c',
      debate: [
        { ...turn, confidence: 0.9 },
        { ...turn, model: 'm', confidence: 1 },
      ],
      hidden_label: 'yes',
      source: 'trec',
    };
    expect(ignoredFields(record, 'canonical', 'escalations').sort()).toEqual(['debate[].confidence', 'debate[].model', 'source']);
    expect(ignoredFields({ query_id: 'q', chunk_id: 'd', label: 'yes', dataset: 'x' }, 'canonical', 'consensus')).toEqual([]);
    expect(ignoredFields({ query_id: 'q', chunk_id: 'd', label: 'yes', note: 'n' }, 'canonical', 'consensus')).toEqual(['note']);
  });

  it('are found at the top of BRIDGE rows, in rounds and in agents, one path for every round', () => {
    const agent = { stance: 'relevant', reasoning: 'r', label: 1, references: [] };
    const row = {
      query_id: 1,
      query: 'q',
      answers: [],
      chunk_id: 'd',
      chunk: 'c',
      consensus: false,
      final_label: null,
      hidden_label: 'yes',
      dataset: 's',
      round_1: { agent_a: { ...agent, tokens: 3 }, agent_b: agent, judge: 'x' },
      round_2: { agent_a: { ...agent, tokens: 4 }, agent_b: agent },
      run_id: 'r1',
    };
    expect(ignoredFields(row, 'bridge', 'escalations').sort()).toEqual(['round_N.agent_a.tokens', 'round_N.judge', 'run_id']);
  });

  it('are counted per file and named in one warning line', () => {
    const tally = new IgnoredFieldTally();
    tally.add(2, ['source']);
    tally.add(3, ['source', 'debate[].confidence']);
    expect(tally.list).toEqual([
      { field: 'source', lines: 2, firstLine: 2 },
      { field: 'debate[].confidence', lines: 1, firstLine: 3 },
    ]);
    expect(ignoredFieldsWarning('f.jsonl', tally.list)).toBe(
      'warning: f.jsonl: fields qrelay does not use were ignored: source (2 lines, first line 2), debate[].confidence (1 line, first line 3); see docs/input-formats.md for the fields it reads',
    );
    expect(ignoredFieldsWarning('f.jsonl', [])).toBe('');
  });
});
