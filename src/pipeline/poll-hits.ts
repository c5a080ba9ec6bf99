import type { CrowdPlatform, CrowdHit } from '../crowd/platform.js';
import { mapPool } from './pool.js';

/**
 * The platform's view of the HITs a round polls. One GetHIT each costs a signed request
 * and its answer per HIT, every round: 451 of them for a 4,056-case batch. ListHITs answers
 * the same HIT structure (status and slot counts) for 100 HITs a call, but lists every HIT
 * of the account, this batch's or not, and every HIT it answers carries its whole Question
 * (46 KB a HIT in the paper's batch): a listing pays for every HIT it reads, polled or not.
 * So the round lists only when it polls many HITs (LIST_HITS_FROM: a full poll of a large
 * batch), reading ListHITs pages until it has seen every HIT it polls or has read
 * LIST_HITS_PER_POLLED times as many HITs as it polls (an account holding many other HITs),
 * and asks GetHIT for the rest (a HIT ListHITs no longer shows, such as a deleted one,
 * answers GetHIT's way). Listing from fewer polled HITs, with a larger budget, read hundreds
 * of MB of ListHITs answers at the paper's scale for HITs polled a few dozen at a time
 * (docs/decisions/0006).
 */

export const LIST_HITS_FROM = 100;
export const LIST_HITS_PER_POLLED = 2;

/** How polling `polled` HITs starts: whether by ListHITs, and how many listed HITs it reads at most (pure). */
export function listingBudget(polled: number): number {
  return polled >= LIST_HITS_FROM ? polled * LIST_HITS_PER_POLLED : 0;
}

/** The HITs a listing did not show, to be asked one GetHIT each (pure). */
export function unlisted(hitIds: readonly string[], listed: ReadonlyMap<string, CrowdHit>): string[] {
  return hitIds.filter((id) => !listed.has(id));
}

export async function pollHits(backend: CrowdPlatform, hitIds: readonly string[], concurrency: number): Promise<Map<string, CrowdHit>> {
  const wanted = new Set(hitIds);
  const views = new Map<string, CrowdHit>();
  let budget = listingBudget(wanted.size);
  if (budget > 0) {
    for await (const h of backend.listHits()) {
      if (wanted.has(h.hitId)) views.set(h.hitId, h);
      if (views.size === wanted.size || --budget <= 0) break;
    }
  }
  const rest = unlisted([...wanted], views);
  const fetched = await mapPool(rest, concurrency, (id) => backend.getHit(id));
  rest.forEach((id, i) => views.set(id, fetched[i]!));
  return views;
}
