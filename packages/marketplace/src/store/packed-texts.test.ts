import { describe, expect, it } from 'vitest';
import { inflateRawSync } from 'node:zlib';
import { PackedTexts, deflated } from './packed-texts.js';

// a page-like text: one template around varying items, with a wide character (two bytes a character as a string)
const page = (n: number) =>
  `<html><head><title>Item check – ${n}</title></head><body>${Array.from({ length: 40 }, (_, i) => `<p class="item" data-key="${n}-${i}">passage ${i} of page ${n}: ${'text '.repeat(20)}</p>`).join('\n')}</body></html>`;

describe('PackedTexts', () => {
  it('answers the text kept under a key, and nothing for another key', () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    expect(texts.get('a')).toBe(page(1));
    expect(texts.get('a')).toBe(page(1));
    expect(texts.get('b')).toBeUndefined();
    expect(texts.count).toBe(1);
  });

  it('answers texts of one-byte characters beyond ASCII, wide characters and NULs as they were', () => {
    const texts = new PackedTexts(1024 * 1024);
    const samples = [
      '',
      'plain ASCII',
      'naïve café, ÿ and \u0080 \u00ff \u0000 NUL',
      page(1).replace(/–/g, '&#8211;') + ' é',
      'wide – “quoted” 😀',
    ];
    samples.forEach((t, i) => texts.set(String(i), t));
    samples.forEach((t, i) => expect(texts.get(String(i))).toBe(t));
  });

  it('holds a page in a fraction of its bytes', () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    expect(texts.size).toBeGreaterThan(0);
    expect(texts.size).toBeLessThan(Buffer.byteLength(page(1)) / 4);
  });

  it('keeps the newer of two texts set under one key', () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    texts.set('a', page(2));
    expect(texts.get('a')).toBe(page(2));
    expect(texts.count).toBe(1);
  });

  it('forgets a deleted text', () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    texts.delete('a');
    expect(texts.get('a')).toBeUndefined();
    expect(texts.count).toBe(0);
    expect(texts.size).toBe(0);
  });

  it('lets the least recently used texts go beyond its budget of packed bytes', () => {
    const probe = new PackedTexts(1024 * 1024);
    probe.set('probe', page(0));
    const small = new PackedTexts(Math.floor(probe.size * 2.5));
    for (const k of [1, 2]) small.set(String(k), page(k));
    expect(small.get('1')).toBe(page(1)); // 2 is now the least recently used
    small.set('3', page(3));
    expect(small.get('2')).toBeUndefined();
    expect(small.get('1')).toBe(page(1));
    expect(small.get('3')).toBe(page(3));
  });
});

describe('deflated', () => {
  it('holds no more memory than its packed bytes, and inflates to the bytes it packed', () => {
    const bytes = Buffer.from(page(7), 'utf8');
    const packed = deflated(bytes);
    expect(packed.length).toBeLessThan(bytes.length / 2);
    expect(packed.buffer.byteLength).toBe(packed.length);
    expect(inflateRawSync(packed).equals(bytes)).toBe(true);
  });
});
