import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { settle, type HitState } from '../domain/hit.js';
import { VersionConflict } from '../store/hits.js';
import { keepWantedEvents } from './events.js';

/**
 * The one way a HIT changes: under the HIT's lock, apply a pure transition to the
 * current state (with time's effects applied first) and write it (version-checked, see
 * HitRepository.replace) with the events it causes; the background loop hands them to the
 * notification outbox, many HITs' at once (events.ts: flushAllEvents).
 */

export function requireHit(mp: Marketplace, hitId: string): HitState {
  const hit = mp.hits.get(hitId);
  if (!hit) throw new DomainError('HITDoesNotExist', `Hit ${hitId} does not exist.`);
  return hit;
}

/** The HIT as it is now (deadlines passed, expiry), without writing. */
export function viewHit(mp: Marketplace, hitId: string): HitState {
  return settle(requireHit(mp, hitId), mp.clock.now());
}

export async function mutateHit<R>(
  mp: Marketplace,
  hitId: string,
  change: (hit: HitState, now: Date) => Promise<{ hit: HitState; result: R }> | { hit: HitState; result: R },
): Promise<R> {
  return mp.hitLocks.run(hitId, async () => {
    for (let attempt = 1; ; attempt++) {
      const current = requireHit(mp, hitId);
      const version = mp.hits.versionOf(hitId)!;
      const now = mp.clock.now();
      const changed = await change(current, now);
      if (changed.hit === current) return changed.result;
      const hit = keepWantedEvents(mp, changed.hit);
      const result = changed.result;
      try {
        await mp.hits.replace(hit, version);
      } catch (err) {
        if (err instanceof VersionConflict && attempt < 5) continue;
        throw err;
      }
      return result;
    }
  });
}

/** Applies time's effects (abandonment, expiry, reviewability) to a HIT and stores them. */
export async function settleHit(mp: Marketplace, hitId: string): Promise<HitState> {
  return mutateHit(mp, hitId, (hit, now) => {
    const next = settle(hit, now);
    return { hit: next, result: next };
  });
}
