import { describe, expect, it } from 'vitest';
import { betterAggregate, decideAggregate } from './aggregate-decision.js';

const f = (accuracy: number | null, balancedAccuracy: number | null) => ({ accuracy, balancedAccuracy });
const recorded = {
  better: 'ds' as const,
  majority: f(0.878, 0.888),
  ds: f(0.925, 0.921),
  simulatedAs: 'b1-sim',
  seed: 's1',
  at: new Date('2026-11-25T10:00:00Z'),
};

describe('which labels export-qrels writes', () => {
  it('picks the better balanced accuracy, then accuracy, and the protocol majority on a tie or without figures', () => {
    expect(betterAggregate(f(0.9, 0.88), f(0.92, 0.9))).toBe('ds');
    expect(betterAggregate(f(0.9, 0.91), f(0.95, 0.9))).toBe('majority');
    expect(betterAggregate(f(0.9, 0.9), f(0.91, 0.9))).toBe('ds');
    expect(betterAggregate(f(0.9, 0.9), f(0.9, 0.9))).toBe('majority');
    expect(betterAggregate(f(null, null), f(0.9, 0.9))).toBe('majority');
  });

  it('takes the option first, then the recorded forecast, then majority, and says why', () => {
    expect(decideAggregate('majority', recorded)).toMatchObject({
      aggregate: 'majority',
      from: 'option',
      reason: '--aggregate majority was given',
    });
    expect(decideAggregate(undefined, recorded)).toEqual({
      aggregate: 'ds',
      from: 'forecast',
      reason:
        'the simulated forecast b1-sim (seed s1) showed Dawid–Skene better: balanced accuracy 92.1% (Dawid–Skene) vs 88.8% (majority)',
      forecast: recorded,
    });
    expect(decideAggregate(undefined, null)).toMatchObject({ aggregate: 'majority', from: 'protocol', forecast: null });
    expect(decideAggregate(undefined, null).reason).toContain('no simulated forecast with a truth');
  });
});
