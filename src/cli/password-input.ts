import { readFile } from 'node:fs/promises';
import { UserError, errorMessage } from '../errors.js';

/**
 * Passwords for the CLI, never on the command line (where `ps` and the shell history
 * would keep them) and never echoed: from a file (or `-`, standard input), or typed on
 * the terminal with echo off.
 */

function firstLine(text: string, where: string): string {
  const line = text.split(/\r?\n/, 1)[0] ?? '';
  if (line === '') throw new UserError(`${where}: the first line (the password) is empty`);
  return line;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readPasswordFile(path: string): Promise<string> {
  if (path === '-') return firstLine(await readStdin(), '--password-file - (standard input)');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UserError(`--password-file ${path}: cannot read it (${errorMessage(err)})`);
  }
  return firstLine(text, `--password-file ${path}`);
}

/** Reads one line from the terminal without echoing it. */
function readHidden(prompt: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.resume();
    const done = (err?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new UserError('cancelled'));
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
  });
}

export async function askNewPassword(): Promise<string> {
  if (!process.stdin.isTTY)
    throw new UserError('--ask-password needs a terminal: use --password-file <file> (or - to read standard input) instead');
  const first = await readHidden('Password for the worker (not shown): ');
  if (first === '') throw new UserError('the password is empty');
  const again = await readHidden('The same password again: ');
  if (again !== first) throw new UserError('the two passwords differ; nothing was created');
  return first;
}
