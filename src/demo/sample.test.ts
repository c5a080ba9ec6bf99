import { describe, expect, it } from 'vitest';
import type { DebateTurn, EscalatedCase, GoldItem } from '../domain/cases.js';
import { simKey } from '../hits/index.js';
import { oracleFor, SAMPLE_CASES, sampleCaseLines, sampleOracle, samplePopulation } from './sample.js';

const turn = (agent: string, round: number, label: 'yes' | 'no'): DebateTurn => ({
  round,
  agent,
  stance: agent === 'A' ? 'relevant' : 'irrelevant',
  label,
  reasoning: 'r',
  references: [],
});

describe('the sample as the demo uses it', () => {
  it('takes the first n cases, all 270 by default, and refuses sizes out of range', () => {
    expect(sampleCaseLines(undefined)).toHaveLength(SAMPLE_CASES);
    const five = sampleCaseLines(5);
    expect(five).toEqual(sampleCaseLines(undefined).slice(0, 5));
    expect(() => sampleCaseLines(0)).toThrow(/--sample-size: expected a whole number from 1 to 270, got 0/);
    expect(() => sampleCaseLines(271)).toThrow(/from 1 to 270/);
  });

  it("tells the simulated workers the truth, the LLM label (agent A's final one) and the gold labels, keyed as the HIT page keys items", () => {
    const escalated: EscalatedCase = {
      query_id: 'q1',
      query: 'q',
      answers: [],
      chunk_id: 'd1',
      chunk: 'c',
      dataset: 'x',
      hidden_label: 'no',
      debate: [turn('A', 1, 'yes'), turn('B', 1, 'no'), turn('A', 2, 'no'), turn('B', 2, 'yes')],
    };
    const unknown: EscalatedCase = { ...escalated, chunk_id: 'd2', hidden_label: undefined };
    const gold: GoldItem = { query_id: 'g', query: 'q', answers: [], chunk_id: 'gd', chunk: 'c', label: 'yes', dataset: 'x' };
    expect(oracleFor([escalated, unknown], [gold])).toEqual({
      [simKey('q1', 'd1')]: { truth: 'no', model: 'no' },
      [simKey('g', 'gd')]: { truth: 'yes', check: true },
    });
  });

  it('covers every case of a subset and the 72 gold items; the population file is valid', () => {
    expect(Object.keys(sampleOracle(10))).toHaveLength(10 + 72);
    expect(samplePopulation()).toMatchObject({ size: 60, seed: 'qrelay-default-population' });
  });
});
