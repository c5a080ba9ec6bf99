import { describe, expect, it } from 'vitest';
import { labelsToSettle, normalCdf, SETTLED_BELOW, type SettleLabel } from './settle.js';

/** Expected doubt after re-judging k of n identical labels (p ½, each moving Δ by −e when it turns), by exact binomial enumeration. */
function exactDoubt(difference: number, n: number, e: number, k: number): number {
  const meanRest = difference - (n - k) * 0.5 * e;
  const varianceRest = (n - k) * 0.25 * e * e;
  let expected = 0;
  let ways = 1;
  for (let t = 0; t <= k; t++) {
    if (t > 0) ways = (ways * (k - t + 1)) / t;
    const mu = meanRest - t * e;
    expected += (ways / 2 ** k) * (varianceRest <= 0 ? 0 : normalCdf(-Math.abs(mu) / Math.sqrt(varianceRest)));
  }
  return expected;
}

const identical = (n: number, e: number): SettleLabel[] => Array.from({ length: n }, () => ({ p: 0.5, relevant: true, effect: -e }));

describe('normalCdf', () => {
  it('gives the standard normal distribution within its stated error, 7.5e-8', () => {
    for (const [x, phi] of [
      [0, 0.5],
      [1.959963984540054, 0.975],
      [-1, 0.15865525393145707],
      [-4, 3.167124183311998e-5],
      [2.5, 0.9937903346742238],
    ] as const)
      expect(Math.abs(normalCdf(x) - phi)).toBeLessThan(7.5e-8);
  });
});

describe('labelsToSettle', () => {
  it('needs no label when no label in doubt moves the difference', () => {
    const r = labelsToSettle({
      difference: 0.01,
      labels: [
        { p: 1, relevant: true, effect: -0.5 }, // certain: never turns
        { p: 0.5, relevant: false, effect: 0 }, // turns, but moves nothing
      ],
      seed: 1,
      atLeastOne: true,
    });
    expect(r).toEqual({ labels: [], remainingDoubt: 0, doubtNow: 0 });
  });

  it('names the one label whose turn reverses the order, and leaves no doubt once it is re-judged', () => {
    // Δ = 0.01; label 1 (p ½) moves it by −0.02 when it turns: the first-order Δ is N(0, 0.01²), doubt ½
    const r = labelsToSettle({
      difference: 0.01,
      labels: [
        { p: 0.9, relevant: true, effect: -0.001 },
        { p: 0.5, relevant: false, effect: -0.02 },
        { p: 0.95, relevant: true, effect: 0.0005 },
      ],
      seed: 1,
      atLeastOne: true,
    });
    expect(r.doubtNow).toBeCloseTo(
      normalCdf(-Math.abs(0.01 - 0.5 * 0.02 - 0.1 * 0.001 + 0.05 * 0.0005) / Math.sqrt(0.25 * 0.0004 + 0.09 * 1e-6 + 0.0475 * 2.5e-7)),
      12,
    );
    expect(r.labels).toEqual([1]);
    expect(r.remainingDoubt).toBeLessThan(SETTLED_BELOW);
  });

  it('ranks labels by their share of the variance: uncertain labels with large effects first', () => {
    const r = labelsToSettle({
      difference: 0,
      labels: [
        { p: 0.9, relevant: true, effect: -0.01 }, // 0.09 × 1e-4 = 9e-6
        { p: 0.5, relevant: true, effect: -0.01 }, // 0.25 × 1e-4 = 2.5e-5
        { p: 0.5, relevant: false, effect: 0.001 }, // 2.5e-7
        { p: 0.6, relevant: false, effect: 0.01 }, // 0.24 × 1e-4 = 2.4e-5
      ],
      seed: 1,
      atLeastOne: true,
    });
    // Δ = 0 is a coin toss until every label that moves it is known
    expect(r.labels).toEqual([1, 3, 0, 2]);
    expect(r.remainingDoubt).toBe(0);
  });

  it('agrees with exact enumeration on many small labels: the least k whose expected doubt is below 5%', () => {
    for (const [difference, n, e] of [
      [0.021, 40, 0.001],
      [0.0105, 20, 0.001],
      [0.0115, 20, 0.001],
    ] as const) {
      let k = 1;
      while (exactDoubt(difference, n, e, k) >= SETTLED_BELOW) k++;
      const r = labelsToSettle({ difference, labels: identical(n, e), seed: 7, atLeastOne: true });
      expect(r.labels).toHaveLength(k);
      expect(r.remainingDoubt).toBeCloseTo(exactDoubt(difference, n, e, k), 2);
      expect(r.doubtNow).toBeCloseTo(exactDoubt(difference, n, e, 0), 12);
    }
  });

  it('re-judges nothing when the doubt is already below 5%, unless asked for at least one', () => {
    const labels = identical(4, 0.001);
    const quiet = labelsToSettle({ difference: 0.05, labels, seed: 3 });
    expect(quiet.labels).toEqual([]);
    expect(quiet.doubtNow).toBeLessThan(SETTLED_BELOW);
    expect(labelsToSettle({ difference: 0.05, labels, seed: 3, atLeastOne: true }).labels).toEqual([0]);
  });

  it('gives the same answer under the same seed', () => {
    const labels = identical(30, 0.001);
    expect(labelsToSettle({ difference: 0.016, labels, seed: 11 })).toEqual(labelsToSettle({ difference: 0.016, labels, seed: 11 }));
  });

  it('refuses a p outside [0, 1] or an effect that is not finite, naming the label', () => {
    expect(() => labelsToSettle({ difference: 0, labels: [{ p: 1.5, relevant: true, effect: 0 }], seed: 1 })).toThrow(
      'labelsToSettle: label 0 has p 1.5 and effect 0; expected p in [0, 1] and a finite effect',
    );
    expect(() =>
      labelsToSettle({
        difference: 0,
        labels: [
          { p: 0.5, relevant: true, effect: 0 },
          { p: 0.5, relevant: true, effect: NaN },
        ],
        seed: 1,
      }),
    ).toThrow('label 1 has p 0.5 and effect NaN');
  });
});
