/** Small exact helpers the report sections share. */

/** numerator / denominator rounded half up, for whole numbers numerator >= 0, denominator > 0 (the quote's rounding). */
export function divideRoundHalfUp(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || numerator < 0 || !Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError(`divideRoundHalfUp needs whole numbers numerator >= 0 and denominator > 0, got ${numerator} / ${denominator}`);
  }
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/**
 * The nearest-rank percentile of ascending `sorted` values: the value at rank ⌈p/100 · n⌉
 * (1-based), i.e. the smallest value with at least p% of the values at or below it. Always
 * an observed value; null for no values. p in (0, 100].
 */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`a percentile must be in (0, 100], got ${p}`);
  if (sorted.length === 0) return null;
  // p/100 · n in floating point can land just above a whole number (0.07 · 100 = 7.000000000000001)
  const rank = Math.ceil(Math.round(((p * sorted.length) / 100) * 1e9) / 1e9);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

export const ascending = (a: number, b: number): number => a - b;

const MS_PER_HOUR = 3_600_000;

/** Cents per hour for `paidCents` over `workMs` milliseconds, rounded half up; null without work time. */
export function centsPerHour(paidCents: number, workMs: number): number | null {
  if (workMs <= 0) return null;
  return Math.floor((paidCents * MS_PER_HOUR) / workMs + 0.5);
}

/** Milliseconds as seconds, rounded to the millisecond (no float noise such as 1.2340000000000002). */
export const seconds = (ms: number): number => Math.round(ms) / 1000;
