import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { firstAnswers } from './decided-majority.js';

/**
 * Adaptive redundancy (pure): two votes per item first, the third only where the two
 * disagree. For a binary majority of three this gives the same label as three votes
 * whenever the first two agree (a third vote cannot overturn two), so it saves the third
 * vote on every item the first two settle: with the agreement the DREAM study measured
 * (Fleiss κ 0.62 with the debate), about four items in five, a quarter of the votes.
 *
 * The third vote of an item comes one of two ways, per HIT: an extra assignment of its HIT
 * (MTurk's CreateAdditionalAssignmentsForHIT, which asks every item of the HIT again) when
 * at least half of the HIT's real items need it, else a new HIT with the items that need it
 * (their HIT is left at two assignments), so that a HIT with one split item out of nine does
 * not buy eight votes nobody needs.
 */

/** Valid votes asked first for every item. */
export const FIRST_VOTES = 2;

/**
 * Per item, the votes it needs: `FIRST_VOTES` until its first two votes are in and agree,
 * `voteTarget` once they disagree. `votes` in submission order (the first two are the ones
 * that decide); items without a vote are absent (they need `FIRST_VOTES`).
 */
export function adaptiveTargets(votes: readonly Vote<Judgment>[], voteTarget: number): Map<string, number> {
  const first = firstAnswers(votes, FIRST_VOTES);
  const base = Math.min(FIRST_VOTES, voteTarget);
  const targets = new Map<string, number>();
  for (const [item, labels] of first) {
    const split = labels.length === FIRST_VOTES && labels[0] !== labels[1];
    targets.set(item, split ? voteTarget : base);
  }
  return targets;
}

/**
 * The HITs whose items should get their missing votes in new HITs rather than from an extra
 * assignment: fewer than half of their real items lack votes (`lacking`: item -> votes still
 * missing after the outstanding work).
 */
export function repostInsteadOfExtending(
  hits: readonly { readonly hitId: string; readonly items: readonly string[] }[],
  lacking: ReadonlyMap<string, number>,
): Set<string> {
  const repost = new Set<string>();
  for (const hit of hits) {
    const items = [...new Set(hit.items)];
    const needing = items.filter((item) => (lacking.get(item) ?? 0) > 0).length;
    if (needing > 0 && 2 * needing < items.length) repost.add(hit.hitId);
  }
  return repost;
}

/**
 * The share of items whose first two votes disagree, for binary votes with Fleiss' κ `kappa`
 * and a share `yesShare` of "yes" votes: 1 − P̄ with P̄ = κ (1 − P̄e) + P̄e, P̄e = p² + (1 − p)².
 */
export function pairwiseDisagreement(kappa: number, yesShare: number): number {
  const chance = yesShare ** 2 + (1 - yesShare) ** 2;
  return Math.min(1, Math.max(0, 1 - (kappa * (1 - chance) + chance)));
}

/** The DREAM study's agreement with the debate shown (κ 0.62), with about a third of the escalated cases relevant. */
export const DREAM_AGREEMENT = { kappa: 0.62, yesShare: 1 / 3 } as const;

/**
 * Expected assignments per HIT under adaptive redundancy, as a share of `voteTarget` per HIT:
 * two for every HIT, and one more per HIT's worth of items that need a third vote (whether by
 * an extra assignment or in a new HIT of such items, a third vote costs about one
 * assignment's share of a HIT per item).
 */
export function adaptiveCostShare(disagreement: number, voteTarget: number): number {
  if (voteTarget <= FIRST_VOTES) return 1;
  return (FIRST_VOTES + disagreement * (voteTarget - FIRST_VOTES)) / voteTarget;
}
