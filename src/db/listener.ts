import { createConnection } from 'node:net';
import type { ListenerAnswer } from './listener-answer.js';

/** Waited for a greeting before asking in HTTP; then for the answer. */
const GREETING_MS = 300;
const ANSWER_MS = 1500;
const ENOUGH_BYTES = 256;

/**
 * The first bytes the program at host:port sends: its greeting, else its answer to an
 * HTTP request (listener-answer.ts describes them). Never fails: an error or a silent
 * program gives what arrived until then.
 */
export function probeListener(host: string, port: number): Promise<ListenerAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let asked: NodeJS.Timeout | undefined;
    const socket = createConnection({ host, port });
    const done = (closed: boolean) => {
      clearTimeout(asked);
      clearTimeout(deadline);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.destroy();
      resolve({ bytes: Buffer.concat(chunks).subarray(0, ENOUGH_BYTES), closed });
    };
    const deadline = setTimeout(() => done(false), GREETING_MS + ANSWER_MS);
    socket.once('connect', () => {
      // a program that greets has said what it is; another is asked in HTTP
      asked = setTimeout(() => (received > 0 ? done(false) : socket.write(`GET / HTTP/1.0\r\nHost: ${host}:${port}\r\n\r\n`)), GREETING_MS);
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= ENOUGH_BYTES) done(false);
    });
    socket.once('end', () => done(true));
    socket.once('close', () => done(true));
    socket.once('error', () => done(true));
  });
}
