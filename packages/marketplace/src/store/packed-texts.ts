import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { SizedCache } from './sized-cache.js';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** zlib's fastest level: a HIT page of 42 KB packs to about 8 KB in a third of a millisecond. */
const LEVEL = 1;

/**
 * Long texts kept in memory deflated, by key, least recently used first out of a budget of
 * packed bytes (SizedCache). HIT pages are made of one template and the texts of their
 * items, and deflate to about a fifth of their UTF-8 bytes (a tenth of the memory a page
 * with one wide character takes as a string), so a budget holds five to ten times as many
 * of them: a requester polling every HIT of a batch of 4,500 HITs (ListHITs) finds every
 * question here rather than reading 46 KB a HIT from the database each time.
 *
 * Packing and unpacking run in zlib's thread pool, off the event loop. A text is readable
 * at once: until it is packed it is held as given.
 */
export class PackedTexts {
  private readonly packed: SizedCache<Buffer>;
  /** Texts being packed, by key. */
  private readonly packing = new Map<string, { text: string; done: Promise<void> }>();

  constructor(budget: number) {
    this.packed = new SizedCache<Buffer>(budget, (b) => b.length);
  }

  async get(key: string): Promise<string | undefined> {
    const pending = this.packing.get(key);
    if (pending) return pending.text;
    const bytes = this.packed.get(key);
    return bytes && (await inflate(bytes)).toString('utf8');
  }

  /** Keeps `text` under `key` (replacing what was kept there). */
  set(key: string, text: string): void {
    this.packed.delete(key);
    const entry = {
      text,
      done: deflate(Buffer.from(text, 'utf8'), { level: LEVEL }).then(
        (bytes) => {
          // set again or deleted meanwhile: the newer one stands
          if (this.packing.get(key) !== entry) return;
          this.packing.delete(key);
          this.packed.set(key, bytes);
        },
        () => {
          // not packed (zlib failed): not kept, read where it is stored
          if (this.packing.get(key) === entry) this.packing.delete(key);
        },
      ),
    };
    this.packing.set(key, entry);
  }

  delete(key: string): void {
    this.packing.delete(key);
    this.packed.delete(key);
  }

  /** Every text set so far is packed (or dropped). */
  async settled(): Promise<void> {
    await Promise.all([...this.packing.values()].map((e) => e.done));
  }

  /** Texts kept (packed or being packed). */
  get count(): number {
    return this.packed.count + this.packing.size;
  }

  /** Packed bytes held. */
  get size(): number {
    return this.packed.size;
  }
}
