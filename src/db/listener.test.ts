import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { probeListener } from './listener.js';

/** The probe against real TCP servers on 127.0.0.1. */

let server: Server | undefined;

async function listening(onConnection: (socket: Socket) => void): Promise<number> {
  server = createServer(onConnection);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
}

afterEach(async () => {
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

describe('probeListener', () => {
  it('takes the greeting of a program that speaks first', async () => {
    const port = await listening((socket) => socket.write('SSH-2.0-test\r\n'));
    const answer = await probeListener('127.0.0.1', port);
    expect(answer.bytes.toString()).toBe('SSH-2.0-test\r\n');
  });

  it('asks in HTTP when the program waits, and gets its answer', async () => {
    const port = await listening((socket) =>
      socket.once('data', (d: Buffer) => socket.end(d.toString().startsWith('GET / HTTP/1.0\r\n') ? 'HTTP/1.0 418 Teapot\r\n\r\n' : 'no')),
    );
    const answer = await probeListener('127.0.0.1', port);
    expect(answer.bytes.toString()).toBe('HTTP/1.0 418 Teapot\r\n\r\n');
    expect(answer.closed).toBe(true);
  });

  it('sees a program that hangs up at once', async () => {
    const port = await listening((socket) => socket.destroy());
    expect(await probeListener('127.0.0.1', port)).toEqual({ bytes: Buffer.alloc(0), closed: true });
  });
});
