import { onShutdownSignal } from './run.js';

/**
 * The one process lifecycle of the long-running commands (`start`, `demo`, `serve`):
 * resources are owned in the order they open and closed in reverse; Ctrl-C (SIGINT,
 * SIGTERM) aborts the work in flight, waits for it, closes everything and exits; a failure
 * closes everything (quietly: the failure is what gets reported) before it is thrown on.
 */
export class ProcessLifecycle {
  private readonly closers: (() => Promise<void>)[] = [];
  private readonly abort = new AbortController();
  private work: Promise<unknown> | undefined;

  /** `endLine`: on a terminal, end the progress line a signal cuts short before the shutdown message. */
  constructor(opts: { endLine?: boolean } = {}) {
    if (opts.endLine) {
      const end = () => process.stdout.write('\n');
      process.once('SIGINT', end);
      process.once('SIGTERM', end);
    }
    onShutdownSignal(async () => {
      this.abort.abort();
      await this.work?.catch(() => undefined);
      for (const close of [...this.closers].reverse()) await close();
    });
  }

  /** Aborted once a signal arrived: work in flight stops at its next step. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get aborted(): boolean {
    return this.abort.signal.aborted;
  }

  /** `resource` is closed at shutdown, after the resources owned later. */
  own<T extends { close(): Promise<void> }>(resource: T): T {
    this.closers.push(() => resource.close());
    return resource;
  }

  /** The work a signal waits for before closing anything. */
  track<T>(work: Promise<T>): Promise<T> {
    this.work = work;
    return work;
  }

  /** Closes everything owned, in reverse, ignoring errors (a failure is on its way). */
  async closeAll(): Promise<void> {
    for (const close of [...this.closers].reverse()) await close().catch(() => undefined);
  }
}
