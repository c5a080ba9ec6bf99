import { describe, expect, it } from 'vitest';
import { RecentReads } from './recent-reads.js';

/** A promise settled from outside, to order concurrent reads exactly. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

/** A RecentReads on a hand-moved clock, and the reads it started (each settled by the test). */
function harness(refreshAfterMs = 250, maxStaleMs = 1000) {
  let now = 0;
  const reads: Array<ReturnType<typeof deferred<string>> & { key: string; at: number }> = [];
  const recent = new RecentReads<string>({ refreshAfterMs, maxStaleMs, now: () => now });
  const read = (key = 'k') =>
    recent.read(key, () => {
      const d = { ...deferred<string>(), key, at: now };
      reads.push(d);
      return d.promise;
    });
  return { recent, reads, read, advance: (ms: number) => void (now += ms) };
}

describe('RecentReads', () => {
  it('serves a value from memory while it is recent, and shares one read among the requests that wait', async () => {
    const { reads, read, advance } = harness();
    const waiting = [read(), read(), read()];
    expect(reads).toHaveLength(1);
    reads[0]!.resolve('v1');
    expect(await Promise.all(waiting)).toEqual(['v1', 'v1', 'v1']);
    advance(200);
    expect(await read()).toBe('v1');
    expect(reads).toHaveLength(1); // within refreshAfterMs: no read at all
  });

  it('past refreshAfterMs answers at once and refreshes in the background, one read at a time', async () => {
    const { reads, read, advance } = harness();
    const first = read();
    reads[0]!.resolve('v1');
    await first;
    advance(300);
    expect(await read()).toBe('v1');
    expect(await read()).toBe('v1');
    expect(reads).toHaveLength(2); // one background refresh for both requests
    reads[1]!.resolve('v2');
    await tick();
    expect(await read()).toBe('v2');
    expect(reads).toHaveLength(2);
  });

  it('never serves a value read more than maxStaleMs before the request arrived', async () => {
    const { reads, read, advance } = harness();
    const first = read();
    reads[0]!.resolve('v1');
    await first;
    advance(1001);
    const late = read(); // too old: waits for a new read
    expect(reads).toHaveLength(2);
    let settled = false;
    void late.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    reads[1]!.resolve('v2');
    expect(await late).toBe('v2');
  });

  it('does not let a request join a read that started more than maxStaleMs before it', async () => {
    const { reads, read, advance } = harness();
    const slow = read();
    advance(1200); // the read is still running, and now too old for a newcomer
    const newcomer = read();
    expect(reads).toHaveLength(2);
    reads[1]!.resolve('new');
    expect(await newcomer).toBe('new');
    reads[0]!.resolve('old'); // the old read ends last: it must not replace the newer value
    expect(await slow).toBe('old');
    await tick();
    expect(await read()).toBe('new');
  });

  it("after invalidate(), no request gets a value or a running read from before it (this process's own write)", async () => {
    const { recent, reads, read } = harness();
    const first = read();
    reads[0]!.resolve('before');
    await first;
    const running = read('other');
    recent.invalidate(); // the write: both the known value of k and the running read of other are stale
    const k = read();
    const other = read('other');
    expect(reads.map((r) => r.key)).toEqual(['k', 'other', 'k', 'other']);
    reads[1]!.resolve('other before');
    expect(await running).toBe('other before'); // its own requester still gets it
    reads[2]!.resolve('after');
    reads[3]!.resolve('other after');
    expect(await k).toBe('after');
    expect(await other).toBe('other after');
    await tick();
    expect(await read('other')).toBe('other after'); // the stale read was not kept
    expect(reads).toHaveLength(4);
  });

  it('keeps no failure: its waiters get the error, the next request reads again, a failed refresh drops the value', async () => {
    const { reads, read, advance } = harness();
    const failing = read();
    reads[0]!.reject(new Error('no such batch'));
    await expect(failing).rejects.toThrow('no such batch');
    const again = read();
    expect(reads).toHaveLength(2);
    reads[1]!.resolve('v1');
    expect(await again).toBe('v1');
    advance(300);
    expect(await read()).toBe('v1'); // starts a background refresh
    reads[2]!.reject(new Error('batch deleted'));
    await tick();
    const after = read(); // the value is gone: this request waits for a read and sees the error
    expect(reads).toHaveLength(4);
    reads[3]!.reject(new Error('batch deleted'));
    await expect(after).rejects.toThrow('batch deleted');
  });

  it('keeps at most maxKeys values, forgetting the least recently read', async () => {
    let reads = 0;
    const recent = new RecentReads<string>({ refreshAfterMs: 250, maxStaleMs: 1000, maxKeys: 2, now: () => 0 });
    const read = (key: string) => recent.read(key, async () => `${key}${++reads}`);
    await read('a');
    await read('b');
    await tick();
    await read('c');
    await tick();
    expect(await read('b')).toBe('b2');
    expect(await read('a')).toBe('a4'); // a was forgotten: read again
  });

  it('readNow gives a recent value as is, and a promise only when the request has to wait for a read', async () => {
    const { recent, reads, advance } = harness();
    const read = () =>
      recent.readNow('k', () => {
        const d = { ...deferred<string>(), key: 'k', at: 0 };
        reads.push(d);
        return d.promise;
      });
    const waiting = read();
    expect(waiting).toBeInstanceOf(Promise);
    reads[0]!.resolve('v1');
    expect(await waiting).toBe('v1');
    await tick();
    expect(read()).toBe('v1');
    advance(300);
    expect(read()).toBe('v1'); // past refreshAfterMs: still at once, the refresh in the background
    expect(reads).toHaveLength(2);
    recent.invalidate();
    expect(read()).toBeInstanceOf(Promise); // a write of this process: nothing from before it
  });

  it('refuses options where a refresh would come after the value is already too old', () => {
    expect(() => new RecentReads({ refreshAfterMs: 2000, maxStaleMs: 1000 })).toThrow('refreshAfterMs must not exceed maxStaleMs');
  });
});
