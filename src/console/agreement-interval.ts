import { fleissKappa } from '../aggregate/fleiss-kappa.js';
import { krippendorffAlpha } from '../aggregate/krippendorff-alpha.js';
import type { Vote } from '../aggregate/votes.js';
import { seededRng } from '../hits/random.js';

/**
 * Agreement with an interval (pure): a percentile bootstrap over items. Each resample
 * draws as many items as the batch has, with replacement, keeping every vote of an item
 * together, and recomputes the measure; the interval is the central `level` share of the
 * resampled values. Seeded, so the same votes give the same interval on every load.
 *
 * The point value is the aggregate module's (fleiss-kappa.ts, krippendorff-alpha.ts).
 * Resamples use the same formulas written over per-item category counts, which is what
 * makes 1,000 resamples of a BRIDGE-sized batch cheap enough for a page load; a test
 * checks that on the original votes they give exactly the aggregate module's values.
 */

export type IntervalMeasure = 'fleissKappa' | 'krippendorffAlpha';

export interface AgreementInterval {
  measure: IntervalMeasure;
  value: number | null;
  reason: string | null;
  /** Null when the measure is undefined or fewer than 2 items carry votes. */
  low: number | null;
  high: number | null;
  level: number;
  resamples: number;
  items: number;
}

/** Per item, its vote count per category. */
export function itemCounts<L extends string>(votes: readonly Vote<L>[], categories: readonly L[]): number[][] {
  const index = new Map(categories.map((c, k) => [c, k]));
  const byItem = new Map<string, number[]>();
  for (const v of votes) {
    const k = index.get(v.label);
    if (k === undefined) continue;
    let counts = byItem.get(v.item);
    if (!counts) byItem.set(v.item, (counts = new Array<number>(categories.length).fill(0)));
    counts[k]!++;
  }
  return [...byItem.keys()].sort().map((item) => byItem.get(item)!);
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const sumSq = (xs: readonly number[]) => xs.reduce((a, b) => a + b * b, 0);

/** The rater count κ uses: the most common count of 2 or more (ties: the larger), as fleiss-kappa.ts. */
export function modalRaters(items: readonly number[][]): number | null {
  const freq = new Map<number, number>();
  for (const c of items) {
    const m = sum(c);
    if (m >= 2) freq.set(m, (freq.get(m) ?? 0) + 1);
  }
  let best: number | null = null;
  for (const [m, f] of freq) if (best === null || f > freq.get(best)! || (f === freq.get(best)! && m > best)) best = m;
  return best;
}

/** Fleiss' κ over the items with exactly `m` raters; null when undefined. */
export function kappaFromCounts(items: readonly number[][], m: number): number | null {
  const used = items.filter((c) => sum(c) === m);
  if (used.length === 0 || m < 2) return null;
  const k = used[0]!.length;
  const totals = new Array<number>(k).fill(0);
  let pBar = 0;
  for (const c of used) {
    for (let j = 0; j < k; j++) totals[j]! += c[j]!;
    pBar += (sumSq(c) - m) / (m * (m - 1));
  }
  pBar /= used.length;
  const pe = sumSq(totals.map((t) => t / (used.length * m)));
  return pe >= 1 ? null : (pBar - pe) / (1 - pe);
}

/** Krippendorff's α (nominal) over the items with 2 or more votes; null when undefined. */
export function alphaFromCounts(items: readonly number[][]): number | null {
  const used = items.filter((c) => sum(c) >= 2);
  if (used.length === 0) return null;
  const k = used[0]!.length;
  const totals = new Array<number>(k).fill(0);
  let disagreement = 0;
  for (const c of used) {
    const m = sum(c);
    for (let j = 0; j < k; j++) totals[j]! += c[j]!;
    disagreement += (m * m - sumSq(c)) / (m - 1);
  }
  const n = sum(totals);
  const expected = (n * n - sumSq(totals)) / (n - 1);
  return expected === 0 ? null : 1 - disagreement / expected;
}

export function bootstrapAgreement<L extends string>(
  measure: IntervalMeasure,
  votes: readonly Vote<L>[],
  categories: readonly L[],
  opts: { seed: string; resamples?: number; level?: number },
): AgreementInterval {
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  const point = (measure === 'fleissKappa' ? fleissKappa : krippendorffAlpha).compute(votes, categories);
  const items = itemCounts(votes, categories);
  const base = { measure, value: point.value, reason: point.reason ?? null, level, resamples, items: items.length };
  if (point.value === null || items.length < 2) return { ...base, low: null, high: null };
  const m = modalRaters(items);
  const compute = (sample: number[][]) => (measure === 'fleissKappa' ? (m === null ? null : kappaFromCounts(sample, m)) : alphaFromCounts(sample));
  const rng = seededRng(`agreement-interval|${opts.seed}|${measure}`);
  const values: number[] = [];
  const sample: number[][] = new Array<number[]>(items.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < items.length; i++) sample[i] = items[rng.int(items.length)]!;
    const value = compute(sample);
    if (value !== null) values.push(value);
  }
  if (values.length === 0) return { ...base, low: null, high: null };
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.floor(q * values.length)))]!;
  return { ...base, low: at((1 - level) / 2), high: at(1 - (1 - level) / 2) };
}
