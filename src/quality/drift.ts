import { logSumExp, logTruncatedBetaMarginal } from './beta-grid.js';
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
  /**
   * Prior share of workers careless from their first assignment, at one steady pace, among
   * those careless throughout or careful throughout: a record weak from start to end is no
   * change (the verdict's to judge), so a weak careful reader whose first HIT went well and
   * slowly is not taken for one who turned.
   */
  readonly steady: number;
  /** Stop when P(changed | answers) reaches this. */
  readonly confidence: number;
  /**
   * Time per item relative to the batch's typical one: the verdict's model (each reader's own
   * pace spread by `sigma` around the typical time; someone who does not read anywhere in
   * [min, max], uniformly on the log scale).
   */
  readonly speed: SpeedModel;
  /** Spread of one worker's assignments around their own pace (log scale); measured on the batch by `withinSpread`. */
  readonly withinSigma: number;
  /**
   * Share of a careful worker's assignments timed anywhere in the speed model's range rather
   * than around their pace (a page whose timer went wrong, one HIT read first and answered
   * after): no one assignment's time outweighs answers that follow the items.
   */
  readonly offPace: number;
  /** Spread of a careless worker's new pace around the typical time (log scale): anything from far faster to slower. */
  readonly carelessSigma: number;
}

/**
 * The policy for a batch whose careful workers agree with the references as `before` says (the
 * fitted prior of quality/worker-mixture.ts: mean μ, cut halfway between a coin and μ). A careful
 * worker turns careless after a given assignment with probability 5% (one worker in four over a
 * batch of six assignments each: more than the crowds measured, so the prior does not hold the
 * test back); a record without a change is careless throughout one time in five (the verdict's
 * prior share of workers not doing the task); stopped at 95%. One careful worker's HITs spread by 0.35 on the log scale around
 * their own pace (±40%: the median of ten items' times varies far less between one person's
 * HITs, hard items and fatigue take the rest) until the batch measures it (`withinSpread`),
 * and one of their HITs in a hundred is timed off their pace.
 */
