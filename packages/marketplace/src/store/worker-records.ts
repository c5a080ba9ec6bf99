import type { MarketplaceModels, WorkerDoc, WorkerQualificationDoc } from './models.js';
import type { WorkerQualifications } from './worker-qualifications.js';
import { SizedCache } from './sized-cache.js';

/** Workers whose records are kept at most (the least recently used are dropped first). */
const WORKERS_KEPT = 20_000;

interface Entry {
  worker?: WorkerDoc | null;
  blocked?: boolean;
  /** Custom qualifications by type id: the worker's record (granted or revoked), or null when they have none. */
  qualifications: Map<string, WorkerQualificationDoc | null>;
}

/**
 * What decides a worker's access, read through a cache: their account, whether they are
 * blocked, and their custom qualifications. Every look at the list of HITs and every
 * accept needs them, and the dev database's cost is per request. This process is the only
 * writer of the marketplace's database (the lease), and every write of these records
 * calls `forget` (or `forgetAll`) after it. A read that was under way while a write
 * happened is answered but not kept (the generation changed), so a stale record is never
 * cached.
 */
export class WorkerRecords {
  private readonly cache = new SizedCache<Entry>(WORKERS_KEPT, () => 1);
  private generation = 0;

  constructor(
    private readonly models: MarketplaceModels,
    private readonly qualifications: WorkerQualifications,
  ) {}

  async worker(workerId: string): Promise<WorkerDoc | null> {
    const cached = this.cache.get(workerId)?.worker;
    if (cached !== undefined) return cached;
    return this.read(
      workerId,
      () => this.models.workers.findById(workerId).lean<WorkerDoc>(),
      (e, doc) => (e.worker = doc),
    );
  }

  async blocked(workerId: string): Promise<boolean> {
    const cached = this.cache.get(workerId)?.blocked;
    if (cached !== undefined) return cached;
    return this.read(
      workerId,
      async () => (await this.models.blocks.exists({ _id: workerId })) !== null,
      (e, blocked) => (e.blocked = blocked),
    );
  }

  /** The worker's record of a custom qualification type (granted or revoked), or null. */
  async qualification(id: { typeId: string; workerId: string; recordId: string }): Promise<WorkerQualificationDoc | null> {
    const cached = this.cache.get(id.workerId)?.qualifications.get(id.typeId);
    if (cached !== undefined) return cached;
    return this.read(
      id.workerId,
      () => this.qualifications.byId(id.recordId),
      (e, doc) => e.qualifications.set(id.typeId, doc),
    );
  }

  /** After any write of the worker's account, block or qualifications. */
  forget(workerId: string): void {
    this.generation++;
    this.cache.delete(workerId);
  }

  /**
   * After a write of one custom qualification record (a grant, a new value, a revocation):
   * the worker's other records stay known, and this one is as written. A requester who sets
   * the values of a few dozen workers every round would otherwise have every one of them
   * read again from the database (account, block and qualifications) at their next look.
   */
  qualificationWritten(doc: WorkerQualificationDoc): void {
    this.generation++;
    this.cache.get(doc.workerId)?.qualifications.set(doc.typeId, doc);
  }

  /** After writes of many workers' records (an import). */
  forgetAll(): void {
    this.generation++;
    this.cache.clear();
  }

  private async read<T>(workerId: string, load: () => Promise<T>, keep: (entry: Entry, value: T) => void): Promise<T> {
    const generation = this.generation;
    const value = await load();
    if (generation !== this.generation) return value;
    let entry = this.cache.get(workerId);
    if (!entry) this.cache.set(workerId, (entry = { qualifications: new Map() }));
    keep(entry, value);
    return value;
  }
}
