import type { BatchDoc } from '../db/models/index.js';
import type { PipelineContext } from './context.js';

/** Simulated batches remembered at once (a process simulates one, or a few: --compare-debate, --replicates). */
const KEPT_BATCHES = 16;

/**
 * What a simulated batch's collection rounds keep from one round to the next in this process
 * (the last LLM-assisted fit, the last drift tests), by database, batch and creation: a batch
 * made anew under the same name is another. When more batches than KEPT_BATCHES come, all are
 * forgotten and each starts again from its next round.
 */
export class SimulatedBatchMemory<T> {
  private readonly kept = new Map<string, T>();

  private static keyOf(ctx: PipelineContext, doc: Pick<BatchDoc, '_id' | 'createdAt'>): string {
    return `${ctx.models.batches.db.name}|${doc._id}|${new Date(doc.createdAt).getTime()}`;
  }

  get(ctx: PipelineContext, doc: Pick<BatchDoc, '_id' | 'createdAt'>): T | undefined {
    return this.kept.get(SimulatedBatchMemory.keyOf(ctx, doc));
  }

  set(ctx: PipelineContext, doc: Pick<BatchDoc, '_id' | 'createdAt'>, value: T): void {
    const key = SimulatedBatchMemory.keyOf(ctx, doc);
    if (!this.kept.has(key) && this.kept.size >= KEPT_BATCHES) this.kept.clear();
    this.kept.set(key, value);
  }
}
