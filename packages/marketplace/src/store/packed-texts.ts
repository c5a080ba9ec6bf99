import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SizedCache } from './sized-cache.js';

/** zlib's fastest level: a HIT page of 42 KB packs to about 8 KB in a quarter of a millisecond. */
const LEVEL = 1;

/**
 * `bytes` deflated at LEVEL, in a buffer of its own size. zlib's synchronous result is a
 * view of the 16 KB chunk it wrote into, which a kept view holds whole: a HIT page packed
 * to 8 KB held 16 KB, an answer packed to a few hundred bytes held 16 KB (a 12,168-case
 * `qrelay simulate` kept 68 MB of such chunks for 4,000 answers; issue 38, item 13).
 */
export function deflated(bytes: Uint8Array): Buffer {
  const chunk = deflateRawSync(bytes, { level: LEVEL });
  const own = Buffer.allocUnsafeSlow(chunk.length);
  chunk.copy(own);
  return own;
}

/** A character that does not fit in one byte. */
const WIDE = /[\u0100-\uffff]/;

/**
 * A text's bytes, deflated, and how they encode it: a text whose every character fits in one
 * byte (as a HIT page's does, its wide characters written as references) is kept one byte a
 * character (latin1), any other as UTF-8. Decoding UTF-8 with a few characters beyond ASCII
 * (a name's "é") took 0.25 ms for a 45 KB page, as long as unpacking it, against 0.01 ms
 * for latin1, and a requester polling every HIT reads thousands of them.
 */
interface Packed {
  bytes: Buffer;
  encoding: 'latin1' | 'utf8';
}

/**
 * Long texts kept in memory deflated, by key, least recently used first out of a budget of
 * packed bytes (SizedCache). HIT pages are made of one template and the texts of their
 * items, and deflate to about a fifth of their UTF-8 bytes (a tenth of the memory a page
 * with one wide character takes as a string), so a budget holds five to ten times as many
 * of them: a requester polling every HIT of a batch of 4,500 HITs (ListHITs) finds every
 * question here rather than reading 46 KB a HIT from the database each time.
 *
 * Packing and unpacking are synchronous: for a page of 42 KB zlib's asynchronous functions
 * (its stream, in 16 KB pieces through the thread pool) took 0.4 ms of the process's CPU
 * each way, against 0.24 ms to pack and 0.11 ms to unpack at once.
 */
export class PackedTexts {
  private readonly packed: SizedCache<Packed>;

  constructor(budget: number) {
    this.packed = new SizedCache<Packed>(budget, (p) => p.bytes.length);
  }

  get(key: string): string | undefined {
    const kept = this.packed.get(key);
    return kept && inflateRawSync(kept.bytes).toString(kept.encoding);
  }

  /** Keeps `text` under `key` (replacing what was kept there). */
  set(key: string, text: string): void {
    const encoding = WIDE.test(text) ? 'utf8' : 'latin1';
    this.packed.set(key, { bytes: deflated(Buffer.from(text, encoding)), encoding });
  }

  delete(key: string): void {
    this.packed.delete(key);
  }

  /** Texts kept. */
  get count(): number {
    return this.packed.count;
  }

  /** Packed bytes held. */
  get size(): number {
    return this.packed.size;
  }
}
