/**
 * The bots' own seeded randomness (pure): a stream per name, derived from the run's seed
 * with sha256, so that each bot's draws do not depend on how many draws another made or
 * on the order in which real time interleaves them.
 */
import { createHash } from 'node:crypto';

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  between(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(xs: readonly T[]): T;
  /** Log-normal with this median and log-scale spread. */
  logNormal(median: number, sigma: number): number;
}

function seed32(text: string): number {
  return createHash('sha256').update(text, 'utf8').digest().readUInt32LE(0);
}

/** mulberry32 over a 32-bit state seeded from `seed` and `name`. */
export function rngFor(seed: string, name: string): Rng {
  let state = seed32(`${seed}\u0000${name}`);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    next,
    between: (lo, hi) => lo + (hi - lo) * next(),
    chance: (p) => next() < p,
    pick: (xs) => {
      if (xs.length === 0) throw new Error('bench crowd-external rng.pick: nothing to pick from (an empty list)');
      return xs[Math.floor(next() * xs.length)]!;
    },
    logNormal: (median, sigma) => {
      // Box-Muller; 1 - next() keeps the logarithm finite
      const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
      return median * Math.exp(sigma * z);
    },
  };
  return rng;
}

/** One uniform draw in [0, 1) fixed by `seed` and `name`: the same on every call. */
export function coin(seed: string, name: string): number {
  return seed32(`${seed}\u0000${name}`) / 4294967296;
}
