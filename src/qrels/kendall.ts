/** -1, 0 or 1; values closer than `tolerance` compare equal. */
const compare = (a: number, b: number, tolerance: number) => (Math.abs(a - b) <= tolerance ? 0 : Math.sign(a - b));

/**
 * Kendall's τ-b between two paired score lists (ties allowed in either):
 * (concordant − discordant) / sqrt((n0 − n1)(n0 − n2)), n0 = n(n−1)/2 pairs, n1 and n2
 * the pairs tied in x and in y. Null when it is undefined: fewer than two items, or every
 * pair tied in one of the lists (scipy.stats.kendalltau returns nan there). Values closer
 * than `tolerance` count as tied.
 */
export function kendallTauB(x: readonly number[], y: readonly number[], tolerance = 0): number | null {
  if (x.length !== y.length) throw new Error(`kendallTauB: lists of different lengths (${x.length}, ${y.length})`);
  const n = x.length;
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = compare(x[i]!, x[j]!, tolerance);
      const dy = compare(y[i]!, y[j]!, tolerance);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}

/**
 * Ranks by score descending, 1 = best; equal scores (closer than `tolerance`) share the
 * best rank of their group (competition ranking: 0.5, 0.4, 0.4, 0.3 -> 1, 2, 2, 4).
 */
export function competitionRanks(scores: readonly number[], tolerance = 0): number[] {
  return scores.map((s) => 1 + scores.filter((other) => compare(other, s, tolerance) > 0).length);
}

/**
 * Yilmaz, Aslam & Robertson's τ_AP (SIGIR 2008), a rank correlation that weighs swaps
 * near the top more: τ_AP = 2/(n−1) · Σ_{i=2..n} C(i)/(i−1) − 1, where the items are in
 * the order of `estimate` (best first) and C(i) counts the items above position i that
 * `reference` also ranks above item i. It is not symmetric: here the reference is the
 * adjudicated (new) order and the estimate the base order. Ties: the estimate's ties
 * are broken by the reference (the most favourable order, so a tie is not a swap); a
 * pair the reference ties counts ½. Values closer than `tolerance` tie. Null for fewer
 * than two items.
 */
export function kendallTauAP(estimate: readonly number[], reference: readonly number[], tolerance = 0): number | null {
  if (estimate.length !== reference.length)
    throw new Error(`kendallTauAP: lists of different lengths (${estimate.length}, ${reference.length})`);
  const n = estimate.length;
  if (n < 2) return null;
  const order = estimate
    .map((_, i) => i)
    .sort((i, j) => -compare(estimate[i]!, estimate[j]!, tolerance) || -compare(reference[i]!, reference[j]!, tolerance) || i - j);
  let sum = 0;
  for (let p = 1; p < n; p++) {
    const item = order[p]!;
    let correct = 0;
    for (let q = 0; q < p; q++) {
      const c = compare(reference[order[q]!]!, reference[item]!, tolerance);
      correct += c > 0 ? 1 : c === 0 ? 0.5 : 0;
    }
    sum += correct / p;
  }
  return (2 / (n - 1)) * sum - 1;
}
