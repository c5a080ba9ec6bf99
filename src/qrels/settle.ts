import { seededRandom } from './statistics.js';

/**
 * How many labels would settle a comparison of two runs that rests on labels in doubt
 * (pure; the report's "Did the holes matter?", docs/evaluation.md, "Which comparisons the holes changed").
 *
 * The difference Δ = mean(a) − mean(b) under the adjudicated qrels moves when labels in
 * doubt turn out otherwise. Label j turns with probability q_j (its p_relevant when
 * given not relevant, 1 − p_relevant when given relevant) and then moves Δ by δ_j (the
 * runs' value changes on its query with that label alone turned, over the queries). To
 * first order the moves add up, so under the labels' doubt Δ has mean
 * Δ + Σ q_j·δ_j and variance Σ q_j(1 − q_j)·δ_j².
 *
 * Re-judging labels removes their share of that variance. The labels are ranked by it,
 * q_j(1 − q_j)·δ_j²: uncertain labels (q near ½) with a large effect (documents in the
 * top ranks of one run and not of the other) first. Re-judging the first k, Δ becomes
 * known up to the rest; the doubt left is P(the rest turns the sign) = Φ(−|μ|/σ), μ and σ
 * the mean and spread of Δ given the k answers. Its expectation over the answers (drawn
 * with probabilities q_j, seeded) is the doubt the comparison is expected to keep; the
 * count to settle is the least k whose expected doubt is below {@link SETTLED_BELOW}.
 *
 * Assumptions: a re-judged label is taken as final (each re-judgment at the batch's own
 * accuracy would need more, so the count is a floor); labels turn independently; the
 * moves add up (labels of one query interact through the ideal ranking of nDCG and AP,
 * second order when few labels of a query turn together).
 */

/** A comparison is settled when the labels' doubt turns its sign with probability below this. */
export const SETTLED_BELOW = 0.05;

/** Answer draws of the labels re-judged, per k. */
export const SETTLE_OUTCOMES = 1000;

export interface SettleLabel {
  /** P(relevant) of the label (p_relevant). */
  p: number;
  /** Whether the adjudicated qrels give it as relevant (grade ≥ 1). */
  relevant: boolean;
  /** The move of Δ when this label alone turns. */
  effect: number;
}

export interface SettleInput {
  difference: number;
  labels: readonly SettleLabel[];
  seed: number;
  /** Re-judge at least one label (the comparison was found to depend on the labels). */
  atLeastOne?: boolean;
}

export interface SettleResult {
  /** Labels to re-judge, by their index in the input, most influential first. */
  labels: number[];
  /** The doubt expected to remain after re-judging them (below {@link SETTLED_BELOW}). */
  remainingDoubt: number;
  /** The doubt of the first-order model before re-judging any (to set beside the draws' pFlip). */
  doubtNow: number;
}

/** Standard normal CDF (Abramowitz & Stegun 26.2.17: absolute error below 7.5e-8). */
export function normalCdf(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const tail =
    (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) *
    t *
    (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x >= 0 ? 1 - tail : tail;
}

/** The probability of the sign opposite to μ's under N(μ, σ²); 0 without spread. */
const doubt = (mu: number, variance: number) => (variance <= 0 ? 0 : normalCdf(-Math.abs(mu) / Math.sqrt(variance)));

/** The labels to re-judge so that the comparison's expected remaining doubt falls below {@link SETTLED_BELOW}. */
export function labelsToSettle(input: SettleInput): SettleResult {
  for (const [i, l] of input.labels.entries()) {
    if (!(l.p >= 0 && l.p <= 1) || !Number.isFinite(l.effect))
      throw new Error(`labelsToSettle: label ${i} has p ${l.p} and effect ${l.effect}; expected p in [0, 1] and a finite effect`);
  }
  const turn = input.labels.map((l) => (l.relevant ? 1 - l.p : l.p));
  const share = input.labels.map((l, j) => turn[j]! * (1 - turn[j]!) * l.effect * l.effect);
  const ranked = input.labels
    .map((_, j) => j)
    .filter((j) => share[j]! > 0)
    .sort((a, b) => share[b]! - share[a]! || a - b);
  // mean and variance of Δ from the labels not yet re-judged
  let mean = input.difference + ranked.reduce((s, j) => s + turn[j]! * input.labels[j]!.effect, 0);
  let variance = ranked.reduce((s, j) => s + share[j]!, 0);
  const doubtNow = doubt(mean, variance);
  if (doubtNow < SETTLED_BELOW && !input.atLeastOne) return { labels: [], remainingDoubt: doubtNow, doubtNow };
  const random = seededRandom(input.seed);
  // per answer draw, what the labels re-judged so far moved Δ from the mean of their turns
  const known = new Float64Array(SETTLE_OUTCOMES);
  for (let k = 0; k < ranked.length; k++) {
    const j = ranked[k]!;
    const effect = input.labels[j]!.effect;
    mean -= turn[j]! * effect;
    variance = Math.max(0, variance - share[j]!);
    let remaining = 0;
    for (let s = 0; s < SETTLE_OUTCOMES; s++) {
      if (random.next() < turn[j]!) known[s]! += effect;
      remaining += doubt(mean + known[s]!, variance);
    }
    remaining /= SETTLE_OUTCOMES;
    if (remaining < SETTLED_BELOW) return { labels: ranked.slice(0, k + 1), remainingDoubt: remaining, doubtNow };
  }
  return { labels: ranked, remainingDoubt: 0, doubtNow };
}
