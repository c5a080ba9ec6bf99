import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { UserError } from '../errors.js';
import { detectQrelsFormat, QrelsParser, stripBom, type QrelsParseResult } from './qrels-parse.js';
import { emptyPosteriorError, PosteriorParser, type Posterior } from './label-draws.js';
import { RunParser, type RunParseResult } from './run-parse.js';
import type { QrelsFormat } from './types.js';

/**
 * Streams a file's lines to `onLine` with 1-based numbers (line breaks `\n` or `\r\n`,
 * a leading BOM dropped). Lines are handed over synchronously, chunk by chunk: a run
 * file has millions of lines, and a promise per line (readline's async iterator) costs
 * more than parsing them. Errors thrown by `onLine` pass through unchanged; a file that
 * cannot be read is a UserError saying why.
 */
export async function forEachLine(file: string, onLine: (text: string, line: number) => void): Promise<void> {
  const input = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  let line = 0;
  const emit = (text: string) => {
    line++;
    const clean = text.endsWith('\r') ? text.slice(0, -1) : text;
    onLine(line === 1 ? stripBom(clean) : clean, line);
  };
  try {
    for await (const chunk of input as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        emit(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot read ${file}: ${reasonOf(err)}`, { cause: err });
  } finally {
    input.destroy();
  }
  if (rest !== '') emit(rest);
}

function reasonOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file; check the path';
  if (code === 'EISDIR') return 'it is a directory, not a file';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}

export interface ReadQrelsOptions {
  /** Skip detection (see detectQrelsFormat) and read the file as this format. */
  format?: QrelsFormat;
}

/** Reads base qrels, streaming; throws a UserError naming file and line on bad input. */
export async function readQrels(file: string, options: ReadQrelsOptions = {}): Promise<QrelsParseResult> {
  let parser: QrelsParser | undefined;
  await forEachLine(file, (text, line) => {
    if (!parser) {
      // The format is decided on the first non-blank line; blank lines before it are skipped.
      if (text.trim() === '') return;
      parser = new QrelsParser(file, options.format ?? detectQrelsFormat(file, text));
    }
    parser.addLine(text, line);
  });
  return (parser ?? new QrelsParser(file, options.format ?? detectQrelsFormat(file, undefined))).result();
}

export interface RunFile extends RunParseResult {
  file: string;
  /** The system's name in reports: the file's base name. */
  name: string;
}

/** Reads a TREC run file, streaming; throws a UserError naming file and line on bad input. */
export async function readRun(file: string): Promise<RunFile> {
  const parser = new RunParser(file);
  await forEachLine(file, (text, line) => parser.addLine(text, line));
  return { ...parser.result(), file, name: basename(file) };
}

/** Reads the `p_relevant` of `export-qrels --posterior` JSONL; errors name file, line and field. */
export async function readPosterior(file: string): Promise<Posterior> {
  const parser = new PosteriorParser(file);
  await forEachLine(file, (text, line) => parser.addLine(text, line));
  const posterior = parser.result();
  if (posterior.size === 0) throw emptyPosteriorError(file);
  return posterior;
}
