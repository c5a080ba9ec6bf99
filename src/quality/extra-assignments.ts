import { byCodeUnits, quote } from '../aggregate/votes.js';
import { LARGE_HIT_MIN_ASSIGNMENTS } from '@qrelay/marketplace/fees';
import { UserError } from '../errors.js';

/** Valid votes every real item should reach (the DREAM protocol: 3 workers, majority vote). */
export const DEFAULT_VOTE_TARGET = 3;

export interface HitAssignmentState {
  readonly hitId: string;
  /** The HIT's current MaxAssignments. */
  readonly maxAssignments: number;
  /** The real items of the HIT (checks excluded). */
  readonly items: readonly string[];
  /**
   * Assignments still to come: MTurk's NumberOfAssignmentsAvailable (only while the HIT
   * has not expired) + NumberOfAssignmentsPending (accepted, not submitted). Submitted
   * assignments are not outstanding: their checks already decided whether they count.
   */
  readonly outstanding: number;
}

export interface ExtraAssignmentsInput {
  readonly hits: readonly HitAssignmentState[];
  /** Valid votes so far per real item; items not listed have none. */
  readonly validVotes: ReadonlyMap<string, number>;
  /** Default 3. */
  readonly target?: number;
  /** A higher (or lower) target for some items, e.g. 5 for an item whose 4 votes tied 2–2. */
  readonly targets?: ReadonlyMap<string, number>;
}

export interface ExtraAssignmentsRequest {
  readonly hitId: string;
  /** NumberOfAdditionalAssignments for CreateAdditionalAssignmentsForHIT. */
  readonly extra: number;
  readonly newMaxAssignments: number;
  /** The 10-assignment rule cut this request short; see `stuck`. */
  readonly capped: boolean;
}

export interface StuckItem {
  readonly item: string;
  readonly hitIds: readonly string[];
  readonly target: number;
  readonly validVotes: number;
  /** Valid votes plus outstanding and requested assignments. */
  readonly expected: number;
  /** Votes that no assignment of its HITs can bring: post the item again in a new HIT. */
  readonly missing: number;
}

export interface ExtraAssignmentsPlan {
  /** One entry per HIT that needs more assignments, sorted by HIT id. */
  readonly requests: readonly ExtraAssignmentsRequest[];
  /** Items that cannot reach their target in their HITs, sorted by item id. */
  readonly stuck: readonly StuckItem[];
  /** Items already at their target. */
  readonly complete: number;
  /** Items that will reach their target if the outstanding assignments come in: nothing to ask. */
  readonly waiting: number;
}

/**
 * How many extra assignments each HIT needs so that every real item can reach its target
 * of valid votes. Every assignment of a HIT brings a vote for each of its items, so a HIT
 * needs as many as its neediest item lacks, counting outstanding assignments as coming
 * (work that is merely pending is never asked for twice).
 *
 * MTurk refuses to take a HIT created with fewer than 10 assignments to 10 or more (and a
 * HIT with 10 or more pays the 20% surcharge): such a HIT is extended to 9 at most, and
 * the items it still cannot serve are reported in `stuck`, for a new HIT. An item in more
 * than one HIT takes what each HIT gets, HITs taken in id order.
 */
export function planExtraAssignments(input: ExtraAssignmentsInput): ExtraAssignmentsPlan {
  const target = input.target ?? DEFAULT_VOTE_TARGET;
  checkCount(target, 'target', 1);
  for (const [item, t] of input.targets ?? []) checkCount(t, `targets[${quote(item)}]`, 1);
  for (const [item, v] of input.validVotes) checkCount(v, `validVotes[${quote(item)}]`, 0);

  const hits = [...input.hits].sort((a, b) => byCodeUnits(a.hitId, b.hitId));
  const hitsOf = new Map<string, string[]>();
  const outstandingOf = new Map<string, number>();
  const seenHits = new Set<string>();
  for (const [n, hit] of input.hits.entries()) {
    if (seenHits.has(hit.hitId)) throw new UserError(`hits[${n}].hitId: ${quote(hit.hitId)} is listed twice`);
    seenHits.add(hit.hitId);
    checkCount(hit.maxAssignments, `hits[${n}].maxAssignments`, 1);
    checkCount(hit.outstanding, `hits[${n}].outstanding`, 0);
    if (hit.outstanding > hit.maxAssignments) {
      throw new UserError(`hits[${n}].outstanding: ${hit.outstanding} is more than the HIT's maxAssignments ${hit.maxAssignments}`);
    }
    for (const item of new Set(hit.items)) {
      const list = hitsOf.get(item);
      if (list) list.push(hit.hitId);
      else hitsOf.set(item, [hit.hitId]);
      outstandingOf.set(item, (outstandingOf.get(item) ?? 0) + hit.outstanding);
    }
  }
  for (const list of hitsOf.values()) list.sort(byCodeUnits);

  const targetOf = (item: string) => input.targets?.get(item) ?? target;
  const valid = (item: string) => input.validVotes.get(item) ?? 0;
  // votes still missing per item once outstanding work comes in
  const missing = new Map<string, number>();
  let complete = 0;
  let waiting = 0;
  for (const item of hitsOf.keys()) {
    const outstanding = outstandingOf.get(item) ?? 0;
    const lack = targetOf(item) - valid(item);
    if (lack <= 0) complete++;
    else if (lack <= outstanding) waiting++;
    missing.set(item, Math.max(0, lack - outstanding));
  }

  const requests: ExtraAssignmentsRequest[] = [];
  for (const hit of hits) {
    const need = Math.max(0, ...[...new Set(hit.items)].map((item) => missing.get(item) ?? 0));
    if (need === 0) continue;
    const room = hit.maxAssignments >= LARGE_HIT_MIN_ASSIGNMENTS ? need : LARGE_HIT_MIN_ASSIGNMENTS - 1 - hit.maxAssignments;
    const extra = Math.min(need, room);
    for (const item of new Set(hit.items)) {
      missing.set(item, Math.max(0, (missing.get(item) ?? 0) - extra));
    }
    if (extra > 0) requests.push({ hitId: hit.hitId, extra, newMaxAssignments: hit.maxAssignments + extra, capped: extra < need });
  }

  const stuck: StuckItem[] = [...missing]
    .filter(([, m]) => m > 0)
    .map(([item, m]) => ({
      item,
      hitIds: hitsOf.get(item) ?? [],
      target: targetOf(item),
      validVotes: valid(item),
      expected: targetOf(item) - m,
      missing: m,
    }))
    .sort((a, b) => byCodeUnits(a.item, b.item));
  return { requests, stuck, complete, waiting };
}

function checkCount(value: number, where: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new UserError(`${where}: ${quote(value)} is not a whole number >= ${min}`);
}
