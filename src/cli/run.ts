// the error alone: the package's index loads the whole marketplace (its server, the worker site)
import { MarketplaceUserError } from '@qrelay/marketplace/errors';
import { lostDatabaseError, lostDatabaseMessage } from '../db/lost.js';
import { UserError, errorMessage } from '../errors.js';
import { stopLine } from './stop-line.js';

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

/** Set once Ctrl-C (SIGINT, SIGTERM) has begun a shutdown: see `action`. */
let stopping = false;

/**
 * Wraps a command action so every failure ends as one clear line and a non-zero exit. A
 * failure during a shutdown is left to it: on a terminal, Ctrl-C also reaches the dev
 * database this process starts, so a start cut short fails with "the dev database
 * exited", and the shutdown's own line says what stopped.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (!stopping) reportFailure(err);
    }
  };
}

let respond: ((signal: NodeJS.Signals) => void) | undefined;

/**
 * What SIGINT and SIGTERM do from now on. One listener each for the process's life, which
 * calls the latest response: removing a listener (the last one) closes Node's watcher of
 * that signal, and a signal that had arrived but was not yet dispatched is then lost.
 */
function respondToSignals(response: (signal: NodeJS.Signals) => void): void {
  if (respond === undefined) {
    const dispatch = (signal: NodeJS.Signals) => respond?.(signal);
    process.on('SIGINT', dispatch);
    process.on('SIGTERM', dispatch);
  }
  respond = response;
}

/**
 * Ctrl-C before a long-running command has its lifecycle (while its modules load, seconds
 * on a busy machine, when Node would end it without a word): nothing runs yet, so it exits
 * at once with the one line. `onShutdownSignal` takes over from it.
 */
export function stopEarlyOnSignal(command: string): void {
  respondToSignals(() => {
    process.stderr.write(`qrelay: ${stopLine([], `the next ${command} starts again`)}\n`);
    process.exit(0);
  });
}

/**
 * Runs `close` on SIGINT/SIGTERM, then prints the one line it returns (what stopped, what
 * the next start continues) and exits; a second signal exits at once.
 */
export function onShutdownSignal(close: () => Promise<string>): void {
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
  respondToSignals(handler);
}
