import {
  DEFAULT_VERDICT_POLICY,
  posteriorNotWorking,
  type BetaPrior,
  type WorkerEvidence,
  type WorkerVerdictPolicy,
} from './worker-verdict.js';

/**
 * The working workers' agreement, estimated from the batch itself (pure; empirical Bayes).
 *
 * `workerVerdict` compares two models of a worker's answers. Its fixed prior for how often
 * someone who reads the items agrees with the other workers' majority, Beta(16, 4) on
 * [0.7, 1], has to cover every batch, easy or hard: so wide that a random clicker who agrees
 * on 55% of the items is still fairly well explained as a weak careful reader (at 0.7), and
 * a lucky one escapes. How often careful people agree depends on the batch (how hard its
 * items are, how noisy the others' majority is), and the batch shows it: most of its workers
 * work. So the agreement prior is fitted to the batch by EM over a two-component mixture of
 * workers (as Dawid–Skene fits its error rates from the votes, here one level up):
 * - E step: each worker's P(not working | evidence) under the current policy (`workerVerdict`'s
 *   own likelihoods: checks of both polarities, agreement, yes-share, time);
 * - M step: the working workers' agreement rate, their answers weighted by P(working): its
 *   mean μ (pooled) and its spread between workers (method of moments: the weighted variance
 *   of the workers' rates less the binomial noise of their counts) give Beta(μκ, (1 − μ)κ)
 *   on [(½ + μ)/2, 1]; and the share of non-working workers becomes the prior.
 * The fit is bounded (μ, κ and the share within stated ranges) so that a small or odd batch
 * cannot make the working model narrower than careful people are, and it falls back to the
 * fixed policy until the batch has `minWorkers` workers and `minCompared` answers compared
 * with others (the first rounds of a batch). The confidence to stop is unchanged: a worker
 * is stopped when P(not working) under the fitted model reaches it.
 */
export interface MixtureFitOptions {
  /** Workers with evidence needed before the batch speaks for itself. */
  readonly minWorkers: number;
  /** Answers compared with the others' majority, over all workers, needed likewise. */
  readonly minCompared: number;
  /** Range of the working workers' mean agreement. */
  readonly mean: readonly [number, number];
  /** Range of the Beta prior's concentration κ = α + β (small: workers differ a lot; large: alike). */
  readonly concentration: readonly [number, number];
  /** Range of the prior share of non-working workers. */
  readonly notWorkingShare: readonly [number, number];
  /** Chance agreement (a coin); the fitted prior starts halfway between it and the careful workers' mean. */
  readonly chance: number;
  /** Workers with fewer compared answers than this leave the spread out (their rates are mostly noise). */
  readonly minComparedForSpread: number;
  readonly iterations: number;
}

export const DEFAULT_MIXTURE_FIT: MixtureFitOptions = {
  minWorkers: 8,
  minCompared: 150,
  mean: [0.6, 0.97],
  concentration: [8, 60],
  notWorkingShare: [0.05, 0.5],
  chance: 0.5,
  minComparedForSpread: 9,
  iterations: 100,
};

export interface MixtureFit {
  /** The policy to decide with: the base one with the batch's agreement prior and share. */
  readonly policy: WorkerVerdictPolicy;
  /** False: too little evidence yet, `policy` is the base policy. */
  readonly fitted: boolean;
  readonly agreementMean: number;
  readonly concentration: number;
  readonly notWorkingShare: number;
  readonly workers: number;
  readonly compared: number;
}

/**
 * Beta(μκ, (1 − μ)κ), cut halfway between chance (`chance`, ½: a coin) and the careful workers'
 * mean μ: a worker whose agreement is closer to a coin's than to the batch's careful workers
 * is not one of them, whatever the Beta's tail would allow (and their votes would carry little
 * information about the items even if they read them). Below that, checks passed far above
 * chance do not save a worker: an LLM-assisted worker who follows a debating agent against
 * the other workers on 40% of the items is stopped here too, whatever the `llmAssisted` policy.
 */
function fittedPrior(mean: number, concentration: number, options: MixtureFitOptions): BetaPrior {
  return { alpha: mean * concentration, beta: (1 - mean) * concentration, min: (options.chance + mean) / 2 };
}

const clamp = (x: number, [lo, hi]: readonly [number, number]) => Math.min(hi, Math.max(lo, x));

export function fitVerdictPolicy(
  evidence: Iterable<WorkerEvidence>,
  base: WorkerVerdictPolicy = DEFAULT_VERDICT_POLICY,
  options: MixtureFitOptions = DEFAULT_MIXTURE_FIT,
): MixtureFit {
  const workers = [...evidence]
    .filter((e) => e.checks.length + e.compared.length > 0)
    .map((e) => ({ e, n: e.compared.length, k: e.compared.filter((c) => c.answer === c.reference).length }));
  const compared = workers.reduce((s, w) => s + w.n, 0);
  const baseMean = base.agreement.alpha / (base.agreement.alpha + base.agreement.beta);
  const unfitted: MixtureFit = {
    policy: base,
    fitted: false,
    agreementMean: baseMean,
    concentration: base.agreement.alpha + base.agreement.beta,
    notWorkingShare: base.priorNotWorking,
    workers: workers.length,
    compared,
  };
  if (workers.length < options.minWorkers || compared < options.minCompared) return unfitted;

  let policy = base;
  let mean = baseMean;
  let concentration = base.agreement.alpha + base.agreement.beta;
  let share = base.priorNotWorking;
  for (let iteration = 0; iteration < options.iterations; iteration++) {
    const notWorking = workers.map((w) => posteriorNotWorking(w.e, policy));
    const weights = notWorking.map((p) => 1 - p);
    const answers = workers.reduce((s, w, i) => s + weights[i]! * w.n, 0);
    const agreed = workers.reduce((s, w, i) => s + weights[i]! * w.k, 0);
    const nextMean = clamp(answers > 0 ? agreed / answers : baseMean, options.mean);
    // spread between workers: weighted variance of their rates less the binomial noise of their counts
    let weight = 0;
    let variance = 0;
    let noise = 0;
    workers.forEach((w, i) => {
      if (w.n < options.minComparedForSpread) return;
      const rate = w.k / w.n;
      weight += weights[i]!;
      variance += weights[i]! * (rate - nextMean) ** 2;
      noise += (weights[i]! * nextMean * (1 - nextMean)) / w.n;
    });
    const between = weight > 0 ? (variance - noise) / weight : 0;
    const nextConcentration = clamp(
      between > 0 ? (nextMean * (1 - nextMean)) / between - 1 : options.concentration[1],
      options.concentration,
    );
    const nextShare = clamp(notWorking.reduce((s, p) => s + p, 0) / workers.length, options.notWorkingShare);
    const moved = Math.abs(nextMean - mean) + Math.abs(nextConcentration - concentration) / 100 + Math.abs(nextShare - share);
    mean = nextMean;
    concentration = nextConcentration;
    share = nextShare;
    policy = { ...base, priorNotWorking: share, agreement: fittedPrior(mean, concentration, options) };
    if (moved < 1e-9) break;
  }
  return { policy, fitted: true, agreementMean: mean, concentration, notWorkingShare: share, workers: workers.length, compared };
}
