import { describe, expect, it } from 'vitest';
import { fleissKappa } from './fleiss-kappa.js';
import type { Vote } from './votes.js';

/** Votes from a subjects x categories count table (raters are anonymous in Fleiss' κ). */
function fromCounts<L extends string>(categories: readonly L[], table: readonly (readonly number[])[]): Vote<L>[] {
  return table.flatMap((row, i) => {
    let rater = 0;
    return row.flatMap((count, k) =>
      Array.from({ length: count }, () => ({ item: `s${i + 1}`, worker: `r${++rater}`, label: categories[k]! })),
    );
  });
}

const yn = ['yes', 'no'] as const;

describe("Fleiss' κ", () => {
  it('gives 0.2099 on the classic table (10 subjects, 14 raters, 5 categories)', () => {
    // Wikipedia, "Fleiss' kappa", worked example: kappa = 0.210 (P-bar = 0.378, P-bar-e = 0.213).
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const categories = ['1', '2', '3', '4', '5'] as const;
    const result = fleissKappa.compute(fromCounts(categories, table), categories);
    expect(result.value!).toBeCloseTo(0.2099, 4);
    expect(result.value!).toBeCloseTo(0.20993070442195522, 12); // statsmodels' fleiss_kappa on the same table
    expect(result.observedAgreement!).toBeCloseTo(0.378, 3);
    expect(result.chanceAgreement!).toBeCloseTo(0.213, 3);
    expect(result).toMatchObject({ measure: 'fleissKappa', itemsUsed: 10, itemsExcluded: 0, ratingsUsed: 140, ratersPerItem: 14 });
    expect(result.reason).toBeUndefined();
  });

  it('is 1 when every item is unanimous and both categories occur', () => {
    const result = fleissKappa.compute(
      fromCounts(yn, [
        [3, 0],
        [0, 3],
        [3, 0],
      ]),
      yn,
    );
    expect(result.value).toBe(1);
  });

  it('is -1 when every pair of raters disagrees on balanced data', () => {
    expect(
      fleissKappa.compute(
        fromCounts(yn, [
          [1, 1],
          [1, 1],
        ]),
        yn,
      ).value,
    ).toBeCloseTo(-1, 12);
  });

  it("keeps items with unequal rater counts (Gwet's generalization), single ratings only in the shares", () => {
    // three items with 3 raters, one with 2, one with 4, one with 1
    const table = [
      [2, 1],
      [3, 0],
      [0, 3],
      [1, 1],
      [2, 2],
      [1, 0],
    ];
    const result = fleissKappa.compute(fromCounts(yn, table), yn);
    expect(result).toMatchObject({
      itemsUsed: 5,
      itemsExcluded: 1,
      ratingsUsed: 15,
      ratersPerItem: null,
      raters: { min: 2, max: 4, mean: 3 },
    });
    // by hand: P_i = 1/3, 1, 1, 0, 1/3 -> P-bar = 8/15;
    // pi_yes = (2/3 + 1 + 0 + 1/2 + 1/2 + 1) / 6 = 11/18, pi_no = 7/18 -> P-e = (121 + 49) / 324
    const pe = 170 / 324;
    expect(result.observedAgreement!).toBeCloseTo(8 / 15, 12);
    expect(result.chanceAgreement!).toBeCloseTo(pe, 12);
    expect(result.value!).toBeCloseTo((8 / 15 - pe) / (1 - pe), 12);
  });

  it('is the classic κ when every item has the same count', () => {
    const table = [
      [2, 1],
      [3, 0],
      [0, 3],
    ];
    const result = fleissKappa.compute(fromCounts(yn, table), yn);
    expect(result).toMatchObject({ itemsUsed: 3, itemsExcluded: 0, ratingsUsed: 9, ratersPerItem: 3, raters: { min: 3, max: 3, mean: 3 } });
    // P_i = 1/3, 1, 1 -> P-bar = 7/9; p = (5/9, 4/9) -> P-e = 41/81
    expect(result.value!).toBeCloseTo((7 / 9 - 41 / 81) / (1 - 41 / 81), 12);
  });

  it('does not depend on the vote order', () => {
    const votes = fromCounts(yn, [
      [2, 1],
      [3, 0],
      [0, 3],
      [1, 2],
    ]);
    expect(fleissKappa.compute([...votes].reverse(), yn)).toEqual(fleissKappa.compute(votes, yn));
  });

  it('handles many categories', () => {
    const categories = Array.from({ length: 10 }, (_, n) => `c${n}`);
    const table = categories.map((_, i) => categories.map((__, k) => (k === i ? 3 : 0)));
    expect(fleissKappa.compute(fromCounts(categories, table), categories).value).toBe(1);
  });

  describe('undefined cases give null with a reason, never NaN', () => {
    it('no votes', () => {
      expect(fleissKappa.compute([], yn)).toEqual({
        measure: 'fleissKappa',
        value: null,
        reason: 'no votes: κ needs items rated by at least 2 workers',
        itemsUsed: 0,
        itemsExcluded: 0,
        ratingsUsed: 0,
        ratersPerItem: null,
        raters: null,
        observedAgreement: null,
        chanceAgreement: null,
      });
    });

    it('one rater per item', () => {
      const result = fleissKappa.compute(
        fromCounts(yn, [
          [1, 0],
          [0, 1],
        ]),
        yn,
      );
      expect(result).toMatchObject({ value: null, itemsUsed: 0, itemsExcluded: 2 });
      expect(result.reason).toBe('no item has 2 or more ratings: κ needs at least 2 raters per item');
    });

    it('a single category overall', () => {
      const result = fleissKappa.compute(
        fromCounts(yn, [
          [3, 0],
          [3, 0],
        ]),
        yn,
      );
      expect(result).toMatchObject({ value: null, itemsUsed: 2, ratersPerItem: 3, observedAgreement: 1, chanceAgreement: 1 });
      expect(result.reason).toBe('every rating used is "yes": chance agreement is 1, so κ is undefined');
      const single = fleissKappa.compute(fromCounts(['yes'] as const, [[3], [2]]), ['yes']);
      expect(single.value).toBeNull();
      expect(JSON.stringify(single)).not.toMatch(/NaN|Infinity/);
    });
  });
});
