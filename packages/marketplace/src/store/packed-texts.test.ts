import { describe, expect, it } from 'vitest';
import { PackedTexts } from './packed-texts.js';

// a page-like text: one template around varying items, with a wide character (two bytes a character as a string)
const page = (n: number) =>
  `<html><head><title>Item check – ${n}</title></head><body>${Array.from({ length: 40 }, (_, i) => `<p class="item" data-key="${n}-${i}">passage ${i} of page ${n}: ${'text '.repeat(20)}</p>`).join('\n')}</body></html>`;

describe('PackedTexts', () => {
  it('answers a text at once, before it is packed, and the same text once packed', async () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    expect(await texts.get('a')).toBe(page(1));
    await texts.settled();
    expect(await texts.get('a')).toBe(page(1));
    expect(await texts.get('b')).toBeUndefined();
    expect(texts.count).toBe(1);
  });

  it('holds a page in a fraction of its bytes', async () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    await texts.settled();
    expect(texts.size).toBeGreaterThan(0);
    expect(texts.size).toBeLessThan(Buffer.byteLength(page(1)) / 4);
  });

  it('keeps the newer of two texts set under one key while the first was being packed', async () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    texts.set('a', page(2));
    expect(await texts.get('a')).toBe(page(2));
    await texts.settled();
    expect(await texts.get('a')).toBe(page(2));
    expect(texts.count).toBe(1);
  });

  it('forgets a deleted text, also one deleted while it was being packed', async () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('a', page(1));
    texts.delete('a');
    texts.set('b', page(2));
    await texts.settled();
    texts.delete('b');
    expect(await texts.get('a')).toBeUndefined();
    expect(await texts.get('b')).toBeUndefined();
    expect(texts.count).toBe(0);
    expect(texts.size).toBe(0);
  });

  it('lets the least recently used texts go beyond its budget of packed bytes', async () => {
    const texts = new PackedTexts(1024 * 1024);
    texts.set('probe', page(0));
    await texts.settled();
    const each = texts.size;
    const small = new PackedTexts(Math.floor(each * 2.5));
    for (const k of [1, 2]) small.set(String(k), page(k));
    await small.settled();
    expect(await small.get('1')).toBe(page(1)); // 2 is now the least recently used
    small.set('3', page(3));
    await small.settled();
    expect(await small.get('2')).toBeUndefined();
    expect(await small.get('1')).toBe(page(1));
    expect(await small.get('3')).toBe(page(3));
  });
});
