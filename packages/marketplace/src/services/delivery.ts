import type { Marketplace } from '../core.js';
import { retryDelayMs } from '../domain/notifications.js';
import { errorMessage } from '../errors.js';
import { postJson } from './post-json.js';

/**
 * Delivers due notification messages by HTTP POST. A 2xx answer delivers the message; any
 * other answer or a network error schedules a retry with exponential backoff (real time:
 * a receiver recovers in real time, whatever the marketplace clock does), until
 * `maxAttempts`, after which the message is kept as failed.
 */
export async function deliverDue(mp: Marketplace, limit = 20): Promise<number> {
  const { retryBaseMs, retryCapMs, maxAttempts, timeoutMs } = mp.settings.delivery;
  const ids = mp.outbox.dueIds(Date.now(), limit);
  // removed from the outbox together once this round of POSTs is over
  const done: string[] = [];
  let delivered = 0;
  const outcomes = await Promise.allSettled(
    ids.map(async (id) => {
      const message = await mp.outbox.message(id);
      if (!message || message.state !== 'pending') {
        done.push(id);
        return;
      }
      let failure: string | undefined;
      try {
        const status = await postJson(message.destination, message.body, timeoutMs, 'qrelay-marketplace-notifications');
        if (status < 200 || status > 299) failure = `HTTP ${status}`;
      } catch (err) {
        failure = errorMessage(err);
      }
      if (failure === undefined) {
        done.push(id);
        delivered++;
        return;
      }
      const attempts = message.attempts + 1;
      const next = attempts >= maxAttempts ? undefined : Date.now() + retryDelayMs(attempts, retryBaseMs, retryCapMs);
      await mp.outbox.failedAttempt(id, attempts, failure, next);
      mp.logger[next === undefined ? 'error' : 'warn'](
        { messageId: id, destination: message.destination, attempts, error: failure },
        next === undefined ? 'notification not delivered; giving up' : 'notification not delivered; will retry',
      );
    }),
  );
  await mp.outbox.delivered(done);
  const failed = outcomes.find((o) => o.status === 'rejected');
  if (failed) throw failed.reason;
  return delivered;
}
