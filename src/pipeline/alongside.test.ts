import { describe, expect, it } from 'vitest';
import { alongside, handOver } from './alongside.js';

/** A write that settles when told to, recording when it did. */
function write(log: string[], name: string) {
  let settle!: (ok: boolean) => void;
  const promise = new Promise<void>((resolve, reject) => {
    settle = (ok) => {
      log.push(`${name} ${ok ? 'done' : 'failed'}`);
      if (ok) resolve();
      else reject(new Error(`${name} failed`));
    };
  });
  promise.catch(() => undefined); // as the writers do: the await below throws it
  return { promise, settle };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('alongside', () => {
  it("answers the work's value once every pending write is done", async () => {
    const log: string[] = [];
    const a = write(log, 'a');
    const b = write(log, 'b');
    const run = alongside([a.promise, b.promise], async () => {
      log.push('work');
      return 42;
    }).then((v) => {
      log.push('returned');
      return v;
    });
    await tick();
    expect(log).toEqual(['work']);
    a.settle(true);
    await tick();
    expect(log).toEqual(['work', 'a done']);
    b.settle(true);
    expect(await run).toBe(42);
    expect(log).toEqual(['work', 'a done', 'b done', 'returned']);
  });

  it("throws the work's failure only after the writes settled, even when one of them failed too", async () => {
    const log: string[] = [];
    const a = write(log, 'a');
    const b = write(log, 'b');
    const run = alongside([a.promise, b.promise], () => Promise.reject(new Error('work failed'))).catch((err: Error) => {
      log.push(`threw ${err.message}`);
    });
    await tick();
    a.settle(false);
    await tick();
    expect(log).toEqual(['a failed']);
    b.settle(true);
    await run;
    expect(log).toEqual(['a failed', 'b done', 'threw work failed']);
  });

  it("throws a write's failure once all of them settled", async () => {
    const log: string[] = [];
    const a = write(log, 'a');
    const b = write(log, 'b');
    const run = alongside([a.promise, b.promise], async () => 'value').catch((err: Error) => {
      log.push(`threw ${err.message}`);
    });
    a.settle(false);
    await tick();
    expect(log).toEqual(['a failed']);
    b.settle(true);
    await run;
    expect(log).toEqual(['a failed', 'b done', 'threw a failed']);
  });

  it('takes a handed-over write that failed before the round awaited it, without an unhandled rejection, and throws it then', async () => {
    const pending: Promise<void>[] = [];
    handOver(pending, Promise.reject(new Error('write failed')));
    handOver(pending, Promise.resolve({ ok: 1 }));
    await tick(); // an unhandled rejection would be reported by now
    await expect(alongside(pending, async () => 'value')).rejects.toThrow('write failed');
  });
});
