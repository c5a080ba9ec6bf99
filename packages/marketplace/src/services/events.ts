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

/**
 * Events one message carries at most. An MTurk notification message carries a list of
 * events, of any of the subscription's HITs; a message of a few hundred is a few dozen KB.
 */
const EVENTS_PER_MESSAGE = 100;

/**
 * The messages the HITs' pending events make: per HIT type whose subscription wants some,
 * its HITs' events in order, EVENTS_PER_MESSAGE a message, each message's id derived from
 * its events. One POST then tells a receiver of a round's worth of changes, where a message
 * per HIT made a simulation's rounds wait for thousands of them.
 */
function eventsMessages(mp: Marketplace, hits: readonly HitState[]): OutgoingMessage[] {
  const byType = new Map<string, { spec: NonNullable<HitTypeDoc['notification']>; events: HitEvent[] }>();
  for (const hit of hits) {
    const { spec, wanted } = wantedEvents(mp, hit);
    if (!spec || wanted.length === 0) continue;
    const group = byType.get(hit.typeId) ?? { spec, events: [] };
    group.events.push(...wanted);
    byType.set(hit.typeId, group);
  }
  return [...byType.values()].flatMap(({ spec, events }) => {
    const messages: OutgoingMessage[] = [];
    for (let i = 0; i < events.length; i += EVENTS_PER_MESSAGE) {
      const carried = events.slice(i, i + EVENTS_PER_MESSAGE);
      const id = hashId(`events:${carried.map((e) => e.key).join(',')}`, 36);
      messages.push({
        id,
        destination: spec.Destination,
        body: notificationMessage(id, mp.customerId, spec.Version, carried.map(messageEvent)),
      });
    }
    return messages;
  });
}

/**
 * From the HITs' pending events to the notification outbox (the background loop's work).
 * The events were written with each HIT change itself; here, under the HITs' locks, the
 * ones their HIT types subscribe to become messages (eventsMessages), each one's id derived
 * from its events (so doing this twice after a crash enqueues it once), all written in one bulk
 * write, and then they are removed from their HITs in one more. So a HIT change costs one
 * write, and handing over its events a share of two per tick, however many changed.
 */
export async function flushAllEvents(mp: Marketplace): Promise<void> {
  const ids = mp.hits.withPendingEvents();
  for (let i = 0; i < ids.length; i += FLUSH_CHUNK) {
    const chunk = ids.slice(i, i + FLUSH_CHUNK);
    await mp.hitLocks.runAll(chunk, async () => {
      const hits = chunk.map((id) => mp.hits.get(id)).filter((h): h is HitState => h !== undefined && h.pendingEvents.length > 0);
      await mp.outbox.enqueueMany(eventsMessages(mp, hits), Date.now());
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
