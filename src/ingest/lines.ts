import { createReadStream } from 'node:fs';
import { UserError } from '../errors.js';

/** One line of a file: its text, or why it cannot be read as text. */
export type RawLine = { line: number; text: string } | { line: number; problem: string };

export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;
const BOM = '\ufeff';

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

function openFailure(file: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const why: Record<string, string> = {
    ENOENT: 'no such file: check the path',
    EISDIR: 'it is a directory, not a file',
    EACCES: 'permission denied',
  };
  return code && why[code] ? new UserError(`cannot read ${file}: ${why[code]}`, { cause: err }) : err;
}

/**
 * Reads a file line by line in constant memory: chunks of `chunkBytes`, lines split on
 * `\n` (a trailing `\r` dropped), decoded as strict UTF-8, a byte order mark at the start
 * of a line ignored. A line longer than `maxLineBytes` is never held: its bytes are
 * skipped up to the next newline and it comes out as a problem. Yields the lines of each
 * chunk together, which keeps the per-line cost of async iteration off the hot path.
 */
export async function* readLines(
  file: string,
  { maxLineBytes = DEFAULT_MAX_LINE_BYTES, chunkBytes = 1024 * 1024 } = {},
): AsyncGenerator<RawLine[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let line = 0;

  const finish = (): RawLine => {
    line += 1;
    const bytes = pendingBytes;
    const parts = pending;
    pending = [];
    pendingBytes = 0;
    if (overlong) {
      overlong = false;
      return {
        line,
        problem: `the line is ${sizeText(bytes)} long, over the limit of ${sizeText(maxLineBytes)}: a record this large is refused (split it, or raise the limit)`,
      };
    }
    const buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, bytes);
    let text: string;
    try {
      text = decoder.decode(buf);
    } catch {
      return { line, problem: 'the line is not valid UTF-8 text: save the file as UTF-8' };
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.startsWith(BOM)) text = text.slice(1);
    return { line, text };
  };

  const take = (piece: Buffer) => {
    pendingBytes += piece.length;
    if (overlong) return;
    if (pendingBytes > maxLineBytes) {
      overlong = true;
      pending = [];
    } else if (piece.length > 0) {
      pending.push(piece);
    }
  };

  let stream;
  try {
    stream = createReadStream(file, { highWaterMark: chunkBytes });
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const lines: RawLine[] = [];
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        take(chunk.subarray(start, nl));
        lines.push(finish());
        start = nl + 1;
      }
      take(chunk.subarray(start));
      if (lines.length > 0) yield lines;
    }
  } catch (err) {
    throw openFailure(file, err);
  } finally {
    stream?.destroy();
  }
  if (pendingBytes > 0 || overlong) yield [finish()];
}
