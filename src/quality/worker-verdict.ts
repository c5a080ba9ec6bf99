import type { Judgment } from '../domain/cases.js';
import { logSumExp, logTruncatedBetaMarginal } from './beta-grid.js';

/**
 * Whether a worker is doing the task at all, from the evidence a batch accumulates about
 * them: attention checks (known answers, both polarities) and agreement with the other
 * workers' majority on real items. Pure: evidence in, a decision with its probability out.
 *
 * Two models of how a worker's answers arise, compared by their marginal likelihoods:
 * - *working*: each check is answered correctly with probability c, each real item agrees
 *   with the others' majority with probability a; c and a unknown, with Beta priors centred
 *   where people who read the items are (checks are easy: Beta(18, 2), mean 0.9; the
 *   majority of two or more others is itself noisy: Beta(16, 4), mean 0.8);
 * - *not working*: every answer is "yes" with one rate θ, whatever the item says: their
 *   answers carry no information about the items. θ's prior (`notWorkingRates`) names the
 *   ways of not reading that crowdsourcing studies describe (random and uniform spammers:
 *   Vuurens, de Vries and Eickhoff 2011): a coin (θ = ½, clicking at random), one button
 *   (θ = 1 or θ = 0, the always-yes and always-no worker) and, for any other habit, any
 *   rate (uniform on [0, 1]). A prior that spreads θ uniformly alone asks a coin to pay for
 *   every rate it might have had, so a random clicker needed many more answers to be told
 *   from a weak careful reader than the evidence warrants.
 * With a prior share of non-working workers, Bayes gives P(not working | evidence); the
 * worker is stopped when it reaches `confidence` (0.99 by default). A careful worker who
 * misses a check or two keeps a low probability because their other answers follow the
 * items; a worker whose answers ignore the items cannot explain their pattern under the
 * working model for long.
 */
export interface WorkerEvidence {
  /** Attention checks answered (expected is the known answer). */
  readonly checks: readonly { readonly expected: Judgment; readonly answer: Judgment }[];
  /** Real items where the other workers' valid votes have a majority (ties left out): that majority and this worker's answer. */
  readonly compared: readonly { readonly reference: Judgment; readonly answer: Judgment }[];
  /**
   * The worker's median time per item divided by the batch's typical one (the median of the
   * workers' medians), when the HIT pages measured times; absent: no time evidence.
   */
  readonly speed?: number;
  /** Assignments the evidence comes from; absent: not known (no minimum applies). */
  readonly assignments?: number;
}

export interface WorkerVerdictPolicy {
  /** Share of workers who do not do the task, before any evidence (0.2: a fifth). */
  readonly priorNotWorking: number;
  /** Stop a worker when P(not working | evidence) reaches this. */
  readonly confidence: number;
  /** Beta prior of the check accuracy of someone who reads the items. */
  readonly checkAccuracy: BetaPrior;
  /** The not-working model's prior on θ, the rate of "yes" answers (the rest: uniform on [0, 1]). */
  readonly notWorkingRates: NotWorkingRates;
  /** Beta prior of the agreement with the others' majority of someone who reads the items. */
  readonly agreement: BetaPrior;
  /** How time per item relative to the batch's typical time arises under each model. */
  readonly speed: SpeedModel;
  /**
   * Never stop on fewer assignments than this (when the evidence says how many): one HIT's
   * answers are compared with the two or three people of that HIT only, and two who agree
   * with each other (two LLM-assisted workers following the same agent) can make a careful
   * worker look like a coin.
   */
  readonly minAssignments: number;
}

/**
 * Time per item, as one observation per worker (their median relative to the batch's typical
 * time, so that it does not pile up with the number of items). Someone who reads the items
 * takes about the typical time: log-normal around it with `sigma` (adults' silent reading
 * speeds spread by about ±25% around 240 words per minute, Brysbaert 2019; 0.5 leaves room
 * for slower and faster readers and for the debate being read or not). Someone who does not
 * read takes any time from `min` to `max` of the typical one, uniformly on the log scale: the
 * model says nothing about how fast they click. Outside [min, max] the ratio is clamped.
 * A careful worker's times are also, with probability `outliers`, anything in that range (a
 * worker who reads every item first and then answers, a page whose timing went wrong): so
 * time alone never outweighs answers that follow the items.
 */
