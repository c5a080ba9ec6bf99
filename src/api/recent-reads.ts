/**
 * Small reads (a batch's fingerprint) served from memory with a bounded staleness, so that
 * a busy dashboard costs the database a few reads a second instead of one per request.
 *
 * - A value is served while the read that produced it started at most `maxStaleMs` before
 *   the request arrived. Past `refreshAfterMs`, a request still answers from it at once and
 *   starts one read in the background (single flight per key), so a key asked for steadily
 *   is re-read about every `refreshAfterMs` and requests never wait for it.
 * - A request that finds nothing recent enough waits for a read: one already running if it
 *   started within `maxStaleMs` and after the last invalidation, else a new one.
 * - `invalidate()` (this process wrote what the values are read from) makes every value and
 *   every running read stale at once: no request arriving afterwards gets a value read
 *   before it. Other processes' writes show within `maxStaleMs`.
 * - A failed read is never kept: its waiters get the error, the next request reads again.
 *
 * The clock is injected (tests move it by hand); it only orders reads, nothing waits on it.
 */
export interface RecentReadsOptions {
  refreshAfterMs: number;
  maxStaleMs: number;
  /** Most keys kept; the least recently read go first. */
  maxKeys?: number;
  now?: () => number;
}

interface Reading<V> {
  promise: Promise<V>;
  startedAt: number;
  generation: number;
}

interface Known<V> {
  value: V;
  startedAt: number;
  generation: number;
}

export class RecentReads<V> {
  private readonly known = new Map<string, Known<V>>();
  private readonly reading = new Map<string, Reading<V>>();
  private generation = 0;
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(private readonly options: RecentReadsOptions) {
    if (options.refreshAfterMs > options.maxStaleMs) throw new Error('RecentReads: refreshAfterMs must not exceed maxStaleMs');
    this.now = options.now ?? (() => performance.now());
    this.maxKeys = options.maxKeys ?? 1024;
  }

  read(key: string, read: () => Promise<V>): Promise<V> {
    return Promise.resolve(this.readNow(key, read));
  }

  /**
   * As `read`, but a value recent enough comes back as is, not in a promise: a caller can
   * tell at once whether it has to wait for the database (answers.ts serves its last
   * answer meanwhile).
   */
  readNow(key: string, read: () => Promise<V>): V | Promise<V> {
    const now = this.now();
    const known = this.known.get(key);
    if (known && known.generation === this.generation && now - known.startedAt <= this.options.maxStaleMs) {
      if (now - known.startedAt > this.options.refreshAfterMs && !this.usable(this.reading.get(key), now)) {
        // refresh in the background; its failure drops the value, the next request reads again
        this.begin(key, read).catch(() => undefined);
      }
      return known.value;
    }
    const running = this.reading.get(key);
    if (running && this.usable(running, now)) return running.promise;
    return this.begin(key, read);
  }

  /** This process changed what the values are read from: nothing read before now is served again. */
  invalidate(): void {
    this.generation++;
    this.known.clear();
  }

  private usable(running: Reading<V> | undefined, now: number): running is Reading<V> {
    return running !== undefined && running.generation === this.generation && now - running.startedAt <= this.options.maxStaleMs;
  }

  private begin(key: string, read: () => Promise<V>): Promise<V> {
    const startedAt = this.now();
    const generation = this.generation;
    const promise = read();
    const slot: Reading<V> = { promise, startedAt, generation };
    this.reading.set(key, slot);
    const done = () => {
      if (this.reading.get(key) === slot) this.reading.delete(key);
    };
    promise.then(
      (value) => {
        done();
        const known = this.known.get(key);
        if (generation !== this.generation || (known && known.startedAt > startedAt)) return;
        this.known.delete(key); // most recently read last
        this.known.set(key, { value, startedAt, generation });
        if (this.known.size > this.maxKeys) this.known.delete(this.known.keys().next().value as string);
      },
      () => {
        done();
        const known = this.known.get(key);
        if (known && known.startedAt <= startedAt) this.known.delete(key);
      },
    );
    return promise;
  }
}
