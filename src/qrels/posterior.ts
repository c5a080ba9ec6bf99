import type { LabelSource, QrelsEntry } from './merge.js';

/**
 * The probability that each pair of merged qrels is relevant, `p_relevant` of
 * `export-qrels --format jsonl --posterior` (pure). docs/evaluation.md, "Labels' doubt",
 * states the model and its assumptions.
 *
 * - Base judgments and manual decisions: 1 or 0 (grade >= 1 is relevant); they are the
 *   reference the crowd is measured against, not estimates.
 * - Crowd labels (`human-majority`, `human-dawid-skene`): the Dawid–Skene posterior of the
 *   item given the batch's workers (checks as gold), or, without one, a one-coin posterior
 *   from the votes. A posterior fitted on the votes alone is over-confident where the
 *   model is wrong (a document's prior of relevance differs from the batch's), so it is
 *   kept at least ε away from 0 and 1, ε the error of a majority of the item's votes at
 *   per-vote error measured on the batch's gold checks (a one-sided 95% upper bound) or on
 *   its items' agreement, whichever is larger, and at least the labels' error measured
 *   against a truth when the batch's simulated forecast has one: no label is surer than
 *   the evidence says a label of that many votes can be.
 * - Consensus and LLM-adjudicated labels: a stated confidence in the label
 *   ({@link CONSENSUS_CONFIDENCE}, {@link ADJUDICATOR_CONFIDENCE}).
 */

/**
 * Stated confidence in a debate-consensus label. The batch holds no gold on which the
 * consensus was run, so this is not measured: it is the agreement the DREAM protocol
 * reports between its consensus and assessors, rounded down.
 */
export const CONSENSUS_CONFIDENCE = 0.9;

/** Stated confidence in the LLM adjudicator's label on an item the crowd left unresolved (ties are hard items). */
export const ADJUDICATOR_CONFIDENCE = 0.8;

/** One-sided 95% normal quantile: the gold bound is an upper credible bound, not a central interval. */
const Z_UPPER = 1.6448536269514722;

/**
 * Upper 95% (Wilson score) bound of an error rate from `wrong` of `checks` gold answers;
 * ½ (nothing known) without checks.
 */
export function goldErrorBound(wrong: number, checks: number): number {
  if (!Number.isInteger(checks) || checks < 0 || !Number.isInteger(wrong) || wrong < 0 || wrong > checks)
    throw new Error(`goldErrorBound: ${wrong} wrong of ${checks} checks is not a count`);
  if (checks === 0) return 0.5;
  const p = wrong / checks;
  const z2 = Z_UPPER * Z_UPPER;
  const centre = p + z2 / (2 * checks);
  const spread = Z_UPPER * Math.sqrt((p * (1 - p)) / checks + z2 / (4 * checks * checks));
  return Math.min(0.5, (centre + spread) / (1 + z2 / checks));
}

/** P(the majority of `votes` independent votes, each wrong with probability e, is wrong); a tie counts ½. */
export function majorityError(e: number, votes: number): number {
  if (votes <= 0) return 0.5;
  let wrong = 0;
  let coefficient = 1;
  for (let k = 0; k <= votes; k++) {
    if (k > 0) coefficient = (coefficient * (votes - k + 1)) / k;
    const p = coefficient * e ** k * (1 - e) ** (votes - k);
    if (2 * k > votes) wrong += p;
    else if (2 * k === votes) wrong += p / 2;
  }
  return wrong;
}

/** P(relevant | votes) when every vote is right with probability 1 − e, prior ½. */
export function oneCoinPosterior(yes: number, no: number, e: number): number {
  if (e <= 0) return yes > no ? 1 : yes < no ? 0 : 0.5;
  if (e >= 0.5) return 0.5;
  const logOdds = (yes - no) * Math.log((1 - e) / e);
  return 1 / (1 + Math.exp(-logOdds));
}

/**
 * The per-vote error of a one-coin model fitted on the items' own votes: two votes of an
 * item agree with probability (1 − e)² + e², so e = (1 − √(2a − 1)) / 2 for the share a of
 * agreeing pairs. Items carry errors the easy checks do not (hard items, where most
 * workers go wrong together, show as disagreement); ½ when no item has two votes.
 */
export function agreementError(items: readonly { yes: number; no: number }[]): number {
  let agreeing = 0;
  let pairs = 0;
  for (const { yes, no } of items) {
    agreeing += yes * (yes - 1) + no * (no - 1);
    pairs += (yes + no) * (yes + no - 1);
  }
  if (pairs === 0) return 0.5;
  return (1 - Math.sqrt(Math.max(0, (2 * agreeing) / pairs - 1))) / 2;
}

export interface PosteriorModel {
  /** The aggregator's posterior P(relevant) of crowd items, by {@link pairKey}; items missing use the one-coin posterior. */
  crowd: ReadonlyMap<string, number>;
  /** Per-vote error: the larger of the gold checks' upper bound ({@link goldErrorBound}) and the items' agreement ({@link agreementError}). */
  voteError: number;
  /**
   * The error of the batch's labels measured against a truth (`qrelay simulate --truth`'s
   * forecast: 1 − its accuracy); a floor of its own, since errors shared by the workers
   * (hard items) escape every vote-based bound.
   */
  labelError?: number;
}

/** The key of a (query, document) pair in {@link PosteriorModel.crowd}. */
export const pairKey = (queryId: string, docId: string): string => JSON.stringify([queryId, docId]);

const clamp = (p: number, floor: number) => Math.min(1 - floor, Math.max(floor, p));

const STATED: Partial<Record<LabelSource, number>> = {
  'dream-consensus': CONSENSUS_CONFIDENCE,
  'llm-adjudicator': ADJUDICATOR_CONFIDENCE,
};

/** P(relevant) of one merged pair. */
export function posteriorOf(entry: Pick<QrelsEntry, 'query_id' | 'doc_id' | 'rel' | 'source' | 'votes'>, model: PosteriorModel): number {
  const relevant = entry.rel >= 1;
  const stated = STATED[entry.source];
  if (stated !== undefined) return relevant ? stated : 1 - stated;
  if (entry.source !== 'human-majority' && entry.source !== 'human-dawid-skene') return relevant ? 1 : 0;
  const votes = entry.votes ?? { yes: 0, no: 0 };
  const p = model.crowd.get(pairKey(entry.query_id, entry.doc_id)) ?? oneCoinPosterior(votes.yes, votes.no, model.voteError);
  return clamp(p, Math.min(0.5, Math.max(majorityError(model.voteError, votes.yes + votes.no), model.labelError ?? 0)));
}

/** Every entry with its `p_relevant`. */
export function withPosteriors<E extends Pick<QrelsEntry, 'query_id' | 'doc_id' | 'rel' | 'source' | 'votes'>>(
  entries: readonly E[],
  model: PosteriorModel,
): Array<E & { p_relevant: number }> {
  return entries.map((e) => ({ ...e, p_relevant: posteriorOf(e, model) }));
}
