/**
 * What answers at an address that should have been a database (pure): the first bytes a
 * probe (listener.ts) got there, described for a person. The probe waits for a greeting
 * (SSH, SMTP and the like speak first), else sends an HTTP request, the likeliest program
 * on a local port; MongoDB answers one with a notice of its own.
 */

export interface ListenerAnswer {
  /** The first bytes received (possibly none). */
  bytes: Buffer;
  /** True when the program closed the connection. */
  closed: boolean;
}

/** The answer's first line, printable and bounded: outside text shown on a terminal. */
function firstLine(bytes: Buffer): string {
  const line = bytes.toString('latin1').split(/\r?\n/)[0] ?? '';
  const printable = line.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(printable.length > 60 ? `${printable.slice(0, 60)}…` : printable);
}

/** True when most bytes are printable text (a greeting or an HTTP answer), not a binary protocol. */
const isText = (bytes: Buffer): boolean =>
  bytes.filter((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127)).length >= bytes.length * 0.9;

/** What answers there, as a clause: "an HTTP server answers there ("HTTP/1.1 404 Not Found")". Null: it may be a database after all. */
export function describeListenerAnswer(answer: ListenerAnswer): string | null {
  const { bytes, closed } = answer;
  const text = bytes.toString('latin1');
  if (/MongoDB/i.test(text)) return null;
  if (text.startsWith('HTTP/')) return `an HTTP server answers there (${firstLine(bytes)})`;
  if (bytes.length > 0)
    return isText(bytes)
      ? `a program answers there with ${firstLine(bytes)}`
      : `a program answers there in a binary protocol other than MongoDB's (${bytes.length} bytes)`;
  return closed ? 'a program there closes connections without answering' : 'a program there accepts connections but does not answer';
}

/**
 * Why qrelay could not use the dev database at `address` (QRELAY_DEVDB_ADDRESS, MONGODB_URI
 * unset) though something listens there: what answers, and what to do.
 */
export function devdbAddressMessage(address: string, answer: ListenerAnswer, driverError: string): string {
  const what = describeListenerAnswer(answer);
  const todo =
    'stop what answers there, or set QRELAY_DEVDB_ADDRESS to a free host:port for the dev database (or MONGODB_URI to a MongoDB server)';
  return what
    ? `QRELAY_DEVDB_ADDRESS ${address} (MONGODB_URI is unset) is not a database: ${what}; ${todo}`
    : `cannot reach the dev database at QRELAY_DEVDB_ADDRESS ${address} (MONGODB_URI is unset): ${driverError}; ${todo}`;
}
