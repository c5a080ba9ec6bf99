import { describe, expect, it } from 'vitest';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import type { Vote } from './votes.js';

/** Votes from reliability data: one row per observer, one column per unit, null = missing. */
function fromReliabilityData(rows: readonly (readonly (number | string | null)[])[]): Vote[] {
  return rows.flatMap((row, o) =>
    row.flatMap((value, u) => (value === null ? [] : [{ item: `u${u + 1}`, worker: `o${o + 1}`, label: String(value) }])),
  );
}

const _ = null;

describe("Krippendorff's α (nominal)", () => {
  it('gives 0.691 on the 3 observers x 15 units example with missing values', () => {
    // Wikipedia, "Krippendorff's alpha", section "A computational example" (alpha_nominal = 0.691);
    // the `krippendorff` Python package tests the same data to 6 decimals (0.691358).
    const data = [
      [_, _, _, _, _, 3, 4, 1, 2, 1, 1, 3, 3, _, 3],
      [1, _, 2, 1, 3, 3, 4, 3, _, _, _, _, _, _, _],
      [_, _, 2, 1, 3, 4, 4, _, 2, 1, 1, 3, 3, _, 4],
    ];
    const result = krippendorffAlpha.compute(fromReliabilityData(data), ['1', '2', '3', '4']);
    expect(result.value!).toBeCloseTo(0.691, 3);
    expect(result.value!).toBeCloseTo(0.691358, 6);
    // units 2 and 14 have no value and are not items at all; unit 1 has one value and cannot be paired
    expect(result).toMatchObject({
      measure: 'krippendorffAlpha',
      level: 'nominal',
      itemsUsed: 12,
      itemsExcluded: 1,
      pairableValues: 26,
      ratingsUsed: 26,
    });
  });

  it('gives 0.743 on the 4 observers x 12 units example', () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C, nominal alpha = 0.743
    // (0.743421 from the `krippendorff` package).
    const data = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
      [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
    ];
    const result = krippendorffAlpha.compute(fromReliabilityData(data), ['1', '2', '3', '4', '5']);
    expect(result.value!).toBeCloseTo(0.743421, 6);
    expect(result).toMatchObject({ itemsUsed: 11, itemsExcluded: 1, pairableValues: 40 });
  });

  it('takes string labels', () => {
    // the `krippendorff` package's nominal string example: 0.722222
    const data = [
      ['pos', 'neg', 'neu', _],
      ['pos', 'neg', 'neu', 'pos'],
      ['pos', 'neg', 'pos', 'pos'],
    ];
    expect(krippendorffAlpha.compute(fromReliabilityData(data), ['pos', 'neg', 'neu']).value!).toBeCloseTo(0.722222, 6);
  });

  it('ignores single ratings: adding them does not change α', () => {
    const data = [
      [1, 2, 2, 1, _, _],
      [1, 2, 1, 1, 2, _],
      [_, 2, 2, 1, _, 1],
    ];
    const withSingles = krippendorffAlpha.compute(fromReliabilityData(data), ['1', '2']);
    const without = krippendorffAlpha.compute(fromReliabilityData(data.map((row) => row.slice(0, 4))), ['1', '2']);
    expect(withSingles.value).toBe(without.value);
    expect(withSingles).toMatchObject({ itemsUsed: 4, itemsExcluded: 2 });
  });

  it('is 1 for perfect agreement and computes disagreements', () => {
    const result = krippendorffAlpha.compute(
      fromReliabilityData([
        [1, 2, 1],
        [1, 2, 1],
      ]),
      ['1', '2'],
    );
    expect(result).toMatchObject({ value: 1, observedDisagreement: 0 });
    expect(result.expectedDisagreement!).toBeCloseTo(8 / 15, 12); // n = 6, n_1 = 4, n_2 = 2: (36 - 20) / 30
  });

  it('handles many categories and unequal rater counts', () => {
    const categories = Array.from({ length: 9 }, (_, n) => String(n));
    const data = [
      [0, 1, 2, 3, 4, 5, 6, 7, 8],
      [0, 1, 2, 3, 4, 5, 6, 7, 7],
      [0, _, 2, _, 4, _, 6, _, 8],
    ];
    const result = krippendorffAlpha.compute(fromReliabilityData(data), categories);
    expect(result.value!).toBeGreaterThan(0.8);
    expect(result.value!).toBeLessThan(1);
    expect(result.itemsUsed).toBe(9);
  });

  describe('undefined cases give null with a reason, never NaN', () => {
    it('no votes', () => {
      const result = krippendorffAlpha.compute([], ['yes', 'no']);
      expect(result).toMatchObject({
        value: null,
        reason: 'no votes: α needs items rated by at least 2 workers',
        itemsUsed: 0,
        itemsExcluded: 0,
      });
    });

    it('only single ratings', () => {
      const result = krippendorffAlpha.compute(
        fromReliabilityData([
          ['yes', _],
          [_, 'no'],
        ]),
        ['yes', 'no'],
      );
      expect(result).toMatchObject({ value: null, reason: 'no item has 2 or more ratings: α has no pairable values', itemsExcluded: 2 });
    });

    it('a single category overall', () => {
      const result = krippendorffAlpha.compute(
        fromReliabilityData([
          ['yes', 'yes'],
          ['yes', 'yes'],
        ]),
        ['yes', 'no'],
      );
      expect(result).toMatchObject({ value: null, observedDisagreement: 0, expectedDisagreement: 0 });
      expect(result.reason).toBe('every pairable rating is "yes": expected disagreement is 0, so α is undefined');
      expect(JSON.stringify(result)).not.toMatch(/NaN|Infinity/);
    });
  });
});