export interface SpeedModel {
  readonly sigma: number;
  readonly outliers: number;
  readonly min: number;
  readonly max: number;
}

/**
 * Prior weights of θ = ½ (`coin`) and of θ ∈ {0, 1} (`oneButton`, half each) in the
 * not-working model; the weight left over spreads θ uniformly on [0, 1]. They sum to 1 at most.
 */
export interface NotWorkingRates {
  readonly coin: number;
  readonly oneButton: number;
}

/** A Beta(α, β) prior truncated to [min, 1]: a person reading the items does not do worse than `min`. */
export interface BetaPrior {
  readonly alpha: number;
  readonly beta: number;
  readonly min: number;
}

export const DEFAULT_VERDICT_POLICY: WorkerVerdictPolicy = {
  priorNotWorking: 0.2,
  confidence: 0.99,
  checkAccuracy: { alpha: 18, beta: 2, min: 0.75 },
  // the three ways of not reading, a third each: no study measured their shares
  notWorkingRates: { coin: 1 / 3, oneButton: 1 / 3 },
  agreement: { alpha: 16, beta: 4, min: 0.7 },
  speed: { sigma: 0.5, outliers: 0.1, min: 0.05, max: 2 },
  minAssignments: 2,
};

export interface WorkerVerdict {
  readonly stop: boolean;
  /** P(not working | evidence). */
  readonly probabilityNotWorking: number;
  /** One sentence with the evidence, for the audit log and the requester. */
  readonly reason: string;
  readonly evidence: {
    readonly checks: number;
    readonly checksPassed: number;
    readonly compared: number;
    readonly agreed: number;
    readonly yesShare: number | null;
    readonly speed: number | null;
  };
}

export function workerVerdict(evidence: WorkerEvidence, policy: WorkerVerdictPolicy = DEFAULT_VERDICT_POLICY): WorkerVerdict {
  const checksPassed = evidence.checks.filter((c) => c.answer === c.expected).length;
  const agreed = evidence.compared.filter((c) => c.answer === c.reference).length;
  const answers = [...evidence.checks, ...evidence.compared];
  const yes = answers.filter((a) => a.answer === 'yes').length;

  const probabilityNotWorking = posteriorNotWorking(evidence, policy);
  const enough = evidence.assignments === undefined || evidence.assignments >= policy.minAssignments;
  const stop = enough && probabilityNotWorking >= policy.confidence;
  const percent = (x: number) => (x >= 0.99995 ? '> 99.99%' : x > 0.999 ? `${(100 * x).toFixed(2)}%` : `${(100 * x).toFixed(1)}%`);
  const reason =
    `${stop ? 'stopped' : 'kept'}: P(not doing the task) ${percent(probabilityNotWorking)} ` +
    `(${stop ? '≥' : '<'} ${percent(policy.confidence)}) from ${checksPassed} of ${evidence.checks.length} checks passed, ` +
    `${agreed} of ${evidence.compared.length} answers agreeing with the other workers' majority, ` +
    `${yes} "yes" of ${answers.length}` +
    (evidence.speed === undefined ? '' : `, ${evidence.speed.toFixed(2)}× the typical time per item`) +
    (enough ? '' : ` (waits for ${policy.minAssignments} assignments)`);
  return {
    stop,
    probabilityNotWorking,
    reason,
    evidence: {
      checks: evidence.checks.length,
      checksPassed,
      compared: evidence.compared.length,
      agreed,
      yesShare: answers.length ? yes / answers.length : null,
      speed: evidence.speed ?? null,
    },
  };
}

