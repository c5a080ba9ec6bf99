import { describe, expect, it } from 'vitest';
import { SizedCache, stringBytes } from './sized-cache.js';

const strings = (budget: number) => new SizedCache<string>(budget, (s) => s.length);

describe('SizedCache', () => {
  it('answers what it holds and nothing else', () => {
    const c = strings(10);
    c.set('a', 'xxx');
    expect(c.get('a')).toBe('xxx');
    expect(c.get('b')).toBeUndefined();
    expect(c.size).toBe(3);
  });

  it('evicts the least recently used values until the new one fits', () => {
    const c = strings(10);
    c.set('a', 'aaaa');
    c.set('b', 'bbbb');
    c.get('a'); // b is now the oldest
    c.set('c', 'cccc');
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe('aaaa');
    expect(c.get('c')).toBe('cccc');
    expect(c.size).toBe(8);
    expect(c.count).toBe(2);
  });

  it('evicts as many values as the new one needs', () => {
    const c = strings(10);
    for (const k of ['a', 'b', 'c', 'd', 'e']) c.set(k, 'xx');
    c.set('big', 'yyyyyyyyy');
    expect(c.count).toBe(1);
    expect(c.size).toBe(9);
    expect(c.get('big')).toBe('yyyyyyyyy');
  });

  it('replacing a key counts its new size only', () => {
    const c = strings(10);
    c.set('a', 'xxxxxx');
    c.set('a', 'yy');
    expect(c.size).toBe(2);
    expect(c.get('a')).toBe('yy');
  });

  it('does not keep a value larger than its budget, nor lets it evict the others', () => {
    const c = strings(4);
    c.set('a', 'xx');
    c.set('huge', 'yyyyy');
    expect(c.get('huge')).toBeUndefined();
    expect(c.get('a')).toBe('xx');
    expect(c.size).toBe(2);
  });

  it('forgets a deleted key and its size', () => {
    const c = strings(10);
    c.set('a', 'xxx');
    c.delete('a');
    c.delete('missing');
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('counts a string by the bytes its characters take: one each when all fit in one byte, two each otherwise', () => {
    expect(stringBytes('')).toBe(0);
    expect(stringBytes('plain ascii')).toBe(11);
    expect(stringBytes('ça ü ÿ')).toBe(6);
    expect(stringBytes('query–chunk')).toBe(22);
    expect(stringBytes('a😀')).toBe(6);
    // a cache of such strings holds half as many two-byte ones
    const c = new SizedCache<string>(10, stringBytes);
    c.set('a', 'abcd');
    c.set('b', '–x');
    c.set('c', 'ab');
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual(['abcd', '–x', 'ab']);
    c.set('d', '––');
    expect(c.get('a')).toBeUndefined();
    expect(c.size).toBe(10);
  });
});
