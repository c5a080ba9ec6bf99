import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Snapshots of expensive read answers (a batch's status, its report), keyed by a cheap
 * fingerprint of what they were computed from (src/api/answers.ts gets it from memory,
 * with a bounded staleness: recent-reads.ts). The snapshot serves while the fingerprint is
 * unchanged. Computing coalesces: one computation per key and fingerprint, however many
 * requests wait.
 */
/** A second level shared by every process on the database (and kept across restarts). */
export interface SnapshotStore<T> {
  /** The stored value for this key if it was computed at this fingerprint, else null. */
  load(key: string, fingerprint: string): Promise<T | null>;
  save(key: string, fingerprint: string, value: T): Promise<void>;
}

export class SnapshotCache<T> {
  private readonly entries = new Map<string, { fingerprint: string; value: T }>();
  private readonly computing = new Map<string, { fingerprint: string; promise: Promise<T> }>();

  constructor(
    private readonly maxEntries = 64,
    private readonly store?: SnapshotStore<T>,
  ) {}

  async get(key: string, fingerprint: () => Promise<string>, compute: () => Promise<T>): Promise<T> {
    const fp = await fingerprint();
    const hit = this.entries.get(key);
    if (hit && hit.fingerprint === fp) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, hit);
      return hit.value;
    }
    const running = this.computing.get(key);
    if (running && running.fingerprint === fp) return running.promise;
    const promise = this.loadOrCompute(key, fp, compute).then((value) => {
      this.entries.delete(key);
      this.entries.set(key, { fingerprint: fp, value });
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      return value;
    });
    const slot = { fingerprint: fp, promise };
    this.computing.set(key, slot);
    const clear = () => {
      if (this.computing.get(key) === slot) this.computing.delete(key);
    };
    promise.then(clear, clear);
    return promise;
  }

  /** The value last computed for this key, whatever its fingerprint (an answer while a write is under way: answers.ts). */
  peek(key: string): T | undefined {
    return this.entries.get(key)?.value;
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

export function renderedAnswer(text: string, type: string): RenderedAnswer {
  const body = Buffer.from(text, 'utf8');
  return {
    body,
    etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
    type,
    gzip: body.length >= GZIP_FROM_BYTES ? gzipSync(body) : null,
  };
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
