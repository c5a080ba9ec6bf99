import { describe, expect, it } from 'vitest';
import { BackgroundWriter } from './background-writer.js';

describe('BackgroundWriter', () => {
  it('writes the keys changed meanwhile together, each once, in slices, and all of them by a flush', async () => {
    const calls: string[][] = [];
    const writer = new BackgroundWriter(
      async (keys) => {
        calls.push(keys);
      },
      60_000,
      2,
    );
    for (const k of ['a', 'b', 'a', 'c', 'b']) writer.add(k);
    // nothing yet: the writer waits a moment after the first change (a minute here)
    expect(calls).toEqual([]);
    await writer.flush();
    expect(calls).toEqual([['a', 'b'], ['c']]);
    await writer.flush();
    expect(calls).toHaveLength(2);
  });

  it('writes on its own a moment after a change, and takes the changes made during a write in the next', async () => {
    const calls: string[][] = [];
    let release: () => void = () => undefined;
    const writer = new BackgroundWriter(async (keys) => {
      calls.push(keys);
      if (calls.length === 1) await new Promise<void>((r) => (release = r));
    }, 1);
    writer.add('x');
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toEqual([['x']]);
    writer.add('y');
    writer.add('x');
    release();
    await writer.flush();
    expect(calls).toEqual([['x'], ['y', 'x']]);
  });

  it('keeps a failed write: the flush and every later change throw it', async () => {
    const writer = new BackgroundWriter(async () => {
      throw new Error('the database said no');
    }, 60_000);
    writer.add('a');
    await expect(writer.flush()).rejects.toThrow('the database said no');
    expect(() => writer.add('b')).toThrow('the database said no');
    await expect(writer.flush()).rejects.toThrow('the database said no');
  });
});
