import type { Marketplace } from '../core.js';
import { hashId, newEntityId } from '../ids.js';
import type { HitEvent, HitState } from '../domain/hit.js';
import { messageEvent, notificationMessage, type MessageEvent } from '../domain/notifications.js';

/**
 * From a HIT's pending events to the notification outbox. The events were written with
 * the HIT change itself; here the ones its HIT type subscribes to become one message,
 * whose id is derived from the events (so doing this twice after a crash enqueues it
 * once), and then they are removed from the HIT. Call under the HIT's lock, or through
 * the background loop which takes it.
 */
export async function flushEvents(mp: Marketplace, hitId: string): Promise<void> {
  const hit = mp.hits.get(hitId);
  if (!hit || hit.pendingEvents.length === 0) return;
  const type = mp.types.hitTypes.get(hit.typeId);
  const spec = type?.notificationActive ? type.notification : undefined;
  const wanted = spec ? hit.pendingEvents.filter((e) => spec.EventTypes.includes(e.type)) : [];
  if (spec && wanted.length > 0) {
    const docId = hashId(`events:${wanted.map((e) => e.key).join(',')}`, 36);
    const body = notificationMessage(docId, mp.customerId, spec.Version, wanted.map(messageEvent));
    await mp.outbox.enqueue(docId, spec.Destination, body, Date.now());
  }
  const version = mp.hits.versionOf(hitId)!;
  const flushed = new Set(hit.pendingEvents.map((e: HitEvent) => e.key));
  await mp.hits.replace({ ...hit, pendingEvents: hit.pendingEvents.filter((e) => !flushed.has(e.key)) }, version);
}

/**
 * Drops the events no notification subscription wants, before the HIT is written, so a
 * HIT type without notifications costs no second write per change.
 */
export function keepWantedEvents(mp: Marketplace, hit: HitState): HitState {
  if (hit.pendingEvents.length === 0) return hit;
  const type = mp.types.hitTypes.get(hit.typeId);
  const spec = type?.notificationActive ? type.notification : undefined;
  const wanted = spec ? hit.pendingEvents.filter((e) => spec.EventTypes.includes(e.type)) : [];
  return wanted.length === hit.pendingEvents.length ? hit : { ...hit, pendingEvents: wanted };
}

export async function flushEventsLocked(mp: Marketplace, hitId: string): Promise<void> {
  await mp.hitLocks.run(hitId, () => flushEvents(mp, hitId));
}

/** SendTestEventNotification: one message, sent as soon as the delivery loop runs. */
export async function enqueueTestEvent(mp: Marketplace, destination: string, version: string, event: MessageEvent): Promise<string> {
  const docId = newEntityId();
  await mp.outbox.enqueue(docId, destination, notificationMessage(docId, mp.customerId, version, [event]), Date.now());
  return docId;
}
