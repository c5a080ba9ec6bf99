// the error alone: the package's index loads the whole marketplace (its server, the worker site)
import { MarketplaceUserError } from '@qrelay/marketplace/errors';
import { lostDatabaseError, lostDatabaseMessage } from '../db/lost.js';
import { UserError, errorMessage } from '../errors.js';

/** Exit codes: 1 for every failure a person can act on, 2 for usage errors (commander). */
export function reportFailure(err: unknown): never {
  // a UserError already says what to do (e.g. "cannot reach the database" at start);
  // the marketplace package has its own error for a person (it imports nothing of qrelay)
  const known = err instanceof UserError || err instanceof MarketplaceUserError;
  const lost = known ? undefined : lostDatabaseError(err);
  if (lost) {
    process.stderr.write(`qrelay: ${lostDatabaseMessage(lost)}\n`);
  } else if (known) {
    process.stderr.write(`qrelay: ${err.message}\n`);
  } else {
    process.stderr.write(`qrelay: unexpected error: ${errorMessage(err)} (set QRELAY_DEBUG=1 to see the stack trace)\n`);
  }
  if (process.env.QRELAY_DEBUG && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.exit(1);
}

/** Wraps a command action so every failure ends as one clear line and a non-zero exit. */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      reportFailure(err);
    }
  };
}

/**
 * Runs `close` on SIGINT/SIGTERM, then prints the one line it returns (what stopped, what
 * the next start continues) and exits; a second signal exits at once.
 */
export function onShutdownSignal(close: () => Promise<string>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`qrelay: second ${signal}, exiting without waiting\n`);
      process.exit(130);
    }
    stopping = true;
    close().then(
      (line) => {
        process.stderr.write(`qrelay: ${line}\n`);
        process.exit(0);
      },
      (err: unknown) => reportFailure(err),
    );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
