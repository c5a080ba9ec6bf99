import { quote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';

/**
 * The best decision the votes allow (pure): each item labelled by the likelihood of its votes
 * under each worker's true per-class accuracy (P(yes | relevant), P(no | not relevant)), as
 * a simulation knows it. It is the yardstick of issue 16's first target: qrelay's exported
 * labels should reach its balanced accuracy within a point.
 *
 * - Decision: "yes" when P(votes | relevant) · prior > P(votes | not relevant) · (1 − prior).
 *   With `prior: 0.5` (the default) this is the likelihood-ratio test, which maximizes the
 *   expected balanced accuracy (both classes weigh the same, whatever their shares); give
 *   the class share to maximize plain accuracy instead. A likelihood tie (only uninformative
 *   votes, or none) goes to "no", the qrels convention.
 * - Workers are independent given the truth (the simulation draws them so).
 * - A worker whose true accuracy is unknown (`null`: the simulation's LLM-assisted workers,
 *   whose answers follow an LLM's verdict per item) gets their **empirical** per-class
 *   accuracy against the truth on the items they answered, with one pseudo-answer right and
 *   one wrong per class (Laplace), so that the optimum uses the information their answers
 *   really carry: the yardstick is never weaker than what the votes allow.
 * - Accuracies are clamped to [1e-6, 1 − 1e-6] so that an always-yes worker (1 and 0) makes
 *   every "yes" vote carry no information instead of a log of 0.
 */

export interface BayesVote {
  readonly item: string;
  readonly worker: string;
  readonly answer: Judgment;
}

/** P(answer yes | truth yes) and P(answer no | truth no). */
export interface ClassAccuracy {
  readonly relevant: number;
  readonly notRelevant: number;
}

export interface BayesOptimalInput {
  readonly votes: readonly BayesVote[];
  /** Each voter's true per-class accuracy; null where unknown (see the module comment). */
  readonly accuracy: ReadonlyMap<string, ClassAccuracy | null>;
  readonly truth: ReadonlyMap<string, Judgment>;
  /** P(relevant) in the decision; default 0.5 (maximizes balanced accuracy). */
  readonly prior?: number;
}

export interface BayesOptimalResult {
  /** item -> the optimal label, for every item with a vote. */
  readonly labels: Map<string, Judgment>;
  /** The accuracies used (given, or empirical for unknown ones). */
  readonly accuracy: Map<string, ClassAccuracy>;
  /** Workers whose accuracy was estimated from the truth. */
  readonly estimated: readonly string[];
}

const EPS = 1e-6;
const clamp = (p: number) => Math.min(1 - EPS, Math.max(EPS, p));

export function bayesOptimalLabels(input: BayesOptimalInput): BayesOptimalResult {
  const prior = input.prior ?? 0.5;
  if (!(prior > 0 && prior < 1)) throw new UserError(`bayesOptimalLabels prior: ${quote(prior)} is not between 0 and 1`);
  const accuracy = new Map<string, ClassAccuracy>();
  const estimated: string[] = [];
  for (const [n, v] of input.votes.entries()) {
    if (!input.accuracy.has(v.worker)) {
      throw new UserError(`votes[${n}].worker: ${quote(v.worker)} has no entry in accuracy; give every voter's true accuracy (or null)`);
    }
  }
  for (const [worker, known] of input.accuracy) {
    for (const field of ['relevant', 'notRelevant'] as const) {
      const p = known?.[field];
      if (known && (typeof p !== 'number' || !(p >= 0 && p <= 1))) {
        throw new UserError(`accuracy[${quote(worker)}].${field}: ${quote(p)} is not a probability`);
      }
    }
    if (known) accuracy.set(worker, known);
  }
  // empirical per-class accuracy of the workers without a known one
  const tally = new Map<string, { yes: number; yesRight: number; no: number; noRight: number }>();
  for (const v of input.votes) {
    if (accuracy.has(v.worker)) continue;
    const truth = input.truth.get(v.item);
    if (truth === undefined) continue;
    const t = tally.get(v.worker) ?? { yes: 0, yesRight: 0, no: 0, noRight: 0 };
    if (truth === 'yes') {
      t.yes++;
      if (v.answer === 'yes') t.yesRight++;
    } else {
      t.no++;
      if (v.answer === 'no') t.noRight++;
    }
    tally.set(v.worker, t);
  }
  for (const [worker, known] of input.accuracy) {
    if (known) continue;
    const t = tally.get(worker) ?? { yes: 0, yesRight: 0, no: 0, noRight: 0 };
    accuracy.set(worker, { relevant: (t.yesRight + 1) / (t.yes + 2), notRelevant: (t.noRight + 1) / (t.no + 2) });
    estimated.push(worker);
  }

  const logOdds = new Map<string, number>();
  for (const v of input.votes) {
    const a = accuracy.get(v.worker)!;
    const relevant = clamp(a.relevant);
    const notRelevant = clamp(a.notRelevant);
    // log P(answer | yes) − log P(answer | no)
    const step = v.answer === 'yes' ? Math.log(relevant) - Math.log(1 - notRelevant) : Math.log(1 - relevant) - Math.log(notRelevant);
    logOdds.set(v.item, (logOdds.get(v.item) ?? Math.log(prior / (1 - prior))) + step);
  }
  const labels = new Map<string, Judgment>();
  // a difference below 1e-9 is a tie of equal likelihoods up to rounding
  for (const [item, odds] of logOdds) labels.set(item, odds > 1e-9 ? 'yes' : 'no');
  return { labels, accuracy, estimated: estimated.sort() };
}
