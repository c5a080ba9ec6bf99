import type { ScoredAssignment } from './counted-votes.js';
import { median } from './worker-stats.js';
import type { BetaPrior, SpeedModel } from './worker-verdict.js';

/**
 * A worker whose quality drops mid-batch (pure): a Bayesian change-point posterior over the
 * worker's assignments in the order they were submitted.
 *
 * The verdict weighs a worker's whole record, so a careful start hides a careless end for a
 * long time. Here each boundary between two assignments is a candidate change: before it the
 * worker answers right (a check against its known answer, a real item against the reference
 * answers) at one unknown rate drawn from the batch's careful workers (the fitted agreement
 * prior), after it at one unknown rate anywhere from 0 to the cut between a coin and the
 * careful workers (a worker who no longer reads: random, always yes, always no). Where the
 * pages measured times, each assignment's time per item relative to the batch's typical one is
 * one more observation: for someone who reads, around their own pace (which is itself spread
 * around the typical time as the verdict's speed model says), for someone who does not,
 * anywhere in the verdict's range. The prior says a worker turns careless after any given
 * assignment with probability `hazard`; Bayes gives P(changed | answers, times), and the worker
 * is stopped when it reaches `confidence`. The work from
 * the posterior median change point on is discarded and collected again; the work before it
 * keeps counting. Unlike a fixed-threshold test, one assignment of random answers submitted at
 * a careful reader's pace is weighed against the worker's own record: a careful worker's one bad
 * HIT among good ones does not reach the confidence, a worker who both answers at random and
 * stops reading usually does within one or two assignments.
 */
export interface DriftPolicy {
  /** Rate of right answers of a worker who reads the items (the batch's fitted agreement prior). */
  readonly before: BetaPrior;
  /** A careless worker's rate of right answers is uniform on [0, after]. */
  readonly after: number;
  /** Prior probability that a careful worker turns careless after any one assignment. */
  readonly hazard: number;
  /** Stop when P(changed | answers) reaches this. */
  readonly confidence: number;
  /**
   * Time per item relative to the batch's typical one: the verdict's model (each reader's own
   * pace spread by `sigma` around the typical time; someone who does not read anywhere in
   * [min, max], uniformly on the log scale).
   */
  readonly speed: SpeedModel;
  /** Spread of one worker's assignments around their own pace (log scale). */
  readonly withinSigma: number;
  /** Spread of a careless worker's new pace around the typical time (log scale): anything from far faster to slower. */
  readonly carelessSigma: number;
}

/**
 * The policy for a batch whose careful workers agree with the references as `before` says (the
 * fitted prior of quality/worker-mixture.ts: mean μ, cut halfway between a coin and μ). A careful
 * worker turns careless after a given assignment with probability 5% (one worker in four over a
 * batch of six assignments each: more than the crowds measured, so the prior does not hold the
 * test back); stopped at 99%, the verdict's own confidence: a careless worker is stopped an
 * assignment later rather than a careful one wrongly. One careful worker's HITs spread by 0.35
 * on the log scale around their own pace (±40%: the median of ten items' times varies far less
 * between one person's HITs, hard items and fatigue take the rest).
 */
export function driftPolicy(before: BetaPrior, speed: SpeedModel): DriftPolicy {
  return { before, after: before.min, hazard: 0.05, confidence: 0.95, speed, withinSigma: 0.35, carelessSigma: 1 };
}

/** One assignment's answers, right or wrong, in the order the worker submitted their assignments. */
export interface DriftSegment {
  readonly assignmentId: string;
  readonly outcomes: readonly boolean[];
  /** The assignment's median time per item divided by the batch's typical one; absent: not measured. */
  readonly speed?: number | undefined;
}

export interface Drift {
  readonly drifted: boolean;
  /** The assignments from the change on (the posterior median change point); empty without drift. */
  readonly after: readonly string[];
  /** P(the worker turned careless after one of their assignments | the evidence). */
  readonly probabilityChanged: number;
  readonly reason: string;
}

/** Points of the numerical integration over a rate's range (midpoint rule). */
const GRID = 200;

/** log ∫ p^s (1 − p)^f prior(p) dp over [lo, hi], the prior Beta(α, β) truncated there (α = β = 1: uniform). */
function logMarginal(successes: number, failures: number, lo: number, hi: number, alpha: number, beta: number): number {
  const withData: number[] = [];
  const prior: number[] = [];
  for (let g = 0; g < GRID; g++) {
    const p = lo + ((g + 0.5) * (hi - lo)) / GRID;
    const density = (alpha - 1) * Math.log(p) + (beta - 1) * Math.log1p(-p);
    prior.push(density);
    withData.push(density + successes * Math.log(p) + failures * Math.log1p(-p));
  }
  return logSumExp(withData) - logSumExp(prior);
}

function logSumExp(values: readonly number[]): number {
  const max = Math.max(...values);
  if (max === -Infinity) return -Infinity;
  return max + Math.log(values.reduce((s, v) => s + Math.exp(v - max), 0));
}

/**
 * log density of the log speeds of a stretch of a worker's assignments: the worker's pace on
 * that stretch m is normal around the batch's typical time (sd `between`), each assignment's log
 * speed normal around m (sd `within`); m integrated out. A careful stretch and a careless one
 * each have their own pace: a worker who stops reading usually clicks faster from then on, and
 * one who keeps their pace pays only the one extra pace's Occam factor.
 */
