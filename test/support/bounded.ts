import type { ChildProcess } from 'node:child_process';

/**
 * Waits that end. A test that waits on an event, a condition or a child process gives each
 * wait a bound with a message saying what did not happen, so a busy machine shows a failure
 * naming the wait instead of a hang until the test timeout.
 */

/** `work`, or a rejection naming `what` once `ms` have passed without it settling. */
export function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** True once the child has exited (by itself or by a signal). */
export const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

/** Resolves when the child has exited, also when it did before this was called (its 'exit' event is then long gone). */
export function exited(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Stops the child with `signal` and waits for its exit; SIGKILL when it has not exited within `ms`. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', ms = 15_000): Promise<void> {
  if (hasExited(child)) return;
  child.kill(signal);
  try {
    await within(ms, `the child process ${child.pid} stopping on ${signal}`, exited(child));
  } catch {
    child.kill('SIGKILL');
    await exited(child);
  }
}

/** Polls `probe` until `ok` holds of its value; fails after `ms`, showing the last value and what was wanted. */
export async function until<T>(ms: number, wanted: string, probe: () => Promise<T>, ok: (value: T) => boolean, everyMs = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${wanted}: not within ${ms / 1000} s; last seen ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
