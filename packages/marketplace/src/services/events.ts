import type { Marketplace } from '../core.js';
import { hashId, newEntityId } from '../ids.js';
import type { HitEvent, HitState } from '../domain/hit.js';
import type { HitTypeDoc } from '../store/models.js';
import type { OutgoingMessage } from '../store/outbox.js';
import { messageEvent, notificationMessage, type MessageEvent } from '../domain/notifications.js';

/** HITs whose events one background tick hands over at most (bounds how many HIT locks it holds at once). */
const FLUSH_CHUNK = 500;

/** The HIT type's active subscription, and which of the HIT's pending events it wants. */
function wantedEvents(mp: Marketplace, hit: HitState): { spec?: HitTypeDoc['notification']; wanted: HitEvent[] } {
  const type = mp.types.hitTypes.get(hit.typeId);
  const spec = type?.notificationActive ? type.notification : undefined;
  return spec ? { spec, wanted: hit.pendingEvents.filter((e) => spec.EventTypes.includes(e.type)) } : { wanted: [] };
}

/** The message a HIT's pending events make for its HIT type's subscription (none: no subscription wants them). */
function eventsMessage(mp: Marketplace, hit: HitState): OutgoingMessage | undefined {
  const { spec, wanted } = wantedEvents(mp, hit);
  if (!spec || wanted.length === 0) return undefined;
  const id = hashId(`events:${wanted.map((e) => e.key).join(',')}`, 36);
  return { id, destination: spec.Destination, body: notificationMessage(id, mp.customerId, spec.Version, wanted.map(messageEvent)) };
}

/**
 * From the HITs' pending events to the notification outbox (the background loop's work).
 * The events were written with each HIT change itself; here, under the HITs' locks, the
 * ones its HIT type subscribes to become one message per HIT, whose id is derived from
 * the events (so doing this twice after a crash enqueues it once), all written in one bulk
 * write, and then they are removed from their HITs in one more. So a HIT change costs one
 * write, and handing over its events a share of two per tick, however many changed.
 */
export async function flushAllEvents(mp: Marketplace): Promise<void> {
  const ids = mp.hits.withPendingEvents();
  for (let i = 0; i < ids.length; i += FLUSH_CHUNK) {
    const chunk = ids.slice(i, i + FLUSH_CHUNK);
    await mp.hitLocks.runAll(chunk, async () => {
      const hits = chunk.map((id) => mp.hits.get(id)).filter((h): h is HitState => h !== undefined && h.pendingEvents.length > 0);
      const messages = hits.map((h) => eventsMessage(mp, h)).filter((m): m is OutgoingMessage => m !== undefined);
      await mp.outbox.enqueueMany(messages, Date.now());
      await mp.hits.replaceMany(hits.map((h) => ({ ...h, pendingEvents: [] })));
    });
  }
}

/**
 * Drops the events no notification subscription wants, before the HIT is written, so a
 * HIT type without notifications leaves the background loop nothing to hand over.
 */
export function keepWantedEvents(mp: Marketplace, hit: HitState): HitState {
  if (hit.pendingEvents.length === 0) return hit;
  const { wanted } = wantedEvents(mp, hit);
  return wanted.length === hit.pendingEvents.length ? hit : { ...hit, pendingEvents: wanted };
}

/** SendTestEventNotification: one message, sent as soon as the delivery loop runs. */
export async function enqueueTestEvent(mp: Marketplace, destination: string, version: string, event: MessageEvent): Promise<string> {
  const docId = newEntityId();
  await mp.outbox.enqueue(docId, destination, notificationMessage(docId, mp.customerId, version, [event]), Date.now());
  return docId;
}
