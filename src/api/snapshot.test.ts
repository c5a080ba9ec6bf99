import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { renderedAnswer, SnapshotCache } from './snapshot.js';

/** A promise settled from outside, to order concurrent reads exactly. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('SnapshotCache', () => {
  it('computes once for any number of requests while the fingerprint holds, again when it changes', async () => {
    const cache = new SnapshotCache<string>();
    let fp = 'a';
    let computed = 0;
    const get = () =>
      cache.get(
        'k',
        async () => fp,
        async () => `value ${++computed} of ${fp}`,
      );
    const first = await Promise.all(Array.from({ length: 50 }, get));
    expect(new Set(first)).toEqual(new Set(['value 1 of a']));
    expect(await get()).toBe('value 1 of a');
    fp = 'b';
    expect(await get()).toBe('value 2 of b');
    expect(computed).toBe(2);
  });

  it('computes once per fingerprint even when requests read it separately', async () => {
    const cache = new SnapshotCache<string>();
    let computed = 0;
    const gate = deferred<void>();
    const slow = async () => {
      await gate.promise;
      return `v${++computed}`;
    };
    const all = Promise.all([cache.get('k', async () => 'a', slow), cache.get('k', async () => 'a', slow)]);
    gate.resolve();
    expect(await all).toEqual(['v1', 'v1']);
  });
  it('keeps no failure: a failed read or computation is tried again by the next request', async () => {
    const cache = new SnapshotCache<number>();
    await expect(
      cache.get(
        'k',
        () => Promise.reject(new Error('no such batch')),
        async () => 1,
      ),
    ).rejects.toThrow('no such batch');
    await expect(
      cache.get(
        'k',
        async () => 'a',
        () => Promise.reject(new Error('db down')),
      ),
    ).rejects.toThrow('db down');
    expect(
      await cache.get(
        'k',
        async () => 'a',
        async () => 7,
      ),
    ).toBe(7);
  });

  it('holds at most maxEntries keys, dropping the least recently used', async () => {
    const cache = new SnapshotCache<string>(2);
    let computed = 0;
    const get = (k: string) =>
      cache.get(
        k,
        async () => 'same',
        async () => `${k}${++computed}`,
      );
    await get('a');
    await get('b');
    await get('a'); // a used last: b goes
    await get('c');
    expect(await get('a')).toBe('a1');
    expect(await get('b')).toBe('b4');
  });
});

describe('renderedAnswer', () => {
  it('gzips a large body once, and leaves a small one plain', () => {
    const large = renderedAnswer(JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ item: i, label: 'yes' }))), 'application/json');
    expect(large.gzip).not.toBeNull();
    expect(gunzipSync(large.gzip!).equals(large.body)).toBe(true);
    expect(large.gzip!.length).toBeLessThan(large.body.length / 4);
    expect(renderedAnswer('{"ok":true}', 'application/json').gzip).toBeNull();
  });

  it('carries the body as UTF-8 and a strong ETag of it', () => {
    const a = renderedAnswer('κ 0.5', 'application/json');
    const b = renderedAnswer('κ 0.6', 'application/json');
    expect(a.body.toString('utf8')).toBe('κ 0.5');
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(a.etag).not.toBe(b.etag);
  });
});
