import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Snapshots of expensive read answers (a batch's status, its report), keyed by a cheap
 * fingerprint of what they were computed from (src/api/answers.ts gets it from memory,
 * with a bounded staleness: recent-reads.ts). The snapshot serves while the fingerprint is
 * unchanged. Computing coalesces: one computation per key and fingerprint, however many
 * requests wait. `get` waits for the answer of the current fingerprint; `getStale` answers
 * at once with the last value computed while one computation of the current one runs in
 * the background (stale-while-revalidate), so that no request waits for a rebuild.
 */
/** A second level shared by every process on the database (and kept across restarts). */
export interface SnapshotStore<T> {
  /** The stored value for this key if it was computed at this fingerprint, else null. */
  load(key: string, fingerprint: string): Promise<T | null>;
  save(key: string, fingerprint: string, value: T): Promise<void>;
}

/** A fingerprint known at once (from memory), or one being read. */
export type Fingerprint = () => string | Promise<string>;

let lastTicket = 0;

/**
 * Increasing numbers that order the reads of fingerprints with other events of this process
 * (a write acknowledged to a client: answers.ts), across every cache.
 */
export function snapshotTicket(): number {
  return ++lastTicket;
}

interface Entry<T> {
  fingerprint: string;
  value: T;
  /** The ticket taken before the fingerprint read that produced or last confirmed it: a later one is never replaced by an earlier one. */
  asOf: number;
}

export class SnapshotCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly computing = new Map<string, { fingerprint: string; promise: Promise<T> }>();
  /** Keys whose revalidation `getStale` runs in the background: one at a time per key. */
  private readonly revalidating = new Set<string>();

  constructor(
    private readonly maxEntries = 64,
    private readonly store?: SnapshotStore<T>,
  ) {}

  /** The value of the current fingerprint: from memory, from a computation running for it, or computed now. */
  async get(key: string, fingerprint: Fingerprint, compute: () => Promise<T>): Promise<T> {
    const asOf = snapshotTicket();
    const fp = await fingerprint();
    const hit = this.entries.get(key);
    if (hit && hit.fingerprint === fp) {
      hit.asOf = Math.max(hit.asOf, asOf);
      return this.used(key, hit).value;
    }
    const running = this.computing.get(key);
    if (running && running.fingerprint === fp) return running.promise;
    return this.begin(key, fp, asOf, compute);
  }

  /**
   * Stale-while-revalidate: the value of the current fingerprint when it is known at once
   * and in memory; otherwise the last value computed for the key, at once, while one
   * computation (or fingerprint read) runs in the background. A key never computed waits
   * as with `get`. A failed revalidation drops the last value: the next request waits, and
   * sees the failure (a batch deleted meanwhile answers 404, not its last report).
   * `notBefore`: a ticket (snapshotTicket); a value not confirmed since is not served as is
   * but checked as with `get` (answers.ts: after a write acknowledged to a client).
   */
  getStale(key: string, fingerprint: Fingerprint, compute: () => Promise<T>, notBefore = 0): Promise<T> {
    const hit = this.entries.get(key);
    if (!hit || hit.asOf < notBefore) return this.get(key, fingerprint, compute);
    const fp = fingerprint();
    if (fp === hit.fingerprint) return Promise.resolve(this.used(key, hit).value);
    if (!this.revalidating.has(key)) {
      this.revalidating.add(key);
      this.get(key, () => fp, compute)
        .catch(() => {
          if (this.entries.get(key) === hit) this.entries.delete(key);
        })
        .finally(() => this.revalidating.delete(key));
    }
    return Promise.resolve(hit.value);
  }

  /** The value last computed for this key, whatever its fingerprint (an answer while a write is under way: answers.ts). */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
  }

  private used(key: string, entry: Entry<T>): Entry<T> {
    this.entries.delete(key); // most recently used last
    this.entries.set(key, entry);
    return entry;
  }

  private begin(key: string, fingerprint: string, asOf: number, compute: () => Promise<T>): Promise<T> {
    const promise = this.loadOrCompute(key, fingerprint, compute).then((value) => {
      // two computations of one key may overlap (a fingerprint changed meanwhile): the one of the later read stays
      const known = this.entries.get(key);
      if (!known || known.asOf < asOf) {
        this.used(key, { fingerprint, value, asOf });
        if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      }
      return value;
    });
    const slot = { fingerprint, promise };
    this.computing.set(key, slot);
    const clear = () => {
      if (this.computing.get(key) === slot) this.computing.delete(key);
    };
    promise.then(clear, clear);
    return promise;
  }

  private async loadOrCompute(key: string, fingerprint: string, compute: () => Promise<T>): Promise<T> {
    if (!this.store) return compute();
    // the store is an optimization: when it fails, the answer is computed as without it
    const stored = await this.store.load(key, fingerprint).catch(() => null);
    if (stored !== null) return stored;
    const value = await compute();
    await this.store.save(key, fingerprint, value).catch(() => undefined);
    return value;
  }
}

/** A rendered answer, ready to send as is; large ones also gzipped, once. */
export interface RenderedAnswer {
  body: Buffer;
  etag: string;
  type: string;
  /** The body gzipped, for clients that accept it (null when too small to gain). */
  gzip: Buffer | null;
}

/** Below this, gzip gains less than it costs. */
const GZIP_FROM_BYTES = 1400;

const gzip = promisify(gzipCallback);

/** The answer as sent: its bytes, ETag and, for a large one, its gzip (compressed on libuv's threads, not the event loop). */
export async function renderedAnswer(text: string, type: string): Promise<RenderedAnswer> {
  const body = Buffer.from(text, 'utf8');
  return {
    body,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    type,
    gzip: body.length >= GZIP_FROM_BYTES ? await gzip(body) : null,
  };
}

/**
 * `Cache-Control: no-cache` (RFC 9111 5.2.1.4): the client wants the answer of the batch as
 * it is now, waiting for a rebuild under way rather than getting the answer from before it.
 */
export function wantsFresh(req: Request): boolean {
  return /(^|[\s,])no-cache($|[\s,=])/i.test(req.get('Cache-Control') ?? '');
}

/**
 * Sends a snapshot: its precomputed ETag (so Express hashes nothing), 304 when the client
 * has it, the precomputed gzip when the client accepts it (a report is megabytes of JSON).
 */
export function sendAnswer(req: Request, res: Response, answer: RenderedAnswer): void {
  const gzip = answer.gzip !== null && req.acceptsEncodings('gzip', 'identity') === 'gzip';
  res.vary('Accept-Encoding');
  // one ETag per representation (RFC 9110 8.8.3): the gzipped bytes differ from the plain ones
  res.set('ETag', gzip ? `${answer.etag.slice(0, -1)}-gzip"` : answer.etag);
  res.type(answer.type);
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  if (gzip) res.set('Content-Encoding', 'gzip');
  res.status(200).send(gzip ? answer.gzip : answer.body);
}
