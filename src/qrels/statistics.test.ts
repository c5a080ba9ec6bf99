import { describe, expect, it } from 'vitest';
import { kendallTauAP, kendallTauB } from './kendall.js';
import {
  bootstrapMeans,
  holm,
  pairedTTest,
  percentileInterval,
  quantileSorted,
  randomizationTest,
  randomizationTests,
  seededRandom,
} from './statistics.js';
import { studentTwoSidedP } from './student-t.js';

// Reference values: scipy 1.17.1 (2 * scipy.stats.t.sf, ttest_rel) and numpy 2.4 (percentile).
describe("Student's t two-sided p", () => {
  it('matches scipy', () => {
    expect(studentTwoSidedP(2, 10)).toBeCloseTo(0.07338803477074037, 12);
    expect(studentTwoSidedP(1, 1)).toBeCloseTo(0.5, 12);
    expect(studentTwoSidedP(30, 3)).toBeCloseTo(8.135280427163958e-5, 14);
    expect(studentTwoSidedP(-0.5, 250)).toBeCloseTo(0.6175148859192405, 12);
    expect(studentTwoSidedP(0, 5)).toBe(1);
    expect(studentTwoSidedP(Infinity, 5)).toBe(0);
  });
});

describe('paired t-test', () => {
  it('matches scipy.stats.ttest_rel', () => {
    const r = pairedTTest([1, 2, 3, 4], [0, 0, 0, 1]);
    expect(r.t).toBeCloseTo(4.700096710803842, 12);
    expect(r.p).toBeCloseTo(0.01821985474322239, 12);
    expect(pairedTTest([0, 0, 0, 1], [1, 2, 3, 4]).t).toBeCloseTo(-4.700096710803842, 12);
  });
  it('is undefined (null) where scipy gives nan, and p 0 where t is infinite', () => {
    expect(pairedTTest([1, 2, 3], [1, 2, 3])).toEqual({ t: null, p: null });
    expect(pairedTTest([1], [0])).toEqual({ t: null, p: null });
    expect(pairedTTest([2, 3, 4], [1, 2, 3])).toEqual({ t: null, p: 0 });
    expect(() => pairedTTest([1, 2], [1])).toThrow(/different lengths/);
  });
});

describe('paired randomization test', () => {
  it('approaches the exact permutation p: differences 1, 2, 3 reach |6| in 2 of 8 sign patterns', () => {
    const { p } = randomizationTest([1, 2, 3, 0], [0, 0, 0, 0], 20_000, 3);
    expect(Math.abs(p - 0.25)).toBeLessThan(0.015);
  });
  it('gives p = 1 for identical systems, and the same p for the same seed', () => {
    expect(randomizationTest([0.1, 0.5], [0.1, 0.5], 100, 1).p).toBe(1);
    const a = [0.3, 0.1, 0.9, 0.4, 0.2];
    const b = [0.2, 0.3, 0.5, 0.1, 0.25];
    expect(randomizationTest(a, b, 500, 42)).toEqual(randomizationTest(a, b, 500, 42));
    expect(randomizationTest(a, b, 500, 42).p).toBeGreaterThan(0);
  });
  it('tests every pair of several systems from shared draws: each pair as if tested alone', () => {
    const a = [0.3, 0.1, 0.9, 0.4, 0.2, 0.7];
    const b = [0.2, 0.3, 0.5, 0.1, 0.25, 0.1];
    const c = [0.3, 0.1, 0.9, 0.4, 0.2, 0.7];
    const ps = randomizationTests([a, b, c], 400, 11);
    expect(ps).toHaveLength(3); // (a,b), (a,c), (b,c)
    expect(ps[0]).toBe(randomizationTest(a, b, 400, 11).p);
    expect(ps[1]).toBe(1); // a and c are the same system
    expect(ps[2]).toBe(randomizationTest(b, c, 400, 11).p);
  });
  it('never gives 0: (1 + extreme) / (1 + trials)', () => {
    const a = Array.from({ length: 40 }, () => 1);
    const b = Array.from({ length: 40 }, () => 0);
    expect(randomizationTest(a, b, 999, 1).p).toBe(1 / 1000);
  });
});

describe('Holm correction', () => {
  it('multiplies the i-th smallest p by (m − i + 1), keeps it monotone, caps at 1, skips nulls', () => {
    const adjusted = holm([0.01, 0.04, 0.03, null]);
    expect(adjusted[0]).toBeCloseTo(0.03, 15);
    expect(adjusted[1]).toBeCloseTo(0.06, 15);
    expect(adjusted[2]).toBeCloseTo(0.06, 15);
    expect(adjusted[3]).toBeNull();
    expect(holm([0.5, 0.6])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});

describe('bootstrap', () => {
  it('interpolates percentiles as numpy does', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75);
    const ci = percentileInterval([4, 1, 3, 2])!;
    expect(ci.low).toBeCloseTo(1.075, 14);
    expect(ci.high).toBeCloseTo(3.925, 14);
    expect(percentileInterval([NaN, NaN])).toBeNull();
  });
  it('resamples rows once for all columns, leaving NaN rows out of their column, reproducibly', () => {
    const constant = [2, 2, 2, 2];
    const varying = [0, 1, NaN, 3];
    const reps = bootstrapMeans([constant, varying], 200, 9);
    expect(reps).toHaveLength(200);
    for (const r of reps) {
      expect(r[0]).toBe(2);
      // a mean of draws from {0, 1, 3}, or NaN when only the NaN row was drawn
      if (!Number.isNaN(r[1]!)) expect(r[1]! >= 0 && r[1]! <= 3).toBe(true);
    }
    expect(bootstrapMeans([constant, varying], 200, 9)).toEqual(reps);
    const defined = reps.map((r) => r[1]!).filter((v) => !Number.isNaN(v));
    expect(defined.length).toBeGreaterThan(190);
    const mean = defined.reduce((s, v) => s + v, 0) / defined.length;
    expect(Math.abs(mean - 4 / 3)).toBeLessThan(0.2);
  });
  it('draws uniform values in [0, 1) from a seed', () => {
    const r = seededRandom(5);
    const xs = Array.from({ length: 1000 }, () => r.next());
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(Math.abs(xs.reduce((a, b) => a + b) / xs.length - 0.5)).toBeLessThan(0.05);
  });
});

describe('τ_AP (Yilmaz et al. 2008)', () => {
  it('is 1 for the same order, −1 for the reverse, and weighs swaps at the top more than τ-b', () => {
    expect(kendallTauAP([3, 2, 1], [30, 20, 10])).toBe(1);
    expect(kendallTauAP([3, 2, 1], [1, 2, 3])).toBe(-1);
    // estimate A B C; reference B A C: the top pair swapped -> C(2) = 0, C(3) = 2/2 -> 0
    expect(kendallTauAP([3, 2, 1], [2, 3, 1])).toBe(0);
    // reference A C B: the bottom pair swapped -> C(2) = 1, C(3) = 1/2 -> 0.5
    expect(kendallTauAP([3, 2, 1], [3, 1, 2])).toBe(0.5);
    expect(kendallTauB([3, 2, 1], [2, 3, 1])).toBeCloseTo(1 / 3, 15);
    expect(kendallTauB([3, 2, 1], [3, 1, 2])).toBeCloseTo(1 / 3, 15);
  });
  it('is null for fewer than two systems; ties in the reference count one half', () => {
    expect(kendallTauAP([1], [1])).toBeNull();
    expect(kendallTauAP([2, 1], [1, 1])).toBe(0);
  });
});
