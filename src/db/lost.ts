import { errorMessage } from '../errors.js';

/**
 * Recognises the driver's errors for a database that stopped answering in the middle of a
 * command (the dev database killed, a server gone), so that the CLI can say so in one
 * line, and that running the command again is safe: every qrelay command that writes is
 * idempotent and crash-safe (imports commit behind an import record, publishing by
 * request tokens, rounds by recorded decisions), so a rerun completes what was cut off.
 */

const LOST = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoNotConnectedError',
  'MongoServerClosedError',
]);

/**
 * The network failure's own words, for driver errors that wrap one under another name
 * (a bulk write cut off answers MongoBulkWriteError "connection 9 to host:port closed").
 */
const LOST_MESSAGE =
  /\bconnection \d+ to \S+ (closed|timed out)\b|\bECONNREFUSED\b|\bECONNRESET\b|\bEPIPE\b|Server selection timed out|Topology is closed|Client must be connected/;

/** The driver error in `err` or its causes that says the database went away, if any. */
export function lostDatabaseError(err: unknown): Error | undefined {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (LOST.has(e.name) || (e.name.startsWith('Mongo') && LOST_MESSAGE.test(e.message))) return e;
  }
  return undefined;
}

/** The one line for a command whose database went away under it. */
export function lostDatabaseMessage(err: Error): string {
  const reason = errorMessage(err).split('\n')[0]!.slice(0, 200);
  return (
    `the database stopped answering in the middle of the command (${err.name}: ${reason}). ` +
    'Nothing is left half-done: once the database runs again (the next qrelay command starts the dev database by itself; ' +
    'with MONGODB_URI, start that server), run the same command again: that is safe, it completes what was cut off and repeats nothing'
  );
}
