import { describe, expect, it } from 'vitest';
import type { Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { fitAggregator } from './aggregators.js';

const vote = (item: string, worker: string, label: Judgment): Vote<Judgment> => ({ item, worker, label });

describe('fitAggregator', () => {
  it("labels by the majority of the used votes for 'majority'", () => {
    const used = [vote('a', 'w1', 'yes'), vote('a', 'w2', 'yes'), vote('a', 'w3', 'no')];
    const result = fitAggregator('majority', { used, scored: [], tiePolicy: { kind: 'unresolved' } });
    expect(result.aggregator).toBe('MajorityVote');
    expect(result.items.map((it) => [it.item, it.label])).toEqual([['a', 'yes']]);
  });

  it("fits Dawid–Skene over the scored assignments for 'dawid-skene', not the used votes", () => {
    const used = [vote('a', 'w1', 'yes')];
    const result = fitAggregator('dawid-skene', { used, scored: [], tiePolicy: { kind: 'unresolved' } });
    expect(result.aggregator).toBe('DawidSkene');
    expect(result.items).toEqual([]);
  });
});
