import { regularizedBeta } from '../qrels/student-t.js';

/**
 * A worker whose quality drops mid-batch (pure). The verdict weighs a worker's whole record,
 * so a careful start hides a careless end for a long time. A CUSUM on the worker's answers in
 * the order they were submitted (each one right or wrong: a check against its known answer, a
 * real item against the reference answers) tests "right with probability `before`" against
 * "right with probability `after`" and sounds when the log-likelihood ratio accumulated since
 * it last touched zero reaches `threshold`; the change is where that run began. The alarm is
 * confirmed on the answers since the change alone: the worker is stopped only when they say,
 * with the stated confidence, that the rate is below `below` (so a run of bad luck of a careful
 * worker, whose answers since the change still look careful, stops nobody). The work from the
 * change on is discarded and collected again; the work before it keeps counting.
 */
export interface DriftPolicy {
  /** Rate of right answers of a worker who reads the items. */
  readonly before: number;
  /** Rate of one who turned careless. */
  readonly after: number;
  /** CUSUM threshold (log-likelihood ratio, nats). */
  readonly threshold: number;
  /** Confirmation: P(rate since the change < below) must reach `confidence` (uniform prior). */
  readonly below: number;
  readonly confidence: number;
  /** Confirmation needs at least this many answers since the change (about two HITs): a short run of misses on hard items proves nothing. */
  readonly minAnswers: number;
}

/**
 * The policy for a batch whose careful workers agree with the references `mean` of the time (the
 * fitted μ of quality/worker-mixture.ts): before μ, after and the confirmation's bound halfway
 * between a coin and μ (the verdict's own cut); threshold 4 nats (odds of e⁴ ≈ 55 to 1 for the
 * change); confirmed with 99% on 16 answers or more (two HITs of the default presets). How often
 * careful people agree depends on the batch (hard items, noisy references): a fixed rate would
 * sound for every careful worker of a hard batch. The 99% and 16 answers keep careful workers of
 * a batch whose μ is 0.75 out of it: a careless worker is stopped later rather than a careful
 * one wrongly.
 */
export function driftPolicy(mean: number): DriftPolicy {
  const cut = (0.5 + mean) / 2;
  return { before: mean, after: cut, threshold: 4, below: cut, confidence: 0.99, minAnswers: 16 };
}

/** One assignment's answers, right or wrong, in the order the worker submitted their assignments. */
export interface DriftSegment {
  readonly assignmentId: string;
  readonly outcomes: readonly boolean[];
}

export interface Drift {
  readonly drifted: boolean;
  /** The assignments from the change on (the one the change falls in first); empty without drift. */
  readonly after: readonly string[];
  /** The CUSUM's largest value. */
  readonly statistic: number;
  /** P(rate since the change < below), when the CUSUM sounded. */
  readonly probabilityBelow: number | null;
  readonly reason: string;
}

export function detectDrift(segments: readonly DriftSegment[], policy: DriftPolicy): Drift {
  const right = Math.log(policy.after / policy.before);
  const wrong = Math.log((1 - policy.after) / (1 - policy.before));
  const flat = segments.flatMap((s, n) => s.outcomes.map((ok) => ({ ok, segment: n })));
  let sum = 0;
  let start = 0;
  let statistic = 0;
  for (let i = 0; i < flat.length; i++) {
    sum = Math.max(0, sum + (flat[i]!.ok ? right : wrong));
    if (sum === 0) start = i + 1;
    statistic = Math.max(statistic, sum);
    if (sum < policy.threshold) continue;
    // sounded: confirm on everything since the change, later answers included
    const since = flat.slice(start);
    if (since.length < policy.minAnswers) break;
    const ok = since.filter((x) => x.ok).length;
    const probabilityBelow = regularizedBeta(policy.below, 1 + ok, 1 + since.length - ok);
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const first = flat[start]!.segment;
    const evidence =
      `CUSUM ${sum.toFixed(1)} ≥ ${policy.threshold} (rate ${policy.before} → ${policy.after}) from answer ${start + 1} ` +
      `(assignment ${first + 1} of ${segments.length}); since then ${ok} of ${since.length} right, ` +
      `P(rate < ${policy.below}) ${pct(probabilityBelow)}`;
    if (probabilityBelow < policy.confidence) {
      // a run of bad luck the answers since do not confirm: the test starts again after it
      sum = 0;
      start = i + 1;
      continue;
    }
    return {
      drifted: true,
      after: segments.slice(first).map((s) => s.assignmentId),
      statistic,
      probabilityBelow,
      reason: `turned careless: ${evidence} (≥ ${pct(policy.confidence)})`,
    };
  }
  return { drifted: false, after: [], statistic, probabilityBelow: null, reason: `no drift: CUSUM at most ${statistic.toFixed(1)}` };
}
