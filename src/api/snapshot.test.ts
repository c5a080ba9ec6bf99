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

describe('SnapshotCache.getStale (stale-while-revalidate)', () => {
  /** A cache whose computations wait for the test, and the fingerprint it reports (a string: known at once). */
  function harness() {
    const cache = new SnapshotCache<string>();
    const state = { fp: 'a' as string | Promise<string>, computed: 0 };
    const gates: Array<ReturnType<typeof deferred<void>>> = [];
    const compute = async () => {
      const fp = await state.fp;
      const gate = deferred<void>();
      gates.push(gate);
      await gate.promise;
      return `value ${++state.computed} of ${fp}`;
    };
    const stale = () => cache.getStale('k', () => state.fp, compute);
    const fresh = () => cache.get('k', () => state.fp, compute);
    /** The first value of the key, computed (fingerprint a). */
    const primed = async () => {
      const first = stale();
      await tick();
      gates[0]!.resolve();
      return first;
    };
    return { cache, state, gates, stale, fresh, primed };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it('waits for the first value, then answers the last one at once while one rebuild runs, and the new one after', async () => {
    const { state, gates, stale, primed } = harness();
    expect(await primed()).toBe('value 1 of a');
    state.fp = 'b';
    // fifty requests during the rebuild: all the value from before, one computation
    expect(new Set(await Promise.all(Array.from({ length: 50 }, stale)))).toEqual(new Set(['value 1 of a']));
    await tick();
    expect(gates).toHaveLength(2);
    gates[1]!.resolve();
    await tick();
    expect(await stale()).toBe('value 2 of b');
    expect(state.computed).toBe(2);
  });

  it('starts no second rebuild of a key while one runs, even when the fingerprint changes again', async () => {
    const { state, gates, stale, primed } = harness();
    await primed();
    state.fp = 'b';
    await stale();
    state.fp = 'c';
    expect(await stale()).toBe('value 1 of a');
    await tick();
    expect(gates).toHaveLength(2); // b's rebuild only
    gates[1]!.resolve();
    await tick();
    // b's value is out of date too: served while c's rebuild runs
    expect(await stale()).toBe('value 2 of b');
    await tick();
    expect(gates).toHaveLength(3);
    gates[2]!.resolve();
    await tick();
    expect(await stale()).toBe('value 3 of c');
  });

  it('answers at once while the fingerprint itself is being read, and keeps the value when it turns out unchanged', async () => {
    const { state, gates, stale, primed } = harness();
    await primed();
    const read = deferred<string>();
    state.fp = read.promise;
    expect(await stale()).toBe('value 1 of a');
    read.resolve('a');
    state.fp = 'a';
    await tick();
    expect(await stale()).toBe('value 1 of a');
    expect(gates).toHaveLength(1); // nothing computed again
  });

  it('lets `get` wait for the current value while stale requests still get the last one; the later computation stays', async () => {
    const { state, gates, stale, fresh, primed } = harness();
    await primed();
    state.fp = 'b';
    const waiting = fresh();
    expect(await stale()).toBe('value 1 of a');
    await tick();
    expect(gates).toHaveLength(1 + 1); // one computation of b, shared by both
    gates[1]!.resolve();
    expect(await waiting).toBe('value 2 of b');
    expect(await stale()).toBe('value 2 of b');
  });

  it('keeps the value of the computation started last when an earlier one ends after it', async () => {
    const { state, gates, fresh } = harness();
    state.fp = 'a';
    const older = fresh();
    await tick();
    state.fp = 'b';
    const newer = fresh();
    await tick();
    gates[1]!.resolve();
    expect(await newer).toBe('value 1 of b');
    gates[0]!.resolve();
    expect(await older).toBe('value 2 of a');
    expect(await fresh()).toBe('value 1 of b');
  });

  it('drops the last value when its rebuild fails, so that the next request waits and sees the failure', async () => {
    const { cache, state, stale, primed } = harness();
    await primed();
    const gone = Promise.reject(new Error('no such batch'));
    gone.catch(() => undefined);
    state.fp = gone;
    expect(await stale()).toBe('value 1 of a');
    await tick();
    expect(cache.peek('k')).toBeUndefined();
    await expect(stale()).rejects.toThrow('no such batch');
  });
});

describe('renderedAnswer', () => {
  it('gzips a large body once, and leaves a small one plain', async () => {
    const large = await renderedAnswer(
      JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ item: i, label: 'yes' }))),
      'application/json',
    );
    expect(large.gzip).not.toBeNull();
    expect(gunzipSync(large.gzip!).equals(large.body)).toBe(true);
    expect(large.gzip!.length).toBeLessThan(large.body.length / 4);
    expect((await renderedAnswer('{"ok":true}', 'application/json')).gzip).toBeNull();
  });

  it('carries the body as UTF-8 and a strong ETag of it', async () => {
    const a = await renderedAnswer('κ 0.5', 'application/json');
    const b = await renderedAnswer('κ 0.6', 'application/json');
    expect(a.body.toString('utf8')).toBe('κ 0.5');
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(a.etag).not.toBe(b.etag);
  });
});
