/** A character that does not fit in one byte (V8 keeps a string without any one byte a character). */
const WIDE = /[\u0100-\uffff]/;

/**
 * The bytes a string's characters take in memory: one each when all fit in one byte, two
 * each otherwise (a HIT page with a single "–" in its title is two bytes a character).
 */
export const stringBytes = (text: string): number => (WIDE.test(text) ? 2 * text.length : text.length);

/**
 * A least-recently-used cache bounded by the total size of its values (for strings, the
 * bytes they take: stringBytes), not by their number: a HIT's question is a few kB or
 * 64 kB, and a batch of a thousand HITs should fit as well as one of ten. A value larger
 * than the whole budget is not kept.
 */
export class SizedCache<V> {
  private readonly entries = new Map<string, V>();
  private used = 0;

  constructor(
    private readonly budget: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Map keeps insertion order: moving the key to the end marks it most recently used
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.budget) return;
    for (const [oldest, old] of this.entries) {
      if (this.used + size <= this.budget) break;
      this.entries.delete(oldest);
      this.used -= this.sizeOf(old);
    }
    this.entries.set(key, value);
    this.used += size;
  }

  delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.used -= this.sizeOf(value);
  }

  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  /** The total size of the values kept. */
  get size(): number {
    return this.used;
  }

  get count(): number {
    return this.entries.size;
  }
}
