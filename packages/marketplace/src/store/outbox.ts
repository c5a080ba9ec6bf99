import type { mongo } from 'mongoose';
import { insertRefusingStored, type MarketplaceModels, type OutboxDoc } from './models.js';

/** A message to hand to the outbox: its `_id` is derived from the events it carries. */
export interface OutgoingMessage {
  id: string;
  destination: string;
  body: string;
}

/**
 * Notifications waiting for delivery, persisted so that a restart resumes them. Each
 * message's `_id` is derived from the events it carries, so enqueueing twice is harmless.
 * Delivered messages are removed; messages that keep failing are kept as `failed`.
 * Messages are written and removed in bulk (one write for all the messages of a
 * background tick, not one per message: the dev database's cost is per request), and the
 * ones enqueued by this process are also kept in memory until delivered, so delivering
 * one needs no read.
 */
export class Outbox {
  private readonly due = new Map<string, number>();
  private readonly waiting = new Map<string, Pick<OutboxDoc, 'destination' | 'body' | 'attempts' | 'state'>>();

  constructor(private readonly models: MarketplaceModels) {}

  async load(): Promise<number> {
    const docs = await this.models.outbox
      .find({ state: 'pending' }, { _id: 1, nextAttemptAt: 1 })
      .lean<Pick<OutboxDoc, '_id' | 'nextAttemptAt'>[]>();
    this.due.clear();
    this.waiting.clear();
    for (const d of docs) this.due.set(d._id, d.nextAttemptAt.getTime());
    return docs.length;
  }

  get pendingCount(): number {
    return this.due.size;
  }

  async enqueue(id: string, destination: string, body: string, nowMs: number): Promise<void> {
    await this.enqueueMany([{ id, destination, body }], nowMs);
  }

  /**
   * Writes the messages not written yet, in one unordered insert; they are due at `nowMs`. A
   * message stored already (enqueued, or failed, before) is refused as a duplicate `_id` and
   * left as it is: an insert costs the dev database a fraction of an upsert, which queries first.
   */
  async enqueueMany(messages: OutgoingMessage[], nowMs: number): Promise<void> {
    if (messages.length === 0) return;
    const at = new Date(nowMs);
    const docs = messages.map((m) => ({
      _id: m.id,
      destination: m.destination,
      body: m.body,
      attempts: 0,
      nextAttemptAt: at,
      state: 'pending' as const,
      createdAt: at,
    }));
    // the driver itself: the documents are the model's shape already (typed here)
    const refused = await insertRefusingStored(this.models.outbox.collection as unknown as mongo.Collection<OutboxDoc>, docs);
    // only the messages inserted now are new; the others were enqueued (or delivered) before
    messages.forEach((m, index) => {
      if (refused.has(index)) return;
      this.due.set(m.id, nowMs);
      this.waiting.set(m.id, { destination: m.destination, body: m.body, attempts: 0, state: 'pending' });
    });
  }

  dueIds(nowMs: number, limit: number): string[] {
    const out: string[] = [];
    for (const [id, at] of this.due) {
      if (at <= nowMs) out.push(id);
      if (out.length >= limit) break;
    }
    return out;
  }

  async message(id: string): Promise<Pick<OutboxDoc, 'destination' | 'body' | 'attempts' | 'state'> | null> {
    return this.waiting.get(id) ?? (await this.models.outbox.findById(id).lean<OutboxDoc>());
  }

  /** Removes delivered messages (one bulk write). */
  async delivered(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.models.outbox.bulkWrite(
      ids.map((id) => ({ deleteOne: { filter: { _id: id } } })),
      { ordered: false },
    );
    for (const id of ids) {
      this.due.delete(id);
      this.waiting.delete(id);
    }
  }

  async failedAttempt(id: string, attempts: number, error: string, nextAttemptMs: number | undefined): Promise<void> {
    if (nextAttemptMs === undefined) {
      await this.models.outbox.updateOne({ _id: id }, { $set: { state: 'failed', attempts, lastError: error } });
      this.due.delete(id);
      this.waiting.delete(id);
      return;
    }
    await this.models.outbox.updateOne({ _id: id }, { $set: { attempts, lastError: error, nextAttemptAt: new Date(nextAttemptMs) } });
    this.due.set(id, nextAttemptMs);
    const w = this.waiting.get(id);
    if (w) w.attempts = attempts;
  }
}
