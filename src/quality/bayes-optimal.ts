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
 * - Sources are independent given the truth. A source is one worker, or the workers named
 *   with one key in `sources`: people who answer from one shared source (the simulation's
 *   LLM-assisted workers all give the one LLM's verdict, a copying pair gives the pair's one
 *   answer). On an item a source speaks once, with its members' majority (a tie says
 *   nothing) and the accuracy of its first member met; counting its members as independent
 *   people would give one answer the weight of several, which is no optimum.
 * - A worker whose true accuracy is unknown (`null`: the simulation's LLM-assisted workers,
 *   whose answers follow an LLM's verdict per item, and careful-then-careless ones) gets
 *   their source's **empirical** per-class accuracy against the truth on the *other* items it
 *   answered (cross-fitted: an item's own truth never weighs its own vote, else a source
 *   with few answers would be weighed by exactly the answers it got right), with one
 *   pseudo-answer right and one wrong per class (Laplace), so that the optimum uses the
 *   information their answers really carry without reading the truth it is scored on.
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
  /** Worker -> the key of the shared source they answer from; a worker not named is their own source. */
  readonly sources?: ReadonlyMap<string, string>;
}

export interface BayesOptimalResult {
  /** item -> the optimal label, for every item with a vote. */
  readonly labels: Map<string, Judgment>;
  /** The accuracies used: given, or for unknown ones empirical over all the source's answers (each item's decision leaves that item out). */
  readonly accuracy: Map<string, ClassAccuracy>;
  /** Workers whose accuracy was estimated from the truth. */
  readonly estimated: readonly string[];
}

const EPS = 1e-6;

/** A source's answers against the truth: on relevant items (`yes`) and not relevant ones (`no`), and how many were right. */
interface Tally {
  yes: number;
  yesRight: number;
  no: number;
  noRight: number;
}
const emptyTally = (): Tally => ({ yes: 0, yesRight: 0, no: 0, noRight: 0 });
/** Adds (`by` 1) or takes away (`by` −1) one answer; an item without a truth counts for nothing. */
function count(t: Tally, truth: Judgment | undefined, answer: Judgment, by: 1 | -1): void {
  if (truth === 'yes') {
    t.yes += by;
    if (answer === 'yes') t.yesRight += by;
  } else if (truth === 'no') {
    t.no += by;
    if (answer === 'no') t.noRight += by;
  }
}
/** Per-class accuracy with one pseudo-answer right and one wrong per class. */
const laplace = (t: Tally): ClassAccuracy => ({ relevant: (t.yesRight + 1) / (t.yes + 2), notRelevant: (t.noRight + 1) / (t.no + 2) });
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
  // each source's answer per item: its members' majority (a tie says nothing)
  const sourceOf = (worker: string) => (input.sources?.has(worker) ? `source\t${input.sources.get(worker)}` : `worker\t${worker}`);
  const spoken = new Map<string, { item: string; worker: string; yes: number; no: number }>();
  for (const v of input.votes) {
    const key = `${sourceOf(v.worker)}\n${v.item}`;
    const s = spoken.get(key) ?? { item: v.item, worker: v.worker, yes: 0, no: 0 };
    if (v.answer === 'yes') s.yes++;
    else s.no++;
    spoken.set(key, s);
  }
  const answers = [...spoken].flatMap(([key, s]) =>
    s.yes === s.no
      ? []
      : [{ source: key.slice(0, key.indexOf('\n')), item: s.item, worker: s.worker, answer: (s.yes > s.no ? 'yes' : 'no') as Judgment }],
  );
  // empirical per-class accuracy of the sources without a known one
  const tally = new Map<string, Tally>();
  const unknownWorkers = new Set([...input.accuracy].filter(([, known]) => !known).map(([w]) => w));
  const unknown = (worker: string) => unknownWorkers.has(worker);
  for (const a of answers) {
    if (!unknown(a.worker)) continue;
    const t = tally.get(a.source) ?? emptyTally();
    count(t, input.truth.get(a.item), a.answer, 1);
    tally.set(a.source, t);
  }
  for (const worker of unknownWorkers) {
    accuracy.set(worker, laplace(tally.get(sourceOf(worker)) ?? emptyTally()));
    estimated.push(worker);
  }

  const logOdds = new Map<string, number>();
  for (const a of answers) {
    let used = accuracy.get(a.worker)!;
    if (unknown(a.worker)) {
      // cross-fitted: the source's record without this item
      const t = { ...(tally.get(a.source) ?? emptyTally()) };
      count(t, input.truth.get(a.item), a.answer, -1);
      used = laplace(t);
    }
    const relevant = clamp(used.relevant);
    const notRelevant = clamp(used.notRelevant);
    // log P(answer | yes) − log P(answer | no)
    const step = a.answer === 'yes' ? Math.log(relevant) - Math.log(1 - notRelevant) : Math.log(1 - relevant) - Math.log(notRelevant);
    logOdds.set(a.item, (logOdds.get(a.item) ?? Math.log(prior / (1 - prior))) + step);
  }
  // an item whose every source tied still has its votes: no information, "no"
  for (const v of input.votes) if (!logOdds.has(v.item)) logOdds.set(v.item, Math.log(prior / (1 - prior)));
  const labels = new Map<string, Judgment>();
  // a difference below 1e-9 is a tie of equal likelihoods up to rounding
  for (const [item, odds] of logOdds) labels.set(item, odds > 1e-9 ? 'yes' : 'no');
  return { labels, accuracy, estimated: estimated.sort() };
}
