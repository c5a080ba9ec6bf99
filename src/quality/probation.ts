import { regularizedBeta } from '../qrels/student-t.js';

/**
 * A new worker is on probation, not on trial (pure). Checks look like real items, so a
 * careful person right on 80–95% of the items also misses 5–20% of the checks: one missed
 * check is not evidence of carelessness. The worker's check accuracy is a Beta posterior
 * (prior from the typical accuracy of people who read the items, updated by every check they
 * answered in the batch, both polarities), and an assignment is discarded for its failed
 * checks only when that posterior says, with the stated confidence, that the worker's
 * accuracy is below the threshold: halfway between a coin and the typical careful worker.
 */
export interface ProbationPolicy {
  /** Beta prior of a worker's check accuracy: the population's typical accuracy and how much it weighs (α + β checks). */
  readonly prior: { readonly alpha: number; readonly beta: number };
  /** Accuracy below which a worker's votes carry too little about the items to count. */
  readonly threshold: number;
  /** Discard when P(accuracy < threshold | checks) reaches this. */
  readonly confidence: number;
}

/**
 * Prior Beta(9, 1): mean 0.9, the weight of ten checks. Careful people miss about one check
 * in twenty in DREAM's human study; 0.9 leaves room for the less careful ones (0.80–0.97
 * across workers). Threshold 0.7, halfway between chance (0.5) and 0.9.
 */
export const DEFAULT_PROBATION_POLICY: ProbationPolicy = {
  prior: { alpha: 9, beta: 1 },
  threshold: 0.7,
  confidence: 0.95,
};

export interface CheckPosterior {
  readonly alpha: number;
  readonly beta: number;
  /** P(check accuracy < threshold | the checks). */
  readonly probabilityBelow: number;
  /** Whether that probability reaches the policy's confidence: the failed checks are evidence enough to discard. */
  readonly discard: boolean;
  /** One clause with the evidence, for the review's reason. */
  readonly reason: string;
}

export function checkPosterior(passed: number, failed: number, policy: ProbationPolicy = DEFAULT_PROBATION_POLICY): CheckPosterior {
  if (!(passed >= 0 && failed >= 0)) throw new RangeError(`check counts must be non-negative: ${passed} passed, ${failed} failed`);
  const alpha = policy.prior.alpha + passed;
  const beta = policy.prior.beta + failed;
  const probabilityBelow = regularizedBeta(policy.threshold, alpha, beta);
  const discard = probabilityBelow >= policy.confidence;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const reason =
    `P(check accuracy < ${policy.threshold}) ${pct(probabilityBelow)} (${discard ? '≥' : '<'} ${pct(policy.confidence)}) ` +
    `from ${passed} of ${passed + failed} checks passed in the batch (posterior Beta(${alpha}, ${beta}))`;
  return { alpha, beta, probabilityBelow, discard, reason };
}
