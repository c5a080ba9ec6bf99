import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FreshReads, renderedAnswer, SnapshotCache } from './snapshot.js';

/** A promise settled from outside, to order concurrent reads exactly. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

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

describe('FreshReads', () => {
  it('never answers a request from a read that started before it arrived, and shares reads', async () => {
    const fresh = new FreshReads<string>();
    const reads: Array<ReturnType<typeof deferred<string>>> = [];
    const read = () => {
      const d = deferred<string>();
      reads.push(d);
      return d.promise;
    };
    const early = fresh.read('k', read);
    await tick();
    // the data changes now; these requests arrive while the first read is running
    const late = fresh.read('k', read);
    const later = fresh.read('k', read);
    const otherKey = fresh.read('other', read);
    await tick();
    expect(reads).toHaveLength(2); // the late ones wait for the next read of k; another key reads at once
    reads[0]!.resolve('v1');
    expect(await early).toBe('v1');
    await tick();
    expect(reads).toHaveLength(3);
    reads[2]!.resolve('v2');
    expect(await late).toBe('v2');
    expect(await later).toBe('v2');
    reads[1]!.resolve('o');
    expect(await otherKey).toBe('o');
  });

  it('lets a failed read fail its waiters only', async () => {
    const fresh = new FreshReads<string>();
    await expect(fresh.read('k', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await fresh.read('k', async () => 'back')).toBe('back');
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
