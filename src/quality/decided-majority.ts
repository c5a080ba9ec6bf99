import type { Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';

/**
 * Re-collection only where a vote can still change the label (pure). An item's label is the
 * majority of its first `voteTarget` valid votes; once one answer holds a majority of
 * `voteTarget` among them (2 of 3), no further vote can overturn it. So when a vote is
 * discarded (a failed check, a stopped worker) and the item's remaining valid votes already
 * decide its majority, collecting a replacement buys nothing: the label is the one a full
 * majority of three would give. Only an item still undecided needs more votes, and then only
 * as many as could decide it (a 1–1 split needs one, a lone vote one that agrees, no vote
 * two), counting work still outstanding as coming, like every other target.
 *
 * `recollect: always` (the preset setting) asks for every lost vote regardless, as before.
 */

export type RecollectPolicy = 'when-undecided' | 'always';

/** The votes one answer needs among the first `voteTarget` for no other vote to overturn it: 2 of 3. */
export const decidingVotes = (voteTarget: number): number => Math.floor(voteTarget / 2) + 1;

/** Per item, its answers among its first `voteTarget` valid votes (votes in submission order). */
export function firstAnswers(votes: readonly Vote<Judgment>[], voteTarget: number): Map<string, Judgment[]> {
  const first = new Map<string, Judgment[]>();
  if (voteTarget <= 0) return first;
  // each item's list grown in place (a copy per vote was most of a round's cost of it)
  for (const v of votes) {
    const seen = first.get(v.item);
    if (!seen) first.set(v.item, [v.label]);
    else if (seen.length < voteTarget) seen.push(v.label);
  }
  return first;
}

/** How many of these answers the most given answer has. */
export function leading(labels: readonly Judgment[]): number {
  // counted in one pass (taken of every item of the batch every round)
  let yes = 0;
  let no = 0;
  for (const x of labels) {
    if (x === 'yes') yes++;
    else if (x === 'no') no++;
  }
  return Math.max(yes, no);
}

/** The items whose majority of `voteTarget` is decided by the votes they have (votes in submission order). */
export function decidedItems(votes: readonly Vote<Judgment>[], voteTarget: number): Set<string> {
  const deciding = decidingVotes(voteTarget);
  return new Set([...firstAnswers(votes, voteTarget)].filter(([, labels]) => leading(labels) >= deciding).map(([item]) => item));
}

/**
 * Under `when-undecided`: per item, the valid votes to collect up to. An item with votes
 * gets what it has plus the fewest that could decide it (never over `voteTarget`); `target`
 * is for items without a valid vote (`decidingVotes`: two that agree decide a majority of
 * three). A decided item's target is what it has: it needs nothing more.
 */
export function recollectTargets(votes: readonly Vote<Judgment>[], voteTarget: number): { target: number; targets: Map<string, number> } {
  const deciding = decidingVotes(voteTarget);
  const targets = new Map<string, number>();
  for (const [item, labels] of firstAnswers(votes, voteTarget)) {
    targets.set(item, Math.min(voteTarget, labels.length + Math.max(0, deciding - leading(labels))));
  }
  return { target: Math.min(deciding, voteTarget), targets };
}
