import type { AgreementMeasure, AgreementResult } from './agreement.js';
import { indexVotes, quote } from './votes.js';

export interface KrippendorffAlphaResult extends AgreementResult {
  readonly measure: 'krippendorffAlpha';
  readonly level: 'nominal';
  /** n: the ratings on items with at least 2 ratings. */
  readonly pairableValues: number;
  /** D_o: the share of mismatching pairs within items. */
  readonly observedDisagreement: number | null;
  /** D_e: the share of mismatching pairs expected from the pooled category shares. */
  readonly expectedDisagreement: number | null;
}

/**
 * Krippendorff's α for nominal data, α = 1 − D_o / D_e, from the coincidence matrix
 * (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): every item with m ≥ 2
 * ratings adds each ordered pair of its ratings with weight 1/(m − 1). It takes any
 * number of raters per item and missing ratings; items with a single rating cannot be
 * paired and are left out (`itemsExcluded`), as α prescribes.
 */
export const krippendorffAlpha: AgreementMeasure<KrippendorffAlphaResult> = {
  name: 'krippendorffAlpha',
  displayName: "Krippendorff's α (nominal)",
  compute(votes, categories) {
    return krippendorffAlpha.computeIndexed(indexVotes(votes, categories));
  },
  computeIndexed(data) {
    const { categories } = data;
    const K = categories.length;
    const { matching, marginal, itemsUsed } = coincidences(data.counts, data.items.length, K);
    const n = marginal.reduce((a, b) => a + b, 0);
    const base = {
      measure: 'krippendorffAlpha',
      level: 'nominal',
      itemsUsed,
      itemsExcluded: data.items.length - itemsUsed,
      ratingsUsed: n,
      pairableValues: n,
    } as const;
    if (itemsUsed === 0) {
      const reason =
        data.items.length === 0
          ? 'no votes: α needs items rated by at least 2 workers'
          : 'no item has 2 or more ratings: α has no pairable values';
      return { ...base, value: null, reason, observedDisagreement: null, expectedDisagreement: null };
    }
    const { observedDisagreement, expectedDisagreement } = disagreements(matching, marginal, n);
    if (expectedDisagreement === 0) {
      const only = categories.find((_, k) => marginal[k]! > 0);
      return {
        ...base,
        value: null,
        reason: `every pairable rating is ${quote(only)}: expected disagreement is 0, so α is undefined`,
        observedDisagreement,
        expectedDisagreement,
      };
    }
    return { ...base, value: 1 - observedDisagreement / expectedDisagreement, observedDisagreement, expectedDisagreement };
  },
};

/** For nominal data only the diagonal of the coincidence matrix (o_cc) and its marginals (n_c) matter. */
function coincidences(
  counts: Float64Array,
  items: number,
  K: number,
): { matching: Float64Array; marginal: Float64Array; itemsUsed: number } {
  const matching = new Float64Array(K);
  const marginal = new Float64Array(K);
  let itemsUsed = 0;
  for (let i = 0; i < items; i++) {
    let m = 0;
    for (let k = 0; k < K; k++) m += counts[i * K + k]!;
    if (m < 2) continue;
    itemsUsed++;
    for (let k = 0; k < K; k++) {
      const c = counts[i * K + k]!;
      matching[k] = matching[k]! + (c * (c - 1)) / (m - 1);
      marginal[k] = marginal[k]! + c;
    }
  }
  return { matching, marginal, itemsUsed };
}

function disagreements(
  matching: Float64Array,
  marginal: Float64Array,
  n: number,
): { observedDisagreement: number; expectedDisagreement: number } {
  const observedDisagreement = (n - matching.reduce((a, b) => a + b, 0)) / n;
  const sameExpected = marginal.reduce((sum, c) => sum + c * (c - 1), 0);
  return { observedDisagreement, expectedDisagreement: (n * (n - 1) - sameExpected) / (n * (n - 1)) };
}

/** α alone from per-item category counts (for resampling): null where α is undefined. */
export function krippendorffAlphaOfCounts(counts: Float64Array, items: number, K: number): number | null {
  const { matching, marginal, itemsUsed } = coincidences(counts, items, K);
  const n = marginal.reduce((a, b) => a + b, 0);
  if (itemsUsed === 0) return null;
  const { observedDisagreement, expectedDisagreement } = disagreements(matching, marginal, n);
  return expectedDisagreement === 0 ? null : 1 - observedDisagreement / expectedDisagreement;
}
