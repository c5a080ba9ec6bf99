import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { realItemsOf } from './hit-views.js';
import type { WorkerEvidence, WorkerVerdict } from './worker-verdict.js';

/**
 * The fitted worker model the worker-level decisions compare each worker with (pure).
 *
 * A worker's agreement is measured against a reference answer per item. A raw majority of
 * whoever answered first counts a fast bad worker not yet stopped like a careful one, and two
 * workers who copy each other like two independent people. Here the reference is the
 * leave-one-out posterior of a one-coin model (Dawid–Skene with one accuracy per worker):
 * - **leave-one-out**: the worker's own vote never counts toward the reference they are judged
 *   against, nor does the vote of a worker found to copy them (`copyingPairs`), and two workers
 *   who copy each other count as one vote in everyone else's reference;
 * - **weighted**: each other vote weighs log(a / (1 − a)), a being that worker's estimated
 *   accuracy (`reliabilities`: their agreement and checks under the batch's fitted prior, mixed
 *   with a coin by their probability of not doing the task), so a worker more likely clicking
 *   than reading counts for next to nothing and one careful worker outweighs two doubtful ones;
 * - the reference is the side the posterior favours, when it does so with 75% or more.
 */

/** Each real item's answers, one per worker (the first), without the `excluded` workers and the assignments a person excluded. */
export function itemAnswers(
  scored: readonly ScoredAssignment[],
  excluded: ReadonlySet<string> = new Set(),
): Map<string, Map<string, Judgment>> {
  const byItem = new Map<string, Map<string, Judgment>>();
  for (const { assignment, hit } of scored) {
    if (excluded.has(assignment.worker) || assignment.overridden === 'excluded') continue;
    const real = realItemsOf(hit);
    for (const a of assignment.answers) {
      if (!real.has(a.item)) continue;
      let byWorker = byItem.get(a.item);
      if (!byWorker) byItem.set(a.item, (byWorker = new Map()));
      if (!byWorker.has(assignment.worker)) byWorker.set(assignment.worker, a.label);
    }
  }
  return byItem;
}

/** A worker's accuracy is held within these bounds for weighting: no vote weighs nothing or infinitely much. */
const ACCURACY_RANGE: readonly [number, number] = [0.5, 0.97];
/** The accuracy of a worker the model has no estimate for (a careful reader's typical rate against noisy references). */
const UNKNOWN_ACCURACY = 0.8;
/**
 * A reference is used only when the posterior says it is right at least this often (3 in 4):
 * two careful workers who disagree, or one doubtful worker alone, give none. With the unknown
 * accuracy for everyone this is the others' majority, ties left out.
 */
const REFERENCE_CONFIDENCE = 0.75;

/** The log odds below which a reference is none (REFERENCE_CONFIDENCE, less a rounding margin). */
const REFERENCE_THRESHOLD = Math.log(REFERENCE_CONFIDENCE / (1 - REFERENCE_CONFIDENCE)) - 1e-9;

const logit = (a: number) => {
  const p = Math.min(ACCURACY_RANGE[1], Math.max(ACCURACY_RANGE[0], a));
  return Math.log(p / (1 - p));
};

/**
 * The leave-one-out reference on a real item for a worker: the side the other workers' votes,
 * each weighing logit(accuracy), favour (equal weights without `accuracy`: the others' majority);
 * null when that side's posterior is below `REFERENCE_CONFIDENCE` or nobody else answered.
 * Workers in `apart` of the judged worker (their copy partners) are left out of that worker's
 * reference, and a worker and their partners count as one vote in everyone else's.
 */
export function weightedReferences(
  answers: ReadonlyMap<string, ReadonlyMap<string, Judgment>>,
  accuracy: ReadonlyMap<string, number> = new Map(),
  apart: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): (item: string, worker: string) => Judgment | null {
  // each voter's weight, computed once (a round asks for every answer's reference, in several passes)
  const weights = new Map<string, number>();
  const weightOf = (w: string) => {
    let weight = weights.get(w);
    if (weight === undefined) weights.set(w, (weight = logit(accuracy.get(w) ?? UNKNOWN_ACCURACY)));
    return weight;
  };
  return (item, worker) => {
    const partners = apart.get(worker);
    let logOdds = 0;
    // a copying pair is one source: the first of them to be met on the item speaks for both
    let spoken: Set<string> | undefined;
    for (const [w, label] of answers.get(item) ?? []) {
      if (w === worker || partners?.has(w) || spoken?.has(w)) continue;
      const others = apart.get(w);
      if (others) for (const other of others) (spoken ??= new Set()).add(other);
      const weight = weightOf(w);
      logOdds += label === 'yes' ? weight : -weight;
    }
    return Math.abs(logOdds) < REFERENCE_THRESHOLD ? null : logOdds > 0 ? 'yes' : 'no';
  };
}

/**
 * Each worker's estimated accuracy from their evidence and verdict: if they read the items,
 * their rate of right answers (checks against the known answer, real items against the
 * reference) under the Beta prior of the batch's careful workers (mean `mean`, weight
 * `concentration` answers); if they do not, a coin. The two mixed by P(not doing the task).
 */
