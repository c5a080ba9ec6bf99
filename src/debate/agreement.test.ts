import { describe, expect, it } from 'vitest';
import { cohensKappa, crowdVsAdjudicator, type LabelledItem } from './agreement.js';

describe("Cohen's κ", () => {
  it('matches the textbook example (Wikipedia, "Cohen\'s kappa": 20/5/10/15 of 50 gives κ = 0.4)', () => {
    expect(cohensKappa({ yes: { yes: 20, no: 5 }, no: { yes: 10, no: 15 } })).toBeCloseTo(0.4, 12);
  });
  it('is 1 for perfect agreement on both labels, null when undefined', () => {
    expect(cohensKappa({ yes: { yes: 3, no: 0 }, no: { yes: 0, no: 2 } })).toBe(1);
    expect(cohensKappa({ yes: { yes: 4, no: 0 }, no: { yes: 0, no: 0 } })).toBeNull();
    expect(cohensKappa({ yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } })).toBeNull();
  });
});

describe('crowdVsAdjudicator', () => {
  it('counts pairs, the confusion table and both accuracies where the truth is known', () => {
    const items: LabelledItem[] = [
      { crowd: 'yes', adjudicator: 'yes', truth: 'yes' },
      { crowd: 'yes', adjudicator: 'no', truth: 'no' },
      { crowd: 'no', adjudicator: 'no', truth: 'no' },
      { crowd: null, adjudicator: 'yes', truth: 'yes' },
      { crowd: 'no', adjudicator: null },
      { crowd: 'no', adjudicator: 'yes' },
    ];
    const r = crowdVsAdjudicator(items);
    expect(r.pairs).toBe(4);
    expect(r.confusion).toEqual({ yes: { yes: 1, no: 1 }, no: { yes: 1, no: 1 } });
    expect(r.observedAgreement).toBe(0.5);
    expect(r.kappa).toBe(0);
    expect(r.accuracy.crowd).toEqual({ correct: 2, total: 3, value: 2 / 3 });
    expect(r.accuracy.adjudicator).toEqual({ correct: 4, total: 4, value: 1 });
    expect(crowdVsAdjudicator([]).accuracy.crowd).toEqual({ correct: 0, total: 0, value: null });
  });
});
