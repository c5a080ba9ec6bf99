import { dueAt, type HitState } from '../domain/hit.js';
import { EMPTY_STATS, type WorkerStats } from '../domain/system-qualifications.js';
import { isDuplicateKey, type HitDoc, type MarketplaceModels } from './models.js';

/**
 * HITs: the database is the truth, memory is the working copy. Every change is one
 * atomic write of the whole HIT document (its assignments and pending events inside),
 * then the copy in memory; reads and listings come from memory, so no query ever scans
 * the collection. Loaded once at start.
 */

export class VersionConflict extends Error {
  constructor(hitId: string) {
    super(`HIT ${hitId} changed underneath this write`);
  }
}

interface Entry {
  hit: HitState;
  version: number;
  dueMs: number | undefined;
}

function toState(doc: HitDoc): { hit: HitState; version: number } {
  const { _id, version, uniqueRequestToken: _token, ...rest } = doc;
  const hit = { ...rest, id: _id } as HitState;
  hit.assignments = hit.assignments ?? [];
  hit.pendingEvents = hit.pendingEvents ?? [];
  hit.props = { ...hit.props, qualificationRequirements: hit.props.qualificationRequirements ?? [] };
  return { hit, version };
}

function toDoc(hit: HitState, version: number, token?: string): HitDoc {
  return { ...hit, _id: hit.id, version, ...(token !== undefined ? { uniqueRequestToken: token } : {}) };
}

export class HitRepository {
  private readonly entries = new Map<string, Entry>();
  /** Ids in ascending order (ids start with their creation time). */
  private sorted: string[] = [];
  private readonly byWorker = new Map<string, Set<string>>();
  /** The HIT last created with each CreateHIT UniqueRequestToken (so a retry is answered without a lookup). */
  private readonly byToken = new Map<string, string>();

  constructor(private readonly models: MarketplaceModels) {}

  async load(): Promise<number> {
    const docs = await this.models.hits.find({}).lean<HitDoc[]>();
    this.entries.clear();
    this.byWorker.clear();
    this.byToken.clear();
    for (const doc of docs) {
      this.remember(toState(doc).hit, doc.version);
      this.rememberToken(doc.uniqueRequestToken, doc._id);
    }
    this.sorted = [...this.entries.keys()].sort();
    return docs.length;
  }

  get(id: string): HitState | undefined {
    return this.entries.get(id)?.hit;
  }

  versionOf(id: string): number | undefined {
    return this.entries.get(id)?.version;
  }

  /** All HITs in creation order. */
  *all(): Iterable<HitState> {
    for (const id of this.sorted) yield this.entries.get(id)!.hit;
  }

  get size(): number {
    return this.entries.size;
  }

  async insert(hit: HitState, token?: string): Promise<void> {
    await this.models.hits.create(toDoc(hit, 1, token));
    this.remember(hit, 1);
    this.rememberToken(token, hit.id);
    this.insertSorted(hit.id);
  }

  /**
   * Writes a new state of a HIT read at `expectedVersion`. The version is compared here,
   * in memory, not in the database filter: the dev database answers a filter on `_id`
   * alone from its index but scans the whole collection for `{_id, version}` (30 ms at
   * 1,000 HITs). That is safe because this process is the only writer (the lease) and
   * every change of a HIT runs under that HIT's lock.
   */
  async replace(hit: HitState, expectedVersion: number): Promise<void> {
    if (this.entries.get(hit.id)?.version !== expectedVersion) throw new VersionConflict(hit.id);
    const version = expectedVersion + 1;
    const r = await this.models.hits.replaceOne({ _id: hit.id }, toDoc(hit, version));
    if (r.matchedCount === 0) {
      await this.reload(hit.id);
      throw new VersionConflict(hit.id);
    }
    this.remember(hit, version);
  }

  /**
   * Adds a HIT made elsewhere (records/import.ts) unless this id is here already; answers
   * whether it was added. Its version starts again at 1.
   */
  async adopt(doc: Omit<HitDoc, 'id'>): Promise<boolean> {
    if (this.entries.has(doc._id)) return false;
    const fresh = { ...doc, version: 1 };
    try {
      await this.models.hits.create(fresh);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // written by an earlier attempt whose answer was lost
      await this.reload(doc._id);
      this.insertSorted(doc._id);
      return false;
    }
    // toState takes the HITId from `_id`
    this.remember(toState(fresh as HitDoc).hit, 1);
    this.rememberToken(fresh.uniqueRequestToken, doc._id);
    this.insertSorted(doc._id);
    return true;
  }

  /** Re-reads one HIT (after a failed or uncertain write). */
  async reload(id: string): Promise<void> {
    const doc = await this.models.hits.findById(id).lean<HitDoc>();
    if (doc) this.remember(toState(doc).hit, doc.version);
  }

  /** The HIT created with this UniqueRequestToken (the latest, should an expired token have been used again). */
  forToken(token: string): HitState | undefined {
    const id = this.byToken.get(token);
    return id === undefined ? undefined : this.get(id);
  }

  /** HITs whose time-driven change (deadline, expiry, auto-approval) is due. */
  dueIds(nowMs: number): string[] {
    const out: string[] = [];
    for (const [id, e] of this.entries) if (e.dueMs !== undefined && e.dueMs <= nowMs) out.push(id);
    return out;
  }

  withPendingEvents(): string[] {
    const out: string[] = [];
    for (const [id, e] of this.entries) if (e.hit.pendingEvents.length > 0) out.push(id);
    return out;
  }

  /** HITs the worker holds or held an assignment of, in creation order. */
  workerHitIds(workerId: string): string[] {
    return [...(this.byWorker.get(workerId) ?? [])].sort();
  }

  /** The worker's submitted, approved and rejected assignments on this marketplace. */
  statsFor(workerId: string): WorkerStats {
    const stats = { ...EMPTY_STATS };
    for (const id of this.byWorker.get(workerId) ?? []) {
      for (const a of this.entries.get(id)!.hit.assignments) {
        if (a.workerId !== workerId || a.status === 'Accepted') continue;
        stats.submitted++;
        if (a.status === 'Approved') stats.approved++;
        if (a.status === 'Rejected') stats.rejected++;
      }
    }
    return stats;
  }

  private remember(hit: HitState, version: number): void {
    const previous = this.entries.get(hit.id)?.hit;
    for (const a of previous?.assignments ?? []) {
      if (!hit.assignments.some((b) => b.workerId === a.workerId)) this.byWorker.get(a.workerId)?.delete(hit.id);
    }
    for (const a of hit.assignments) {
      let set = this.byWorker.get(a.workerId);
      if (!set) this.byWorker.set(a.workerId, (set = new Set()));
      set.add(hit.id);
    }
    this.entries.set(hit.id, { hit, version, dueMs: dueAt(hit)?.getTime() });
  }

  private rememberToken(token: string | undefined, id: string): void {
    if (token === undefined) return;
    const known = this.forToken(token);
    if (!known || known.creationTime.getTime() <= (this.get(id)?.creationTime.getTime() ?? 0)) this.byToken.set(token, id);
  }

  private insertSorted(id: string): void {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    if (this.sorted[lo] !== id) this.sorted.splice(lo, 0, id);
  }
}
