import type { mongo } from 'mongoose';
import { dueAt, type HitState } from '../domain/hit.js';
import { EMPTY_STATS, type WorkerStats } from '../domain/system-qualifications.js';
import { BackgroundWriter, type Writes } from './background-writer.js';
import { isDuplicateKey, type HitDoc, type MarketplaceModels } from './models.js';

/**
 * HITs: the database is the truth, memory is the working copy. Every change is one
 * atomic write of the whole HIT document (its assignments and pending events inside),
 * then the copy in memory; reads and listings come from memory, so no query ever scans
 * the collection. Loaded once at start.
 *
 * A throwaway marketplace (`background` writes, store/background-writer.ts) keeps a change in
 * memory first and writes it after: each new or changed HIT's latest state, many HITs a bulk write,
 * while the next requests are served. `flush` waits for them and throws a write that failed;
 * closing the marketplace and exporting its records flush first.
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

/**
 * A HIT's document for the driver itself. Every change of a HIT rewrites the whole document,
 * and the model's cast of it (a mongoose document built per write, assignments and events
 * inside) cost more CPU than the write's own round trip in a 4,056-case simulation. The state
 * is the model's shape already: it was read from it (`load`) or made by the domain and
 * inserted through the model (`insert`, which checks it strictly), and it is typed. `id` is
 * the document's `_id`, not a field; undefined fields are left out, as the model leaves them.
 */
type StoredHit = Omit<HitDoc, 'id'>;

function toStoredDoc(hit: HitState, version: number): StoredHit {
  const { id, ...rest } = hit;
  return { ...rest, _id: id, version };
}

/** As the model writes: fields set to undefined are not stored (the driver would store null). */
const AS_THE_MODEL = { ignoreUndefined: true } as const;

export class HitRepository {
  private readonly entries = new Map<string, Entry>();
  /** Ids in ascending order (ids start with their creation time). */
  private sorted: string[] = [];
  /**
   * The ids of open HITs, ascending: not disposed, with a slot free or an assignment in
   * progress. Only these can be (or become, as time passes) assignable or busy, so the work
   * list and the simulation's "anything left to do?" look at them alone, not at every HIT.
   */
  private openSorted: string[] = [];
  private loading = false;
  private readonly byWorker = new Map<string, Set<string>>();
  /** The HIT last created with each CreateHIT UniqueRequestToken (so a retry is answered without a lookup). */
  private readonly byToken = new Map<string, string>();

  /** `background` writes: the HITs changed in memory and not written yet. */
  private readonly background: BackgroundWriter | undefined;
  /** `background` writes: HITs created in memory and not inserted yet, with their CreateHIT tokens. */
  private readonly uninserted = new Map<string, string | undefined>();

  constructor(
    private readonly models: MarketplaceModels,
    writes: Writes = 'each',
  ) {
    if (writes === 'background') this.background = new BackgroundWriter((ids) => this.writeLatest(ids));
  }

  /** The HITs' collection for the driver itself (toStoredDoc says why). */
  private get stored(): mongo.Collection<StoredHit> {
    return this.models.hits.collection as unknown as mongo.Collection<StoredHit>;
  }

  async load(): Promise<number> {
    const docs = await this.models.hits.find({}).lean<HitDoc[]>();
    this.entries.clear();
    this.byWorker.clear();
    this.byToken.clear();
    // sorted once at the end rather than inserted one by one
    this.loading = true;
    for (const doc of docs) {
      this.remember(toState(doc).hit, doc.version);
      this.rememberToken(doc.uniqueRequestToken, doc._id);
    }
    this.loading = false;
    this.sorted = [...this.entries.keys()].sort();
    this.openSorted = this.sorted.filter((id) => isOpen(this.entries.get(id)!.hit));
    return docs.length;
  }

  /** Every change made so far is in the database (a failed background write is thrown). */
  async flush(): Promise<void> {
    await this.background?.flush();
  }

  /** `background` writes: the new states in memory now, in the database by the writer. */
  private later(hits: readonly HitState[], versions: readonly number[]): void {
    hits.forEach((h, i) => {
      this.background!.add(h.id);
      this.remember(h, versions[i]!);
    });
  }

