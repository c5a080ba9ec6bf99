import { describe, expect, it } from 'vitest';
import { checkPosterior, DEFAULT_PROBATION_POLICY } from './probation.js';

describe('checkPosterior', () => {
  it('updates the Beta prior by the checks passed and failed', () => {
    expect(checkPosterior(0, 0)).toMatchObject({ alpha: 9, beta: 1, discard: false });
    expect(checkPosterior(7, 3)).toMatchObject({ alpha: 16, beta: 4 });
  });

  it('gives P(accuracy < threshold) as the Beta CDF', () => {
    // Beta(1, 1) is uniform: P(p < 0.7) = 0.7; Beta(2, 1): 0.7²; Beta(1, 2): 1 − 0.3²
    const flat = { ...DEFAULT_PROBATION_POLICY, prior: { alpha: 1, beta: 1 } };
    expect(checkPosterior(0, 0, flat).probabilityBelow).toBeCloseTo(0.7, 12);
    expect(checkPosterior(1, 0, flat).probabilityBelow).toBeCloseTo(0.49, 12);
    expect(checkPosterior(0, 1, flat).probabilityBelow).toBeCloseTo(0.91, 12);
  });

  it('never discards on one missed check, nor on a careful worker’s usual misses', () => {
    expect(checkPosterior(0, 1).discard).toBe(false);
    expect(checkPosterior(0, 2).discard).toBe(false);
    // a worker right on 80% of the checks, over a long batch
    expect(checkPosterior(16, 4).discard).toBe(false);
    expect(checkPosterior(40, 10).discard).toBe(false);
  });

  it('discards once the checks say, with 95% confidence, that the worker is below the threshold', () => {
    expect(checkPosterior(2, 10)).toMatchObject({ discard: true });
    expect(checkPosterior(20, 20).discard).toBe(true);
    // a coin's record needs more checks than a few HITs hold: the stop (all the evidence) comes first
    expect(checkPosterior(5, 5).discard).toBe(false);
    expect(checkPosterior(0, 3).discard).toBe(false);
    expect(checkPosterior(2, 10).reason).toBe(
      'P(check accuracy < 0.7) 97.4% (≥ 95.0%) from 2 of 12 checks passed in the batch (posterior Beta(11, 11))',
    );
  });

  it('refuses negative counts', () => {
    expect(() => checkPosterior(-1, 0)).toThrow(RangeError);
  });
});
