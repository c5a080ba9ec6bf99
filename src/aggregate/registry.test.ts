import { describe, expect, it } from 'vitest';
import { AGGREGATOR_IDS, AGGREGATOR_SHORT_NAMES, AGGREGATORS, aggregatorOfShortName, DEFAULT_AGGREGATOR } from './registry.js';

describe('aggregator registry', () => {
  it('lists the user-facing ids, majority first as the default', () => {
    expect(AGGREGATOR_IDS).toEqual(['majority', 'dawid-skene']);
    expect(DEFAULT_AGGREGATOR).toBe('majority');
  });

  it("keeps export-qrels' short names, ds for Dawid–Skene", () => {
    expect(AGGREGATOR_SHORT_NAMES).toEqual(['majority', 'ds']);
    expect(aggregatorOfShortName('ds')).toBe('dawid-skene');
    expect(aggregatorOfShortName('majority')).toBe('majority');
  });

  it('gives every aggregator its own class name, short name and label source', () => {
    for (const key of ['className', 'short', 'labelSource'] as const) {
      const values = AGGREGATOR_IDS.map((id) => AGGREGATORS[id][key]);
      expect(new Set(values).size).toBe(values.length);
    }
    expect(AGGREGATORS['dawid-skene'].labelSource).toBe('human-dawid-skene');
  });
});