function logPacedSpeeds(xs: readonly number[], between: number, within: number): number {
  const n = xs.length;
  if (n === 0) return 0;
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  const squares = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  const pooled = within * within + n * between * between;
  return (
    -(n / 2) * Math.log(2 * Math.PI) -
    (n - 1) * Math.log(within) -
    0.5 * Math.log(pooled) -
    squares / (2 * within * within) -
    (n * mean * mean) / (2 * pooled)
  );
}

const pct = (x: number) => (x >= 0.99995 ? '> 99.99%' : `${(100 * x).toFixed(x > 0.999 ? 2 : 1)}%`);

export function detectDrift(segments: readonly DriftSegment[], policy: DriftPolicy): Drift {
  const n = segments.length;
  const none = (p: number): Drift => ({
    drifted: false,
    after: [],
    probabilityChanged: p,
    reason: `no drift: P(turned careless) ${pct(p)} (< ${pct(policy.confidence)}) over ${n} assignments`,
  });
  if (n < 2) return none(0);
  // per assignment: right and wrong answers, and the log speed
  const right = segments.map((s) => s.outcomes.filter(Boolean).length);
  const wrong = segments.map((s, j) => s.outcomes.length - right[j]!);
  const { before, after, hazard, speed } = policy;
  const logSpeeds = segments.map((x) => (x.speed === undefined ? null : Math.log(Math.min(speed.max, Math.max(speed.min, x.speed)))));
  const careful = (s: number, f: number) => logMarginal(s, f, before.min, 1, before.alpha, before.beta);
  const careless = (s: number, f: number) => logMarginal(s, f, 0, after, 1, 1);
  const totalRight = right.reduce((a, b) => a + b, 0);
  const totalWrong = wrong.reduce((a, b) => a + b, 0);

  // hypothesis k (1 ≤ k < n): careful for assignments 0..k−1, careless from k on; k = n: no change
  const logPosterior: number[] = [];
  let s = 0;
  let f = 0;
  for (let k = 1; k <= n; k++) {
    s += right[k - 1]!;
    f += wrong[k - 1]!;
    const timed = (from: number, to: number) => logSpeeds.slice(from, to).filter((x): x is number => x !== null);
    const speeds =
      logPacedSpeeds(timed(0, k), speed.sigma, policy.withinSigma) + logPacedSpeeds(timed(k, n), policy.carelessSigma, policy.withinSigma);
    const prior = k < n ? Math.log(hazard) + (k - 1) * Math.log1p(-hazard) : (n - 1) * Math.log1p(-hazard);
    const answers = k < n ? careful(s, f) + careless(totalRight - s, totalWrong - f) : careful(s, f);
    logPosterior.push(prior + answers + speeds);
  }
  const norm = logSumExp(logPosterior);
  const posterior = logPosterior.map((x) => Math.exp(x - norm));
  const probabilityChanged = 1 - posterior[n - 1]!;
  if (probabilityChanged < policy.confidence) return none(probabilityChanged);
  // the posterior median change point: the first k by which half the change's probability lies
  let cumulative = 0;
  let first = 1;
  for (let k = 1; k < n; k++) {
    cumulative += posterior[k - 1]!;
    first = k;
    if (cumulative >= probabilityChanged / 2) break;
  }
  const since = segments.slice(first);
  const ok = since.reduce((a, x) => a + x.outcomes.filter(Boolean).length, 0);
  const answers = since.reduce((a, x) => a + x.outcomes.length, 0);
  const speeds = since.flatMap((x) => (x.speed === undefined ? [] : [x.speed]));
  return {
    drifted: true,
    after: since.map((x) => x.assignmentId),
    probabilityChanged,
    reason:
      `turned careless: P(changed) ${pct(probabilityChanged)} (≥ ${pct(policy.confidence)}), most likely after assignment ${first} of ${n}; ` +
      `since then ${ok} of ${answers} answers right (careful workers: about ${(before.alpha / (before.alpha + before.beta)).toFixed(2)})` +
      (speeds.length === 0 ? '' : `, ${(speeds.reduce((a, b) => a + b, 0) / speeds.length).toFixed(2)}× the typical time per item`),
  };
}

/**
 * Each assignment's median time per item divided by the batch's typical one (the median of the
 * workers' medians, as `workerEvidence` takes it), for `DriftSegment.speed`; assignments without
 * times, and batches with fewer than three timed workers, are left out.
 */
export function assignmentSpeeds(scored: readonly ScoredAssignment[]): Map<string, number> {
  const byWorker = new Map<string, number[]>();
  const byAssignment = new Map<string, number>();
  for (const { assignment } of scored) {
    const ms = assignment.answers.flatMap((a) => (a.timeMs === undefined ? [] : [a.timeMs]));
    if (ms.length === 0) continue;
    byAssignment.set(assignment.assignmentId, median(ms) as number);
    const mine = byWorker.get(assignment.worker);
    if (mine) mine.push(...ms);
    else byWorker.set(assignment.worker, ms);
  }
  if (byWorker.size < 3) return new Map();
  const typical = median([...byWorker.values()].map((ms) => median(ms) as number)) as number;
  return typical > 0 ? new Map([...byAssignment].map(([id, m]) => [id, m / typical])) : new Map();
}
