import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { requireCapability } from '../crowd/platform.js';
import { createCrowdPlatform } from '../crowd/registry.js';

/**
 * The simulation's receiver of the private marketplace's event notifications: the
 * marketplace is told the MTurk way (UpdateNotificationSettings per HIT type, through the
 * platform's `eventNotifications`, src/crowd/platform.ts) to POST the events of the batch's HITs here, and each round takes the
 * HIT ids named since the last one (round-poll.ts), so that it reconciles only those. Every
 * event that changes what a round reads of a HIT is asked for: a submission, a return or an
 * abandonment (the assignments and slot counts), an accept (the slot counts), a HIT becoming
 * reviewable, expiring or extended (its status, size and expiration), and approvals and
 * rejections (the assignments' platform status).
 */

export const SUBSCRIBED_EVENTS: readonly string[] = [
  'AssignmentAccepted',
  'AssignmentSubmitted',
  'AssignmentReturned',
  'AssignmentAbandoned',
  'AssignmentApproved',
  'AssignmentRejected',
  'HITReviewable',
  'HITExpired',
  'HITExtended',
];

export interface EventReceiver {
  url: string;
  /** The HIT ids named since the last call (and forgets them). */
  take(): Set<string>;
  /** Subscribes HIT types not subscribed yet to SUBSCRIBED_EVENTS, delivered here. */
  subscribe(hitTypeIds: Iterable<string>): Promise<void>;
  /** Turns the subscriptions off (UpdateNotificationSettings, Active false) and stops listening. */
  close(): Promise<void>;
}

/** The HIT ids an MTurk notification message names (pure; anything else in it is ignored). */
export function notifiedHitIds(body: unknown): string[] {
  const events = (body as { Events?: unknown } | null)?.Events;
  if (!Array.isArray(events)) return [];
  return events.flatMap((e: unknown) => {
    const id = (e as { HITId?: unknown } | null)?.HITId;
    return typeof id === 'string' && id ? [id] : [];
  });
}

// one attempt per call, as the receiver always made: closing must not wait out a marketplace that is gone
const ONE_ATTEMPT = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

export async function startEventReceiver(target: string, config: Config): Promise<EventReceiver> {
  let named = new Set<string>();
  const subscribed = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = undefined;
      }
      for (const id of notifiedHitIds(body)) named.add(id);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`;
  const platform = createCrowdPlatform(target, config, { retry: ONE_ATTEMPT });
  const notifications = requireCapability(platform, 'eventNotifications', 'the simulation');
  return {
    url,
    take() {
      const taken = named;
      named = new Set();
      return taken;
    },
    async subscribe(hitTypeIds) {
      for (const id of hitTypeIds) {
        if (subscribed.has(id)) continue;
        await notifications.subscribe(id, url, SUBSCRIBED_EVENTS);
        subscribed.add(id);
      }
    },
    async close() {
      try {
        // the subscriptions go with the receiver: a marketplace that outlives the run (the demo
        // hands its HITs over to the bundled one) would otherwise notify an address nobody answers
        for (const id of subscribed) await notifications.unsubscribe(id);
      } finally {
        platform.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  };
}
