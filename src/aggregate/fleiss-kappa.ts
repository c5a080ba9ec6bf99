import type { AgreementMeasure, AgreementResult } from './agreement.js';
import { indexVotes, quote } from './votes.js';

export interface FleissKappaResult extends AgreementResult {
  readonly measure: 'fleissKappa';
  /** The rater count when every item used has the same count; null when the counts differ (see `raters`). */
  readonly ratersPerItem: number | null;
  /** Ratings per item over the items used (2 or more ratings): fewest, most and mean; null without such items. */
  readonly raters: { readonly min: number; readonly max: number; readonly mean: number } | null;
  /** Mean pairwise agreement over the items used (P̄). */
  readonly observedAgreement: number | null;
  /** Agreement expected by chance from the category shares (P̄e). */
  readonly chanceAgreement: number | null;
}

/**
 * Fleiss' κ (Fleiss 1971) in its generalized form for unequal numbers of raters per item
 * (Gwet, Handbook of Inter-Rater Reliability, ch. 2; the `fleiss` coefficient of irrCAC):
 *
 *   P̄  = mean over items with r_i ≥ 2 of Σ_k r_ik (r_ik − 1) / (r_i (r_i − 1))
 *   π_k = mean over items with r_i ≥ 1 of r_ik / r_i
 *   P̄e = Σ_k π_k²,   κ = (P̄ − P̄e) / (1 − P̄e)
 *
 * With the same rater count on every item this is exactly Fleiss' κ. qrelay needs the
 * general form because its items do not all have 3 valid votes: a discarded assignment
 * leaves 2, an extra one makes 4, adaptive redundancy stops at 2 when the first two agree,
 * and mid-batch most items have fewer. Every item with 2 or more ratings enters P̄ (an item
 * with a single rating has no pair and only enters the category shares); no item is
 * silently dropped. Workers need not be the same on every item (raters are exchangeable).
 */
export const fleissKappa: AgreementMeasure<FleissKappaResult> = {
  name: 'fleissKappa',
  displayName: "Fleiss' κ",
  compute(votes, categories) {
    return fleissKappa.computeIndexed(indexVotes(votes, categories));
  },
  computeIndexed(data) {
    const { categories } = data;
    const K = categories.length;
    const undefinedResult = (reason: string, extra: Partial<FleissKappaResult> = {}): FleissKappaResult => ({
      measure: 'fleissKappa',
      value: null,
      reason,
      itemsUsed: 0,
      itemsExcluded: data.items.length,
      ratingsUsed: 0,
      ratersPerItem: null,
      raters: null,
      observedAgreement: null,
      chanceAgreement: null,
      ...extra,
    });
    if (data.items.length === 0) return undefinedResult('no votes: κ needs items rated by at least 2 workers');

    const { shares, sumP, used, ratingsUsed, min, max } = fleissSums(data.counts, data.items.length, K);
    if (used === 0) return undefinedResult('no item has 2 or more ratings: κ needs at least 2 raters per item');

    const observedAgreement = sumP / used;
    const chanceAgreement = chanceOf(shares, data.items.length);
    const common = {
      itemsUsed: used,
      itemsExcluded: data.items.length - used,
      ratingsUsed,
      ratersPerItem: min === max ? min : null,
      raters: { min, max, mean: ratingsUsed / used },
      observedAgreement,
      chanceAgreement,
    };
    const categoriesUsed = categories.filter((_, k) => shares[k]! > 0);
    if (categoriesUsed.length < 2) {
      return undefinedResult(`every rating used is ${quote(categoriesUsed[0])}: chance agreement is 1, so κ is undefined`, common);
    }
    return { measure: 'fleissKappa', value: (observedAgreement - chanceAgreement) / (1 - chanceAgreement), ...common };
  },
};

interface FleissSums {
  /** Σ over rated items of r_ik / r_i, per category. */
  readonly shares: Float64Array;
  /** Σ over items with r_i ≥ 2 of their pairwise agreement. */
  readonly sumP: number;
  readonly used: number;
  readonly ratingsUsed: number;
  readonly min: number;
  readonly max: number;
}

/** The sums behind κ, from per-item category counts (`counts[i * K + k]`, every item rated at least once). */
function fleissSums(counts: Float64Array, items: number, K: number): FleissSums {
  const shares = new Float64Array(K);
  let sumP = 0;
  let used = 0;
  let ratingsUsed = 0;
  let min = Infinity;
  let max = 0;
  for (let i = 0; i < items; i++) {
    let r = 0;
    for (let k = 0; k < K; k++) r += counts[i * K + k]!;
    let pairs = 0;
    for (let k = 0; k < K; k++) {
      const c = counts[i * K + k]!;
      shares[k] = shares[k]! + c / r;
      pairs += c * (c - 1);
    }
    if (r < 2) continue;
    sumP += pairs / (r * (r - 1));
    used += 1;
    ratingsUsed += r;
    min = Math.min(min, r);
    max = Math.max(max, r);
  }
  return { shares, sumP, used, ratingsUsed, min, max };
}

const chanceOf = (shares: Float64Array, items: number): number => shares.reduce((sum, share) => sum + (share / items) ** 2, 0);

/** κ alone from per-item category counts (for resampling): null where κ is undefined. */
export function fleissKappaOfCounts(counts: Float64Array, items: number, K: number): number | null {
  const { shares, sumP, used } = fleissSums(counts, items, K);
  if (used === 0) return null;
  const chance = chanceOf(shares, items);
  return chance >= 1 ? null : (sumP / used - chance) / (1 - chance);
}
