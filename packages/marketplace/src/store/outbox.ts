import type { MarketplaceModels, OutboxDoc } from './models.js';

/**
 * Notifications waiting for delivery, persisted so that a restart resumes them. Each
 * message's `_id` is derived from the events it carries, so enqueueing twice is harmless.
 * Delivered messages are removed; messages that keep failing are kept as `failed`.
 */
export class Outbox {
  private readonly due = new Map<string, number>();

  constructor(private readonly models: MarketplaceModels) {}

  async load(): Promise<number> {
    const docs = await this.models.outbox
      .find({ state: 'pending' }, { _id: 1, nextAttemptAt: 1 })
      .lean<Pick<OutboxDoc, '_id' | 'nextAttemptAt'>[]>();
    this.due.clear();
    for (const d of docs) this.due.set(d._id, d.nextAttemptAt.getTime());
    return docs.length;
  }

  get pendingCount(): number {
    return this.due.size;
  }

  async enqueue(id: string, destination: string, body: string, nowMs: number): Promise<void> {
    const r = await this.models.outbox.updateOne(
      { _id: id },
      { $setOnInsert: { destination, body, attempts: 0, nextAttemptAt: new Date(nowMs), state: 'pending', createdAt: new Date(nowMs) } },
      { upsert: true },
    );
    if (r.upsertedCount > 0) this.due.set(id, nowMs);
  }

  dueIds(nowMs: number, limit: number): string[] {
    const out: string[] = [];
    for (const [id, at] of this.due) {
      if (at <= nowMs) out.push(id);
      if (out.length >= limit) break;
    }
    return out;
  }

  async message(id: string): Promise<OutboxDoc | null> {
    return this.models.outbox.findById(id).lean<OutboxDoc>();
  }

  async delivered(id: string): Promise<void> {
    await this.models.outbox.deleteOne({ _id: id });
    this.due.delete(id);
  }

  async failedAttempt(id: string, attempts: number, error: string, nextAttemptMs: number | undefined): Promise<void> {
    if (nextAttemptMs === undefined) {
      await this.models.outbox.updateOne({ _id: id }, { $set: { state: 'failed', attempts, lastError: error } });
      this.due.delete(id);
      return;
    }
    await this.models.outbox.updateOne({ _id: id }, { $set: { attempts, lastError: error, nextAttemptAt: new Date(nextAttemptMs) } });
    this.due.set(id, nextAttemptMs);
  }
}