export function reliabilities(
  evidence: ReadonlyMap<string, WorkerEvidence>,
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  prior: { readonly mean: number; readonly concentration: number },
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [worker, e] of evidence) {
    const right = e.checks.filter((c) => c.answer === c.expected).length + e.compared.filter((c) => c.answer === c.reference).length;
    const answered = e.checks.length + e.compared.length;
    const reading = (right + prior.mean * prior.concentration) / (answered + prior.concentration);
    const p = verdicts.get(worker)?.probabilityNotWorking ?? 0;
    out.set(worker, (1 - p) * reading + p * 0.5);
  }
  return out;
}

/**
 * Two workers who copy each other (or follow one source) add two agreeing votes from one
 * source. Under independence two workers of accuracies a and b agree on an item with
 * probability e = ab + (1 − a)(1 − b); copying, at some rate anywhere from e to 1. With a prior
 * probability `prior` that a given pair copies, Bayes gives P(copying | the agreements on the
 * items both answered); a pair is named at `confidence`.
 */
export interface CopyingPolicy {
  readonly prior: number;
  readonly confidence: number;
  /** Items both must have answered before the pair is judged. */
  readonly minShared: number;
}

/** 1% of pairs, named at 99%, from 8 shared items (one HIT of the default presets). */
const DEFAULT_COPYING_POLICY: CopyingPolicy = { prior: 0.01, confidence: 0.99, minShared: 8 };

export interface CopyingPair {
  readonly workers: readonly [string, string];
  readonly shared: number;
  readonly agreed: number;
  /** Agreement expected of two independent workers of their accuracies. */
  readonly expected: number;
  readonly probability: number;
  readonly reason: string;
}

/** Each pair of workers' shared and agreeing items (pure), tallied once per answers map (a batch's verdicts judge the same answers in several passes). */
const talliesOf = new WeakMap<object, readonly PairTally[]>();

interface PairTally {
  readonly a: string;
  readonly b: string;
  shared: number;
  agreed: number;
}

function pairTallies(answers: ReadonlyMap<string, ReadonlyMap<string, Judgment>>): readonly PairTally[] {
  const kept = talliesOf.get(answers);
  if (kept) return kept;
  // by the pair's first id, then its second (no key built per pair), listed in the order the pairs are first met
  const byFirst = new Map<string, Map<string, PairTally>>();
  const tallies: PairTally[] = [];
  for (const byWorker of answers.values()) {
    const voters = [...byWorker].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (let i = 0; i < voters.length; i++) {
      const [a, la] = voters[i]!;
      let withA = byFirst.get(a);
      if (!withA) byFirst.set(a, (withA = new Map()));
      for (let j = i + 1; j < voters.length; j++) {
        const [b, lb] = voters[j]!;
        let t = withA.get(b);
        if (!t) {
          withA.set(b, (t = { a, b, shared: 0, agreed: 0 }));
          tallies.push(t);
        }
        t.shared++;
        if (la === lb) t.agreed++;
      }
    }
  }
  talliesOf.set(answers, tallies);
  return tallies;
}

/** log of ∫ r^k (1 − r)^(n − k) dr / (1 − e) over [e, 1] (midpoint rule). */
function logUniformAbove(k: number, n: number, e: number): number {
  const grid = 200;
  const terms: number[] = [];
  for (let g = 0; g < grid; g++) {
    const r = e + ((g + 0.5) * (1 - e)) / grid;
    terms.push(k * Math.log(r) + (n - k) * Math.log1p(-Math.min(r, 1 - 1e-12)));
  }
  const max = Math.max(...terms);
  return max + Math.log(terms.reduce((s, t) => s + Math.exp(t - max), 0) / grid);
}

export function copyingPairs(
  answers: ReadonlyMap<string, ReadonlyMap<string, Judgment>>,
  accuracy: ReadonlyMap<string, number>,
  policy: CopyingPolicy = DEFAULT_COPYING_POLICY,
): CopyingPair[] {
  const pairs: CopyingPair[] = [];
  for (const { a, b, shared, agreed } of pairTallies(answers)) {
    if (shared < policy.minShared) continue;
    const pa = Math.min(ACCURACY_RANGE[1], Math.max(ACCURACY_RANGE[0], accuracy.get(a) ?? ACCURACY_RANGE[1]));
    const pb = Math.min(ACCURACY_RANGE[1], Math.max(ACCURACY_RANGE[0], accuracy.get(b) ?? ACCURACY_RANGE[1]));
    const expected = pa * pb + (1 - pa) * (1 - pb);
    const independent = agreed * Math.log(expected) + (shared - agreed) * Math.log1p(-expected);
    const logOdds = Math.log(policy.prior / (1 - policy.prior)) + logUniformAbove(agreed, shared, expected) - independent;
    const probability = 1 / (1 + Math.exp(-logOdds));
    if (probability < policy.confidence) continue;
    pairs.push({
      workers: [a, b],
      shared,
      agreed,
      expected,
      probability,
      reason:
        `${a} and ${b} agree on ${agreed} of ${shared} items both answered, where workers of their accuracies ` +
        `agree on ${(100 * expected).toFixed(0)}%: P(one source) ${(100 * probability).toFixed(1)}% (≥ ${(100 * policy.confidence).toFixed(0)}%)`,
    });
  }
  return pairs;
}

/** Each worker's copy partners, from `copyingPairs`. */
export function partnersOf(pairs: readonly CopyingPair[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const { workers } of pairs)
    for (const [w, other] of [workers, [workers[1], workers[0]]] as const) {
      const set = out.get(w) ?? new Set<string>();
      set.add(other);
      out.set(w, set);
    }
  return out;
}
