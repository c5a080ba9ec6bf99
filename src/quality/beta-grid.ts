/**
 * The marginal likelihood of a run of successes and failures under a rate with a truncated
 * Beta prior, by numerical integration (pure): the worker verdict (worker-verdict.ts: check
 * accuracy and agreement) and the drift test (drift.ts: a careful and a careless stretch) ask
 * it of every worker, many times a round.
 *
 * Each (range, prior) has one grid: log p, log(1 − p) and the prior's log density at each point
 * (midpoint rule), the log of the prior's own integral, and the marginals computed on it so far
 * by (successes, failures). The logarithms were most of the work; computing them once per grid,
 * and each marginal once, gives the very same numbers (each computed as anew, added in the same
 * order) at a fraction of the cost.
 */

/** Points of the numerical integration over a rate's range (the integrands are smooth). */
const GRID = 200;
/** Grids kept at once (the oldest is forgotten first): a round asks a few, and a refitted prior moves them. */
const KEPT_GRIDS = 8;
/** Whole counts below this are remembered (one number keys both); others are computed each time. */
const COUNT_KEY = 2 ** 20;
/** Marginals kept per grid before its memory starts anew (a few megabytes at most, whatever the batch). */
const KEPT_MARGINALS = 100_000;

interface RateGrid {
  readonly lo: number;
  readonly hi: number;
  readonly alpha: number;
  readonly beta: number;
  readonly logP: Float64Array;
  readonly log1mP: Float64Array;
  readonly density: Float64Array;
  readonly priorNorm: number;
  /** By `successes * COUNT_KEY + failures`. */
  readonly marginals: Map<number, number>;
  /** Scratch space for one marginal's terms. */
  readonly terms: Float64Array;
}

/** The grids kept, oldest first: a few, found by their four numbers (no key built on this hot path). */
const grids: RateGrid[] = [];

function gridOf(lo: number, hi: number, alpha: number, beta: number): RateGrid {
  for (const g of grids) if (g.lo === lo && g.hi === hi && g.alpha === alpha && g.beta === beta) return g;
  const logP = new Float64Array(GRID);
  const log1mP = new Float64Array(GRID);
  const density = new Float64Array(GRID);
  for (let g = 0; g < GRID; g++) {
    const p = lo + ((g + 0.5) * (hi - lo)) / GRID;
    logP[g] = Math.log(p);
    log1mP[g] = Math.log1p(-p);
    density[g] = (alpha - 1) * logP[g]! + (beta - 1) * log1mP[g]!;
  }
  const grid = {
    lo,
    hi,
    alpha,
    beta,
    logP,
    log1mP,
    density,
    priorNorm: logSumExp(density),
    marginals: new Map<number, number>(),
    terms: new Float64Array(GRID),
  };
  if (grids.length >= KEPT_GRIDS) grids.shift();
  grids.push(grid);
  return grid;
}

/**
 * log ∫ p^s (1 − p)^f prior(p) dp over [lo, hi], the prior Beta(α, β) truncated there and
 * normalised (α = β = 1: uniform): the log probability of one given sequence of s successes
 * and f failures.
 */
export function logTruncatedBetaMarginal(successes: number, failures: number, lo: number, hi: number, alpha: number, beta: number): number {
  const grid = gridOf(lo, hi, alpha, beta);
  const remembered = Number.isInteger(successes) && Number.isInteger(failures) && successes < COUNT_KEY && failures < COUNT_KEY;
  const key = remembered ? successes * COUNT_KEY + failures : undefined;
  const known = key === undefined ? undefined : grid.marginals.get(key);
  if (known !== undefined) return known;
  const { logP, log1mP, density, terms } = grid;
  for (let g = 0; g < GRID; g++) terms[g] = density[g]! + successes * logP[g]! + failures * log1mP[g]!;
  const value = logSumExp(terms) - grid.priorNorm;
  if (key !== undefined) {
    if (grid.marginals.size >= KEPT_MARGINALS) grid.marginals.clear();
    grid.marginals.set(key, value);
  }
  return value;
}

/** log Σ exp(values), summed in order (as a reduce from nought would); NaN if any value is. */
export function logSumExp(values: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v > max) max = v;
    else if (Number.isNaN(v)) return NaN;
  }
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum = sum + Math.exp(values[i]! - max);
  return max + Math.log(sum);
}
