import type { BundledMarketplace } from '../bundled-marketplace.js';
import type { Database } from '../db/connection.js';
import type { RunningServer } from '../server.js';
import { onShutdownSignal } from './run.js';
import { stopLine } from './stop-line.js';

interface Owned {
  close(): Promise<void>;
  /** What it is, for the line printed on Ctrl-C ("the API at http://…"); none: not named there. */
  what: readonly string[];
}

/**
 * The one process lifecycle of the long-running commands (`start`, `demo`, `serve`):
 * resources are owned in the order they open and closed in reverse; Ctrl-C (SIGINT,
 * SIGTERM) aborts the work in flight, waits for it, closes everything, prints one line
 * (what stopped, and what the next start continues: `next`, asked at that moment) and
 * exits; a failure closes everything (quietly: the failure is what gets reported) before
 * it is thrown on. Made before anything opens, so a signal while starting is handled too.
 */
export class ProcessLifecycle {
  private readonly owned: Owned[] = [];
  private readonly abort = new AbortController();
  private work: Promise<unknown> | undefined;

  /** `endLine`: on a terminal, end the progress line a signal cuts short before the shutdown message. */
  constructor(opts: { endLine?: boolean; next: () => string }) {
    if (opts.endLine) {
      const end = () => process.stdout.write('\n');
      process.once('SIGINT', end);
      process.once('SIGTERM', end);
    }
    onShutdownSignal(async () => {
      this.abort.abort();
      await this.work?.catch(() => undefined);
      const owned = [...this.owned];
      for (const resource of [...owned].reverse()) await resource.close();
      return stopLine(
        owned.flatMap((r) => r.what),
        opts.next(),
      );
    });
  }

  /** Aborted once a signal arrived: work in flight stops at its next step. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get aborted(): boolean {
    return this.abort.signal.aborted;
  }

  /** `resource` is closed at shutdown, after the resources owned later; `what` names it in the line printed then. */
  own<T extends { close(): Promise<void> }>(resource: T, ...what: string[]): T {
    this.owned.push({ close: () => resource.close(), what });
    return resource;
  }

  /**
   * Owns what `opening` resolves to as soon as it does, and tracks the opening: a signal
   * meanwhile waits for it, then closes it with the rest.
   */
  open<T extends { close(): Promise<void> }>(opening: Promise<T>, what: (resource: T) => string[]): Promise<T> {
    return this.track(opening.then((resource) => this.own(resource, ...what(resource))));
  }

  /** The work a signal waits for before closing anything. */
  track<T>(work: Promise<T>): Promise<T> {
    this.work = work;
    return work;
  }

  /** Closes everything owned, in reverse, ignoring errors (a failure is on its way). */
  async closeAll(): Promise<void> {
    for (const resource of [...this.owned].reverse()) await resource.close().catch(() => undefined);
  }
}

/** How the line printed on Ctrl-C names a database: the dev database when this process started it, else nothing (it keeps running). */
export function databaseNames(database: Database): string[] {
  const devdb = database.target.devdb;
  return devdb ? [`the dev database at ${devdb.address} (its data stays in ${devdb.dataDir})`] : [];
}

/** The API server, and the dev database it started. */
export const serverNames = (server: RunningServer): string[] => [`the API at ${server.url}`, ...databaseNames(server.database)];

/** The bundled marketplace when this process runs it (one another process serves keeps running). */
export const marketplaceNames = (market: BundledMarketplace): string[] => (market.running ? [`the marketplace at ${market.url}`] : []);
