/**
 * Adds a write started by a stage to the round's `pending` ones (for `alongside`), handled
 * from this moment: a failure before the round awaits it is not an unhandled rejection (which
 * ends the process), and the round's await still throws it.
 */
export function handOver(pending: Promise<void>[], write: Promise<unknown>): void {
  const written = write.then(() => undefined);
  written.catch(() => undefined);
  pending.push(written);
}

/**
 * `work`, run while the `pending` writes go on, then those writes awaited: whatever fails, a
 * round never goes on (or lets its lease go) with writes of its own in flight. The first
 * failure is thrown, `work`'s before the writes'.
 */
export async function alongside<T>(pending: readonly Promise<void>[], work: () => Promise<T>): Promise<T> {
  let value: T;
  try {
    value = await work();
  } catch (err) {
    await Promise.allSettled(pending);
    throw err;
  }
  const failed = (await Promise.allSettled(pending)).find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return value;
}