/** log P(evidence | model) under each model: the marginal likelihoods `workerVerdict` compares. */
export function verdictLogLikelihoods(evidence: WorkerEvidence, policy: WorkerVerdictPolicy): { working: number; notWorking: number } {
  const checksPassed = evidence.checks.filter((c) => c.answer === c.expected).length;
  const agreed = evidence.compared.filter((c) => c.answer === c.reference).length;
  const yes = evidence.checks.filter((a) => a.answer === 'yes').length + evidence.compared.filter((a) => a.answer === 'yes').length;
  const no = evidence.checks.length + evidence.compared.length - yes;
  const working =
    logBetaBinomial(checksPassed, evidence.checks.length - checksPassed, policy.checkAccuracy) +
    logBetaBinomial(agreed, evidence.compared.length - agreed, policy.agreement) +
    (evidence.speed === undefined ? 0 : logSpeedWorking(evidence.speed, policy.speed));
  const notWorking =
    logNotWorkingAnswers(yes, no, policy.notWorkingRates) + (evidence.speed === undefined ? 0 : logSpeedNotWorking(policy.speed));
  return { working, notWorking };
}

/**
 * log P(`yes` and `no` answers, in a given order | not working): θ = ½ with weight `coin`,
 * θ = 1 and θ = 0 with `oneButton` / 2 each, θ uniform on [0, 1] with the rest.
 */
export function logNotWorkingAnswers(yes: number, no: number, rates: NotWorkingRates): number {
  const uniform = 1 - rates.coin - rates.oneButton;
  if (rates.coin < 0 || rates.oneButton < 0 || uniform < -1e-12)
    throw new Error(
      `notWorkingRates ${JSON.stringify(rates)}: the weights of a coin and of one button must be at least 0 and sum to 1 at most (quality/worker-verdict.ts)`,
    );
  const terms: number[] = [];
  if (rates.coin > 0) terms.push(Math.log(rates.coin) + (yes + no) * Math.log(0.5));
  if (rates.oneButton > 0 && no === 0) terms.push(Math.log(rates.oneButton / 2));
  if (rates.oneButton > 0 && yes === 0) terms.push(Math.log(rates.oneButton / 2));
  if (uniform > 1e-12) terms.push(Math.log(uniform) + logBeta(yes + 1, no + 1));
  return logSumExp(terms);
}

/** P(not working | evidence) under the policy's prior share of non-working workers. */
export function posteriorNotWorking(evidence: WorkerEvidence, policy: WorkerVerdictPolicy): number {
  const { working, notWorking } = verdictLogLikelihoods(evidence, policy);
  const logOdds = Math.log(policy.priorNotWorking / (1 - policy.priorNotWorking)) + notWorking - working;
  return 1 / (1 + Math.exp(-logOdds));
}

const clampSpeed = (ratio: number, model: SpeedModel) => Math.min(model.max, Math.max(model.min, ratio));

/** log density of log(ratio) for someone who reads the items: normal around 0, with a share of outliers. */
function logSpeedWorking(ratio: number, model: SpeedModel): number {
  const z = Math.log(clampSpeed(ratio, model)) / model.sigma;
  const normal = Math.exp(-0.5 * z * z) / (model.sigma * Math.sqrt(2 * Math.PI));
  return Math.log((1 - model.outliers) * normal + model.outliers * Math.exp(logSpeedNotWorking(model)));
}

/** log density of log(ratio) for someone who does not: uniform on [log min, log max]. */
function logSpeedNotWorking(model: SpeedModel): number {
  return -Math.log(Math.log(model.max / model.min));
}

/** log of the probability of a given sequence of s successes and f failures when p follows the truncated Beta prior. */
function logBetaBinomial(successes: number, failures: number, prior: BetaPrior): number {
  return logTruncatedBetaMarginal(successes, failures, prior.min, 1, prior.alpha, prior.beta);
}

/** log B(a, b) = log Γ(a) + log Γ(b) − log Γ(a + b). */
function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** log Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 correct digits). */
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let k = 1; k < 9; k++) sum += LANCZOS[k]! / (z + k);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}
