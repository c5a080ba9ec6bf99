import { hash } from 'node:crypto';

/**
 * Seeded randomness for the simulation (pure): one generator per purpose and worker, so
 * a seed replays the same population, the same answers and the same timings. sfc32
 * seeded through SHA-256 of a string (hits/random.ts); distributions by their textbook constructions.
 */

// the generator is qrelay's one seeded source (sfc32 through SHA-256, hits/random.ts)
export { seededRng } from '../hits/index.js';

/** What the distributions below draw from (a seededRng). */
export interface Rng {
  /** Uniform on [0, 1). */
  next(): number;
}

/**
 * A uniform number on [0, 1) that depends only on `parts` (answers that do not depend on order).
 * A one-shot hash: the crowd draws several per item, and a Hash object per draw cost twice as much.
 */
export function hashUniform(...parts: string[]): number {
  const d = hash('sha256', parts.join('\u0000'), 'buffer');
  return d.readUInt32LE(0) / 4294967296 + d.readUInt32LE(4) / 4294967296 / 4294967296;
}

export function standardNormal(rng: Rng): number {
  const u = 1 - rng.next(); // (0, 1]
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Log-normal with the given median and log-scale standard deviation. */
export function logNormal(rng: Rng, median: number, sigma: number): number {
  return median * Math.exp(sigma * standardNormal(rng));
}

/** Gamma(shape, 1) by Marsaglia and Tsang (shape < 1 through the x·U^(1/shape) boost). */
export function gamma(rng: Rng, shape: number): number {
  if (shape < 1) return gamma(rng, shape + 1) * Math.pow(1 - rng.next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = standardNormal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - rng.next();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

export function beta(rng: Rng, alpha: number, betaParam: number): number {
  const x = gamma(rng, alpha);
  const y = gamma(rng, betaParam);
  return x / (x + y);
}

/** Waiting time of a Poisson process of `rate` events per unit. */
export function exponential(rng: Rng, rate: number): number {
  return -Math.log(1 - rng.next()) / rate;
}

/** A count >= 1 with the given mean (geometric on 1, 2, ...). */
export function geometric(rng: Rng, mean: number): number {
  if (mean <= 1) return 1;
  const p = 1 / mean;
  return 1 + Math.floor(Math.log(1 - rng.next()) / Math.log(1 - p));
}

/** The index drawn with probability proportional to `weights`. */
export function categorical(rng: Rng, weights: readonly number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let u = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]!;
    if (u < 0) return i;
  }
  return weights.length - 1;
}