export function driftPolicy(before: BetaPrior, speed: SpeedModel): DriftPolicy {
  return {
    before,
    after: before.min,
    hazard: 0.05,
    steady: 0.2,
    confidence: 0.95,
    speed,
    withinSigma: 0.35,
    offPace: 0.01,
    carelessSigma: 1,
  };
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

/** Pace priors kept at once (the batch's refitted spread moves them from one round to the next; the oldest is forgotten first). */
const KEPT_PACE_PRIORS = 4;

/** Points of the integration over a stretch's pace (log scale, PACE_LO to PACE_HI: far beyond the clamped speeds). */
const PACE_GRID = 241;
const PACE_LO = -5;
const PACE_HI = 3;
const PACES = Array.from({ length: PACE_GRID }, (_, g) => PACE_LO + ((PACE_HI - PACE_LO) * g) / (PACE_GRID - 1));

/** The pace's prior on the grid (normal around nought, sd `between`) and its log normaliser, by `between`. */
const pacePriors = new Map<number, { prior: Float64Array; norm: number }>();

function pacePrior(between: number): { prior: Float64Array; norm: number } {
  const kept = pacePriors.get(between);
  if (kept) return kept;
  const prior = Float64Array.from(PACES, (m) => -(m * m) / (2 * between * between));
  const entry = { prior, norm: logSumExp(prior) };
  if (pacePriors.size >= KEPT_PACE_PRIORS) pacePriors.delete(pacePriors.keys().next().value!);
  pacePriors.set(between, entry);
  return entry;
}

/**
 * The log speeds of a worker's stretches of assignments under one model of the stretch: its
 * pace m is normal around the batch's typical time (sd `between`), each assignment's log speed
 * normal around m (sd `within`) or, with probability `offPace`, anywhere in the speed model's
 * range (uniform on the log scale). `stretch(from, to)` answers log p(speeds of assignments
 * from..to−1) with m integrated out on a grid; untimed assignments add nothing. A careful
 * stretch and a careless one each have their own pace: a worker who stops reading usually
 * clicks faster from then on, and one who keeps their pace pays only the one extra pace's
 * Occam factor.
 */
function pacedSpeeds(
  xs: readonly (number | null)[],
  between: number,
  within: number,
  offPace: number,
  range: number,
): (from: number, to: number) => number {
  const { prior, norm: priorNorm } = pacePrior(between);
  const uniform = offPace / range;
  const scale = (1 - offPace) / (within * Math.sqrt(2 * Math.PI));
  const logScale = Math.log(scale);
  const logUniform = Math.log(uniform);
  // cumulative[g * (n + 1) + j]: log p(speeds of assignments 0..j−1 | pace g)
  const width = xs.length + 1;
  const cumulative = new Float64Array(PACE_GRID * width);
  for (let g = 0; g < PACE_GRID; g++) {
    const m = PACES[g]!;
    let sum = 0;
    cumulative[g * width] = 0;
    for (let j = 0; j < xs.length; j++) {
      const x = xs[j]!;
      if (x !== null) {
        const z = (x - m) / within;
        const normal = logScale - 0.5 * z * z;
        // log(normal density + uniform), without underflow far from the pace (where the smaller
        // term's exponential is nought, log1p of it is too: the larger alone, to the last bit)
        const apart = Math.abs(normal - logUniform);
        sum += uniform > 0 ? Math.max(normal, logUniform) + (-apart >= UNDERFLOW ? Math.log1p(Math.exp(-apart)) : 0) : normal;
      }
      cumulative[g * width + j + 1] = sum;
    }
  }
  const terms = new Float64Array(PACE_GRID);
  return (from, to) => {
    for (let g = 0; g < PACE_GRID; g++) terms[g] = prior[g]! + cumulative[g * width + to]! - cumulative[g * width + from]!;
    return logSumExpNear(terms) - priorNorm;
  };
}

/**
 * Below this, a term's exponential relative to the largest is exactly nought in double
 * precision (e^−745.2 underflows to 0): adding it changes no sum.
 */
const UNDERFLOW = -746;

/**
 * `logSumExp(values)` (beta-grid.ts) to the last bit, without the exponentials of the terms
 * that underflow to nought beside the largest (pure): a stretch of many assignments puts most
 * of the pace grid thousands below its peak, and those exponentials were most of the drift
 * test's work. The same terms are added in the same order; the others add exactly nought.
 */
export function logSumExpNear(values: ArrayLike<number>): number {
  let max = -Infinity;
  let nan = false;
  for (let i = 0; i < values.length; i++) {
    nan ||= Number.isNaN(values[i]!);
    max = values[i]! > max ? values[i]! : max;
  }
  if (nan || max === -Infinity) return nan ? NaN : max;
  let sum = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! - max >= UNDERFLOW) sum += Math.exp(values[i]! - max);
  return max + Math.log(sum);
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
  const range = Math.log(speed.max / speed.min);
  const carefulSpeeds = pacedSpeeds(logSpeeds, speed.sigma, policy.withinSigma, policy.offPace, range);
  const carelessSpeeds = pacedSpeeds(logSpeeds, policy.carelessSigma, policy.withinSigma, 0, range);
  const careful = (s: number, f: number) => logTruncatedBetaMarginal(s, f, before.min, 1, before.alpha, before.beta);
  const careless = (s: number, f: number) => logTruncatedBetaMarginal(s, f, 0, after, 1, 1);
  const totalRight = right.reduce((a, b) => a + b, 0);
  const totalWrong = wrong.reduce((a, b) => a + b, 0);

  // hypothesis k (1 ≤ k < n): careful for assignments 0..k−1, careless from k on; k = n: no
  // change (careful throughout, or careless throughout at one pace)
  const logPosterior: number[] = [];
  // (once, not once per hypothesis: the same numbers)
  const logHazard = Math.log(hazard);
  const logStay = Math.log1p(-hazard);
  let s = 0;
  let f = 0;
  for (let k = 1; k <= n; k++) {
    s += right[k - 1]!;
    f += wrong[k - 1]!;
    if (k === n) {
      const throughout = logSumExp([
        careful(s, f) + carefulSpeeds(0, n),
        Math.log(policy.steady / (1 - policy.steady)) + careless(s, f) + carelessSpeeds(0, n),
      ]);
      logPosterior.push((n - 1) * logStay + throughout);
      break;
    }
    const prior = logHazard + (k - 1) * logStay;
    logPosterior.push(prior + careful(s, f) + careless(totalRight - s, totalWrong - f) + carefulSpeeds(0, k) + carelessSpeeds(k, n));
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

/** Fewest differences between one worker's consecutive timed assignments for `withinSpread` to measure the batch. */
export const MIN_SPREAD_PAIRS = 12;

/** `withinSpread` never says less: one person's HITs differ in their items, whatever the timer says. */
export const MIN_WITHIN_SIGMA = 0.1;

/**
 * How far one worker's assignments spread around their own pace on the log scale, measured
 * on the batch (for `DriftPolicy.withinSigma`): each worker's timed assignments in the order
 * they were submitted, and the differences between consecutive ones' log speeds, which
 * spread by √2 σ around nought (a worker's slow drift of pace, learning, cancels out). σ is
 * read from their median absolute value (|d| has median 0.6745 √2 σ for a normal d), so the
 * one jump of a worker who turned careless, or a few odd HITs, do not widen it. Fewer than
 * MIN_SPREAD_PAIRS differences, or fewer than three workers with one: `fallback` (the
 * policy's stated spread). Never under MIN_WITHIN_SIGMA. A batch whose people keep their own
 * pace closely lets a sudden change of pace count for more, and one whose people do not, for
 * less, instead of one spread assumed for every crowd.
 */
export function withinSpread(sequences: readonly (readonly DriftSegment[])[], fallback: number): number {
  const differences: number[] = [];
  let workers = 0;
  for (const segments of sequences) {
    const logs = segments.flatMap((x) => (x.speed !== undefined && x.speed > 0 ? [Math.log(x.speed)] : []));
    if (logs.length < 2) continue;
    workers++;
    for (let j = 1; j < logs.length; j++) differences.push(Math.abs(logs[j]! - logs[j - 1]!));
  }
  if (differences.length < MIN_SPREAD_PAIRS || workers < 3) return fallback;
  return Math.max(MIN_WITHIN_SIGMA, (median(differences) as number) / (0.6745 * Math.SQRT2));
}

/**
 * Each worker's segments for `detectDrift` and `withinSpread` (pure), from scored assignments in
 * the order they were submitted (batches/votes.ts scoreStored's order): a worker's own are that
 * order's, without sorting anyone's again. `leftOut`: workers not tested nor measured (stopped,
 * flagged); each assignment's outcomes and speed by its id (an assignment without outcomes has none).
 */
export function workerSequences(
  scored: readonly ScoredAssignment[],
  leftOut: ReadonlySet<string>,
  outcomes: (assignmentId: string) => readonly boolean[] | undefined,
  speeds: ReadonlyMap<string, number>,
): Map<string, DriftSegment[]> {
  const byWorker = new Map<string, DriftSegment[]>();
  for (const { assignment } of scored) {
    if (leftOut.has(assignment.worker)) continue;
    const id = assignment.assignmentId;
    const segment: DriftSegment = { assignmentId: id, outcomes: outcomes(id) ?? [], speed: speeds.get(id) };
    const mine = byWorker.get(assignment.worker);
    if (mine) mine.push(segment);
    else byWorker.set(assignment.worker, [segment]);
  }
  return byWorker;
}

/** An assignment record's times per item and their median, taken once per record (a round measures every assignment's). */
const recordTimes = new WeakMap<ScoredAssignment['assignment'], { ms: number[]; median: number | null }>();

function timesOf(assignment: ScoredAssignment['assignment']): { ms: readonly number[]; median: number | null } {
  let kept = recordTimes.get(assignment);
  if (!kept) {
    const ms = assignment.answers.flatMap((a) => (a.timeMs === undefined ? [] : [a.timeMs]));
    recordTimes.set(assignment, (kept = { ms, median: median(ms) }));
  }
  return kept;
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
    const { ms, median: own } = timesOf(assignment);
    if (own === null) continue;
    byAssignment.set(assignment.assignmentId, own);
    const mine = byWorker.get(assignment.worker);
    if (mine) mine.push(...ms);
    // a copy: the record's own times stay as they are
    else byWorker.set(assignment.worker, [...ms]);
  }
  if (byWorker.size < 3) return new Map();
  const typical = median([...byWorker.values()].map((ms) => median(ms) as number)) as number;
  return typical > 0 ? new Map([...byAssignment].map(([id, m]) => [id, m / typical])) : new Map();
}
