import { describe, expect, it } from 'vitest';
import { KeyedMutex, Mutex } from './mutex.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('mutexes', () => {
  it('run work one at a time, in order, even when some fails', async () => {
    const m = new Mutex();
    const log: string[] = [];
    const job = (name: string, fail = false) =>
      m.run(async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a'), job('b', true), job('c')]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('serialize per key and let other keys run alongside', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const job = (key: string, name: string) =>
      m.run(key, async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
      });
    await Promise.all([job('x', 'x1'), job('y', 'y1'), job('x', 'x2')]);
    expect(log.indexOf('end x1')).toBeLessThan(log.indexOf('start x2'));
    expect(log.indexOf('start y1')).toBeLessThan(log.indexOf('end x1'));
  });

  it('hold many keys at once: work on any of them waits, and two such holders do not wait on each other', async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const one = (key: string) =>
      m.run(key, async () => {
        log.push(`start ${key}`);
        await tick();
        log.push(`end ${key}`);
      });
    const all = (name: string, keys: string[]) =>
      m.runAll(keys, async () => {
        log.push(`start ${name}`);
        await tick();
        log.push(`end ${name}`);
        return name;
      });
    const results = await Promise.all([one('b'), all('ab', ['b', 'a', 'b']), all('ba', ['a', 'b']), one('a')]);
    expect(results[1]).toBe('ab');
    // each holder of all keys runs alone: after the work already on its keys, before the work asked for later
    expect(log.indexOf('end b')).toBeLessThan(log.indexOf('start ab'));
    expect(log.indexOf('end ab')).toBeLessThan(log.indexOf('start ba'));
    expect(log.indexOf('end ba')).toBeLessThan(log.indexOf('start a'));
  });
});
