import { describe, expect, it } from 'vitest';
import { logSumExp, logTruncatedBetaMarginal } from './beta-grid.js';

/** log B(a, b) for whole a, b: log((a−1)! (b−1)! / (a+b−1)!). */
const logBetaWhole = (a: number, b: number) => {
  const logFact = (n: number) => Array.from({ length: n }, (_, i) => Math.log(i + 1)).reduce((x, y) => x + y, 0);
  return logFact(a - 1) + logFact(b - 1) - logFact(a + b - 1);
};

describe('logTruncatedBetaMarginal', () => {
  it('integrates a uniform prior on [0, 1] to the Beta function', () => {
    for (const [s, f] of [
      [0, 0],
      [3, 1],
      [9, 0],
      [12, 7],
    ] as const)
      expect(logTruncatedBetaMarginal(s, f, 0, 1, 1, 1)).toBeCloseTo(logBetaWhole(s + 1, f + 1), 3);
  });

  it('normalises the prior over its truncated range: no data gives log 1', () => {
    expect(logTruncatedBetaMarginal(0, 0, 0.6, 1, 8, 2)).toBeCloseTo(0, 12);
    expect(logTruncatedBetaMarginal(0, 0, 0, 0.55, 1, 1)).toBeCloseTo(0, 12);
  });

  it('gives the same number from memory as computed, and takes counts that are not whole', () => {
    const first = logTruncatedBetaMarginal(7, 2, 0.5, 1, 4, 1.5);
    expect(Object.is(logTruncatedBetaMarginal(7, 2, 0.5, 1, 4, 1.5), first)).toBe(true);
    const half = logTruncatedBetaMarginal(7.5, 2, 0.5, 1, 4, 1.5);
    expect(half).toBeLessThan(first);
    expect(half).toBeGreaterThan(logTruncatedBetaMarginal(8, 2, 0.5, 1, 4, 1.5));
  });

  it('prefers a careful range for a good record and a careless one for a poor record', () => {
    expect(logTruncatedBetaMarginal(9, 1, 0.7, 1, 1, 1)).toBeGreaterThan(logTruncatedBetaMarginal(9, 1, 0, 0.6, 1, 1));
    expect(logTruncatedBetaMarginal(3, 6, 0.7, 1, 1, 1)).toBeLessThan(logTruncatedBetaMarginal(3, 6, 0, 0.6, 1, 1));
  });
});

describe('logSumExp', () => {
  it('adds in the log domain without overflow, and keeps the edge cases', () => {
    expect(logSumExp([Math.log(2), Math.log(3)])).toBeCloseTo(Math.log(5), 12);
    expect(logSumExp([1000, 1000])).toBeCloseTo(1000 + Math.log(2), 9);
    expect(logSumExp(new Float64Array([-Infinity, 0]))).toBe(0);
    expect(logSumExp([])).toBe(-Infinity);
    expect(logSumExp([0, NaN])).toBeNaN();
  });
});
