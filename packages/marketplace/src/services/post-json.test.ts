import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from './post-json.js';

const got: { path: string; type: string | undefined; agent: string | undefined; body: string }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({
        path: req.url ?? '',
        type: req.headers['content-type'],
        agent: req.headers['user-agent'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if (req.url === '/silent') return;
      res.writeHead(req.url === '/fail' ? 503 : 200).end('ignored');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('postJson', () => {
  it('posts the body as JSON with the user agent and answers the status', async () => {
    got.length = 0;
    expect(await postJson(`${base}/ok`, '{"Events":["é"]}', 5_000, 'ua-test')).toBe(200);
    expect(await postJson(`${base}/fail`, '{}', 5_000, 'ua-test')).toBe(503);
    expect(got).toEqual([
      { path: '/ok', type: 'application/json', agent: 'ua-test', body: '{"Events":["é"]}' },
      { path: '/fail', type: 'application/json', agent: 'ua-test', body: '{}' },
    ]);
  });

  it('fails on a silent destination after the timeout, on a refused connection, and on what is not an http(s) URL', async () => {
    await expect(postJson(`${base}/silent`, '{}', 200, 'ua')).rejects.toThrow('no answer within 200 ms');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(postJson(`http://127.0.0.1:${port}/`, '{}', 5_000, 'ua')).rejects.toThrow(/ECONNREFUSED/);
    await expect(postJson('arn:aws:sqs:us-east-1:1:q', '{}', 5_000, 'ua')).rejects.toThrow('only http and https destinations');
    await expect(postJson('not a url', '{}', 5_000, 'ua')).rejects.toThrow('not a URL: not a url');
  });
});
