import { LARGE_HIT_MIN_ASSIGNMENTS } from '@qrelay/marketplace/fees';
import type { HitDoc } from '../db/models/index.js';
import { planExtraAssignments, repostInsteadOfExtending, type ExtraAssignmentsRequest, type StuckItem } from '../quality/index.js';
import { storedHitRecord } from './votes.js';

/**
 * What a batch needs after a review round (pure): extra assignments for HITs whose items
 * lack valid votes, items no assignment of their HITs can serve any more (to post again
 * in a new HIT), HITs that are finished, and HITs to stop because their items are done.
 *
 * Outstanding work of a HIT, from the platform's last GetHIT: slots not yet taken
 * (`available`, only while the HIT is open), accepted but not submitted (`pending`), and
 * submitted but not yet reconciled (`max - available - pending` minus what we hold). A
 * HIT is open unless we expired it, or the platform shows it closed: slots available but
 * not Assignable (MTurk offers free slots exactly while a HIT has not expired), or its
 * expiration passed by the platform's clock, which we estimate as the latest of our clock
 * and every platform time we have seen (a simulated marketplace runs its clock faster).
 */

export interface HitProgress {
  hit: HitDoc;
  /** Assignments of the HIT we hold. */
  stored: number;
  /** Of those, not yet approved or rejected. */
  unreviewed: number;
}

export interface FollowUpInput {
  hits: readonly HitProgress[];
  validVotes: ReadonlyMap<string, number>;
  target: number;
  /** Per-item targets over `target` (adaptive redundancy: 3 where the first two votes disagree). */
  targets?: ReadonlyMap<string, number>;
  /**
   * Adaptive redundancy: a HIT where fewer than half the items lack votes is not extended;
   * those items are reported stuck, to be posted in a new HIT (quality/adaptive-redundancy.ts).
   */
  adaptive?: boolean;
  /**
   * The votes lost work is collected again up to, when they differ from the targets above
   * (`recollect: when-undecided`: only what could change an item's majority; redundancy.ts).
   * Extra assignments and new HITs follow these; a HIT is still stopped early only when its
   * items have their planned votes.
   */
  collect?: { target: number; targets?: ReadonlyMap<string, number> };
  platformNow: number;
}

export interface FollowUp {
  extensions: ExtraAssignmentsRequest[];
  stuck: StuckItem[];
  /** HITs with everything in and reviewed: no more polling. */
  done: string[];
  /** Open HITs whose items all have their votes but that still offer slots: expire them. */
  stop: string[];
  /** Collecting HITs with nothing outstanding and nothing to review (done or not). */
  idle: string[];
  /** Collecting HITs (published or expired, not done). */
  active: number;
  /** Every real item has its votes. */
  itemsComplete: boolean;
  /** HITs not yet created on the platform. */
  unsent: boolean;
}

export function isOpen(hit: HitDoc, platformNow: number): boolean {
  if (hit.state === 'expired' || hit.state === 'deleted' || hit.state === 'done') return false;
  const p = hit.platform;
  if (!p) return true;
  if (p.status === 'Disposed') return false;
  if (p.available > 0 && p.status !== 'Assignable') return false;
  return !p.expiration || new Date(p.expiration).getTime() > platformNow;
}

export function outstanding(progress: HitProgress, platformNow: number): number {
  const p = progress.hit.platform;
  if (!p) return progress.hit.state === 'published' ? progress.hit.maxAssignments - progress.stored : 0;
  const unseen = Math.max(0, p.maxAssignments - p.available - p.pending - progress.stored);
  return (isOpen(progress.hit, platformNow) ? p.available : 0) + p.pending + unseen;
}

/** A HIT closed to new workers enters the planner full (9 of 9): no room to grow, so its items are reported stuck. */
const CLOSED_MAX = LARGE_HIT_MIN_ASSIGNMENTS - 1;

/** Votes each item still lacks once the outstanding work of its HITs comes in. */
function lacking(
  states: readonly { items: readonly string[]; outstanding: number }[],
  validVotes: ReadonlyMap<string, number>,
  targetOf: (item: string) => number,
): Map<string, number> {
  const coming = new Map<string, number>();
  for (const s of states) for (const item of new Set(s.items)) coming.set(item, (coming.get(item) ?? 0) + s.outstanding);
  return new Map([...coming].map(([item, c]) => [item, Math.max(0, targetOf(item) - (validVotes.get(item) ?? 0) - c)]));
}

/**
 * The valid votes of the items of these HITs (pure): all the extra assignments' planner reads
 * (quality/extra-assignments.ts), which checks every count it is given; the batch's other items,
 * most of a large batch's, have nothing to ask.
 */
export function votesOn(hits: readonly { items: readonly string[] }[], validVotes: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const h of hits)
    for (const item of h.items) {
      const n = validVotes.get(item);
      if (n !== undefined) out.set(item, n);
    }
  return out;
}

export function planFollowUp(input: FollowUpInput): FollowUp {
  const active = input.hits.filter((h) => h.hit.state === 'published' || h.hit.state === 'expired');
  const targetOf = (item: string) => input.targets?.get(item) ?? input.target;
  const complete = (item: string) => (input.validVotes.get(item) ?? 0) >= targetOf(item);
  const collect = input.collect ?? { target: input.target, ...(input.targets && { targets: input.targets }) };
  const collectTargetOf = (item: string) => collect.targets?.get(item) ?? collect.target;
  const collected = (item: string) => (input.validVotes.get(item) ?? 0) >= collectTargetOf(item);
  const states = active.map((progress) => {
    const open = isOpen(progress.hit, input.platformNow);
    const max = open ? progress.hit.maxAssignments : CLOSED_MAX;
    return {
      hitId: progress.hit._id,
      maxAssignments: max,
      items: storedHitRecord(progress.hit).items,
      outstanding: Math.min(max, outstanding(progress, input.platformNow)),
      open,
      progress,
    };
  });
  const repost = input.adaptive ? repostInsteadOfExtending(states, lacking(states, input.validVotes, collectTargetOf)) : new Set<string>();
  const plan = planExtraAssignments({
    // a HIT whose items go to a new HIT enters full, like a closed one: no room to grow
    hits: states.map(({ hitId, maxAssignments, items, outstanding: o }) => ({
      hitId,
      maxAssignments: repost.has(hitId) ? Math.max(CLOSED_MAX, maxAssignments) : maxAssignments,
      items,
      outstanding: o,
    })),
    validVotes: votesOn(states, input.validVotes),
    target: collect.target,
    ...(collect.targets && { targets: collect.targets }),
  });
  const extended = new Set(plan.requests.map((r) => r.hitId));
  const done: string[] = [];
  const stop: string[] = [];
  const idle: string[] = [];
  for (const s of states) {
    const allIn = s.items.every(complete);
    const quiet = s.outstanding === 0 && s.progress.unreviewed === 0;
    if (quiet) idle.push(s.hitId);
    // nothing outstanding, nothing to review, no extension: nothing more can come from it
    if (quiet && !extended.has(s.hitId)) done.push(s.hitId);
    else if (allIn && s.open && (s.progress.hit.platform?.available ?? 0) > 0) stop.push(s.hitId);
  }
  return {
    extensions: [...plan.requests],
    stuck: [...plan.stuck],
    done,
    stop,
    idle,
    active: states.length,
    itemsComplete: input.hits.every((h) => storedHitRecord(h.hit).items.every((item) => complete(item) || collected(item))),
    unsent: input.hits.some((h) => h.hit.state === 'planned' || h.hit.state === 'creating'),
  };
}
