import { studentTwoSidedP } from './student-t.js';

/**
 * Significance and uncertainty over per-query values (pure). Every random procedure takes
 * a seed and draws from {@link seededRandom}, so the same input and seed give the same
 * output on every machine.
 *
 * - Paired two-sided t-test: scipy.stats.ttest_rel(a, b): d = a − b,
 *   t = mean(d) / (sd(d) / √n) with sd over n − 1, p from Student's t with n − 1 degrees
 *   of freedom. Undefined (null, scipy's nan) when n < 2 or every difference is 0; when
 *   the differences are equal and not 0, t is infinite (null here) and p is 0.
 * - Paired randomization (permutation) test (randomizationTests): each trial flips the sign of every query's
 *   difference with probability ½ (swapping the two systems' values of that query);
 *   p = (1 + trials whose |Σ d| ≥ the observed |Σ d|) / (1 + trials), which is never 0
 *   and is exact in expectation (Phipson & Smyth 2010).
 * - Holm's step-down correction over one family of p-values.
 * - Bootstrap: queries resampled with replacement; percentile intervals with numpy's
 *   default (linear) interpolation.
 */

/** A uniform generator in [0, 1) and of 32-bit words (mulberry32). */
export interface SeededRandom {
  next(): number;
  nextUint32(): number;
}

export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const nextUint32 = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { nextUint32, next: () => nextUint32() / 4294967296 };
}

export interface TTestResult {
  /** null when undefined or infinite (scipy: nan, ±inf). */
  t: number | null;
  /** null when undefined (scipy: nan). */
  p: number | null;
}

export function meanOf(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  return sum / values.length;
}

function differences(a: ArrayLike<number>, b: ArrayLike<number>): Float64Array {
  if (a.length !== b.length) throw new Error(`paired values of different lengths (${a.length}, ${b.length})`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = a[i]! - b[i]!;
  return d;
}

export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): TTestResult {
  const d = differences(a, b);
  const n = d.length;
  if (n < 2) return { t: null, p: null };
  const m = meanOf(d);
  let squares = 0;
  for (const v of d) squares += (v - m) * (v - m);
  const sd = Math.sqrt(squares / (n - 1));
  if (sd === 0) return m === 0 ? { t: null, p: null } : { t: null, p: 0 };
  const t = m / (sd / Math.sqrt(n));
  return { t, p: studentTwoSidedP(t, n - 1) };
}

/** Sums closer than this share of the values' magnitude count as equal (floating-point noise). */
const SUM_TOLERANCE = 1e-12;

/**
 * Paired randomization tests between every pair of several systems' values over the same
 * queries, all from the same trials: a trial draws one sign per query, s_i = ±1, and
 * swapping the values of the queries with s_i = −1 turns the pair's sum of differences
 * into Σ s_i (a_i − b_i) = S_a − S_b with S_x = Σ s_i x_i. So each trial costs one pass
 * per system, not per pair (25 runs: 25 passes instead of 300). Each pair's p is that of
 * its own randomization test; the pairs' tests share their draws.
 * Returns p for every pair (i, j), i < j, in that order.
 */
export function randomizationTests(columns: ReadonlyArray<ArrayLike<number>>, trials: number, seed: number): number[] {
  const n = columns[0]?.length ?? 0;
  for (const c of columns) if (c.length !== n) throw new Error('randomization columns of different lengths');
  const k = columns.length;
  const observed: number[] = [];
  const threshold: number[] = [];
  const magnitude = columns.map((c) => {
    let m = 0;
    for (let i = 0; i < n; i++) m += Math.abs(c[i]!);
    return m;
  });
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += columns[a]![i]! - columns[b]![i]!;
      observed.push(sum);
      threshold.push(Math.abs(sum) - SUM_TOLERANCE * (magnitude[a]! + magnitude[b]!));
    }
  }
  const extreme = new Array<number>(observed.length).fill(0);
  const random = seededRandom(seed);
  const signed = new Float64Array(k);
  const signs = new Int8Array(n);
  for (let trial = 0; trial < trials; trial++) {
    let bits = 0;
    for (let i = 0; i < n; i++) {
      if ((i & 31) === 0) bits = random.nextUint32();
      signs[i] = bits & 1 ? -1 : 1;
      bits >>>= 1;
    }
    for (let c = 0; c < k; c++) {
      const column = columns[c]!;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += signs[i]! * column[i]!;
      signed[c] = sum;
    }
    let pair = 0;
    for (let a = 0; a < k; a++) {
      for (let b = a + 1; b < k; b++) {
        if (Math.abs(signed[a]! - signed[b]!) >= threshold[pair]!) extreme[pair]!++;
        pair++;
      }
    }
  }
  return extreme.map((e) => (1 + e) / (1 + trials));
}

/** One pair's paired randomization test (see {@link randomizationTests}). */
export function randomizationTest(a: ArrayLike<number>, b: ArrayLike<number>, trials: number, seed: number): { p: number } {
  return { p: randomizationTests([a, b], trials, seed)[0]! };
}

/**
 * Holm-adjusted p-values, in the order given: sorted ascending, p_(i) · (m − i + 1),
 * made monotone and capped at 1. A null p (undefined test) stays null and is not
 * counted in the family.
 */
export function holm(ps: ReadonlyArray<number | null>): Array<number | null> {
  const order = ps
    .map((p, i) => ({ p, i }))
    .filter((x): x is { p: number; i: number } => x.p !== null)
    .sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted: Array<number | null> = ps.map(() => null);
  const m = order.length;
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** The q-quantile (0 ≤ q ≤ 1) of sorted values, numpy's linear interpolation. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

export interface Interval {
  low: number;
  high: number;
}

/** The central `level` percentile interval of replicates (e.g. 0.95: the 2.5th and 97.5th percentiles). */
export function percentileInterval(replicates: ArrayLike<number>, level = 0.95): Interval | null {
  // NaN replicates (a statistic undefined on that sample) are left out
  const sorted = Float64Array.from(replicates)
    .filter((v) => !Number.isNaN(v))
    .sort();
  if (sorted.length === 0) return null;
  const tail = (1 - level) / 2;
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}

/** One bootstrap sample: `rows.length` rows drawn with replacement (label-draws.ts counts the same samples). */
export function resampleRows(random: SeededRandom, rows: Uint32Array): void {
  const n = rows.length;
  for (let i = 0; i < n; i++) rows[i] = Math.floor(random.next() * n);
}

/**
 * Bootstrap replicates of the means of several columns over the same rows (queries):
 * each sample draws n rows with replacement, once for all columns, so statistics that
 * combine columns (a difference, a rank correlation) see paired resamples. NaN marks a
 * row a column lacks (a query not in that qrels): it is left out of that column's mean
 * (NaN when the sample drew none of its rows). Returns per sample, per column, the mean.
 */
export function bootstrapMeans(columns: ReadonlyArray<ArrayLike<number>>, samples: number, seed: number): Float64Array[] {
  const n = columns[0]?.length ?? 0;
  for (const c of columns) if (c.length !== n) throw new Error('bootstrap columns of different lengths');
  const random = seededRandom(seed);
  const rows = new Uint32Array(n);
  const out: Float64Array[] = [];
  for (let s = 0; s < samples; s++) {
    resampleRows(random, rows);
    const means = new Float64Array(columns.length);
    columns.forEach((column, c) => {
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i++) {
        const v = column[rows[i]!]!;
        if (v === v) {
          sum += v;
          count++;
        }
      }
      means[c] = count === 0 ? NaN : sum / count;
    });
    out.push(means);
  }
  return out;
}