  /** The HITs' latest states, in one bulk write: inserted (HITs created since the last write) or replaced. */
  private async writeLatest(ids: string[]): Promise<void> {
    const created = ids.filter((id) => this.uninserted.has(id));
    const r = await this.stored.bulkWrite(
      ids.map((id) => {
        const { hit, version } = this.entries.get(id)!;
        const doc = toStoredDoc(hit, version);
        if (!this.uninserted.has(id)) return { replaceOne: { filter: { _id: id }, replacement: doc } };
        const token = this.uninserted.get(id);
        return { insertOne: { document: token === undefined ? doc : { ...doc, uniqueRequestToken: token } } };
      }),
      { ordered: false, ...AS_THE_MODEL },
    );
    for (const id of created) this.uninserted.delete(id);
    const changed = ids.length - created.length;
    if (r.matchedCount < changed)
      throw new Error(`${changed - r.matchedCount} of ${changed} HITs written in the background were not in the database`);
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

  /** Open HITs (see `openSorted`) in creation order; for synchronous use (a change while iterating may skip one). */
  *open(): Iterable<HitState> {
    for (const id of this.openSorted) yield this.entries.get(id)!.hit;
  }

  /** Up to `max` open HITs created after `afterId` (all when undefined), in creation order. */
  openAfter(afterId: string | undefined, max: number): HitState[] {
    const from = afterId === undefined ? 0 : insertionIndex(this.openSorted, afterId + '\u0000');
    return this.openSorted.slice(from, from + max).map((id) => this.entries.get(id)!.hit);
  }

  async insert(hit: HitState, token?: string): Promise<void> {
    if (this.background) await this.insertLater(hit, token);
    else await this.models.hits.create(toDoc(hit, 1, token));
    this.remember(hit, 1);
    this.rememberToken(token, hit.id);
    this.insertSorted(hit.id);
  }

  /** `background` writes: a new HIT checked as the model checks an insert, in memory now, inserted by the writer. */
  private async insertLater(hit: HitState, token: string | undefined): Promise<void> {
    await new this.models.hits(toDoc(hit, 1, token)).validate();
    if (this.entries.has(hit.id)) throw new Error(`HIT ${hit.id} exists already`);
    this.background!.add(hit.id);
    this.uninserted.set(hit.id, token);
  }

  /**
   * Writes a new state of a HIT read at `expectedVersion`. The version is compared here,
   * in memory, not in the database filter: the dev database answers a filter on `_id`
   * alone from its index but scans the whole collection for `{_id, version}`. That is safe because this process is the only writer (the lease) and
   * every change of a HIT runs under that HIT's lock.
   */
  async replace(hit: HitState, expectedVersion: number): Promise<void> {
    if (this.entries.get(hit.id)?.version !== expectedVersion) throw new VersionConflict(hit.id);
    const version = expectedVersion + 1;
    if (this.background) return this.later([hit], [version]);
    const r = await this.stored.replaceOne({ _id: hit.id }, toStoredDoc(hit, version), AS_THE_MODEL);
    if (r.matchedCount === 0) {
      await this.reload(hit.id);
      throw new VersionConflict(hit.id);
    }
    this.remember(hit, version);
  }

  /**
   * `replace` for many HITs in one bulk write (each read at its current version, under its
   * lock): the background loop's removal of handed-over events. A HIT the database no
   * longer matches is re-read and left out; answers how many were written.
   */
  async replaceMany(hits: HitState[]): Promise<number> {
    if (hits.length === 0) return 0;
    const versions = hits.map((h) => {
      const v = this.entries.get(h.id)?.version;
      if (v === undefined) throw new VersionConflict(h.id);
      return v + 1;
    });
    if (this.background) {
      this.later(hits, versions);
      return hits.length;
    }
    const r = await this.stored.bulkWrite(
      hits.map((h, i) => ({ replaceOne: { filter: { _id: h.id }, replacement: toStoredDoc(h, versions[i]!) } })),
      { ordered: false, ...AS_THE_MODEL },
    );
    if (r.matchedCount < hits.length) {
      for (const h of hits) await this.reload(h.id);
      return 0;
    }
    hits.forEach((h, i) => this.remember(h, versions[i]!));
    return hits.length;
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
    await this.flush();
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
    if (this.loading) return;
    const open = isOpen(hit);
    const at = insertionIndex(this.openSorted, hit.id);
    const listed = this.openSorted[at] === hit.id;
    if (open && !listed) this.openSorted.splice(at, 0, hit.id);
    if (!open && listed) this.openSorted.splice(at, 1);
  }

  private rememberToken(token: string | undefined, id: string): void {
    if (token === undefined) return;
    const known = this.forToken(token);
    if (!known || known.creationTime.getTime() <= (this.get(id)?.creationTime.getTime() ?? 0)) this.byToken.set(token, id);
  }

  private insertSorted(id: string): void {
    const at = insertionIndex(this.sorted, id);
    if (this.sorted[at] !== id) this.sorted.splice(at, 0, id);
  }
}

function isOpen(hit: HitState): boolean {
  return !hit.disposed && (hit.assignments.length < hit.maxAssignments || hit.assignments.some((a) => a.status === 'Accepted'));
}

/** Where `id` is or would go in the ascending `ids` (binary search). */
function insertionIndex(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
