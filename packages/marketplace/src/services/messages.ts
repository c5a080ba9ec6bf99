import type { Marketplace } from '../core.js';
import { newEntityId } from '../ids.js';

/** The worker's inbox on the worker site: NotifyWorkers e-mails and qualification notices land here. */
export async function sendWorkerMessage(mp: Marketplace, workerId: string, subject: string, text: string): Promise<void> {
  const now = mp.clock.now();
  await mp.models.messages.create({ _id: newEntityId(now.getTime()), workerId, subject, text, sentAt: now });
}
