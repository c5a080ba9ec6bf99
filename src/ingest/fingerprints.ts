import { createHash } from 'node:crypto';

export type FingerprintCheck = { status: 'new' } | { status: 'identical'; firstLine: number } | { status: 'conflict'; firstLine: number };

// One slot: key hash (2 words), content hash (2 words), line of first occurrence (0: empty).
const WORDS = 5;

function digest64(text: string): [number, number] {
  const d = createHash('sha256').update(text).digest();
  return [d.readUInt32LE(0), d.readUInt32LE(4)];
}

/**
 * Remembers which keys a file has used, and a hash of each one's content, in about
 * 40 bytes per key (an open-addressing table of 64-bit hashes in a typed array), never the
 * content itself. A 64-bit key collision (odds about n²/3.7e19) would show as a false
 * conflict, never as a silently dropped record.
 */
export class FingerprintTable {
  private slots = new Uint32Array(WORDS * 1024);
  private used = 0;

  get size(): number {
    return this.used;
  }

  /** Records the first occurrence of `key`, or says how a later one compares. */
  check(key: string, content: string, line: number): FingerprintCheck {
    const [k0, k1] = digest64(key);
    const [c0, c1] = digest64(content);
    const slot = this.find(k0, k1);
    const at = slot * WORDS;
    const firstLine = this.slots[at + 4]!;
    if (firstLine !== 0) {
      const same = this.slots[at + 2] === c0 && this.slots[at + 3] === c1;
      return { status: same ? 'identical' : 'conflict', firstLine };
    }
    this.slots.set([k0, k1, c0, c1, line], at);
    this.used += 1;
    if (this.used * 2 > this.capacity()) this.grow();
    return { status: 'new' };
  }

  private capacity(): number {
    return this.slots.length / WORDS;
  }

  /** The slot holding (k0, k1), or the empty slot where it belongs (linear probing). */
  private find(k0: number, k1: number): number {
    const slots = this.slots;
    const mask = slots.length / WORDS - 1;
    for (let i = k0 & mask; ; i = (i + 1) & mask) {
      const at = i * WORDS;
      if (slots[at + 4] === 0 || (slots[at] === k0 && slots[at + 1] === k1)) return i;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += WORDS) {
      if (old[at + 4] === 0) continue;
      const to = this.find(old[at]!, old[at + 1]!) * WORDS;
      this.slots.set(old.subarray(at, at + WORDS), to);
    }
  }
}
