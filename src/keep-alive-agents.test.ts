import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetAccountBalanceCommand, MTurkClient, type MTurkClientConfig } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAliveAgents, keepAliveSdkHandler } from './keep-alive-agents.js';

/**
 * The race these agents exist for, provoked on purpose. A server announces
 * `Keep-Alive: timeout=2` and closes an idle connection after 2 s (Node 20: 3 s). Each
 * client sends one request, idles, and sends another at a moment between 1.8 s and 3.2 s,
 * while one long task holds the shared event loop from 1.7 s to 3.3 s: when it ends, the
 * server's close and the clients' requests are all due at once, as in a busy test run
 * or the bundled marketplace under load. A connection reused then is lost ("socket hang
 * up"). Agents that honour the announcement closed theirs at 1 s, before the long task.
 */

const KEEP_ALIVE_MS = 2000;
const SENDS_AT = Array.from({ length: 29 }, (_, i) => 1800 + 50 * i);
const LONG_TASK = { from: 1700, ms: 1600 };

let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify({ AvailableBalance: '10000.00' }));
    });
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function holdTheLoop(): void {
  setTimeout(() => {
    const until = Date.now() + LONG_TASK.ms;
    while (Date.now() < until) {
      // the long task
    }
  }, LONG_TASK.from);
}

/** Each sender's second request, sent after its idle time (SENDS_AT, again for each group); each group's failures. */
async function sendAcrossTheClose(groups: Array<Array<() => Promise<unknown>>>): Promise<string[][]> {
  await Promise.all(groups.flat().map((send) => send()));
  holdTheLoop();
  return Promise.all(
    groups.map(async (senders) => {
      const outcomes = await Promise.all(
        senders.map(async (send, i) => {
          await sleep(SENDS_AT[i]!);
          return send().then(
            () => undefined,
            (err: Error) => err.message,
          );
        }),
      );
      return outcomes.filter((m): m is string => m !== undefined);
    }),
  );
}

function sdkClients(extra: Partial<MTurkClientConfig>): MTurkClient[] {
  return SENDS_AT.map(
    () =>
      new MTurkClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKIDKEEPALIVE', secretAccessKey: 'keep-alive-secret' },
        maxAttempts: 1,
        ...extra,
      }),
  );
}

function postThrough(agent: http.Agent): () => Promise<number> {
  return () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(endpoint, { method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end('{}');
    });
}

describe('kept-alive connections across the server closing them', () => {
  // the three kinds of client go through the same long task, side by side
  let failures: { sdkDefault: string[]; sdkKeepAlive: string[]; nodeHttp: string[] };

  beforeAll(async () => {
    const sdkDefault = sdkClients({});
    const sdkKeepAlive = sdkClients({ requestHandler: keepAliveSdkHandler({ requestTimeout: 30_000 }) });
    const agents = SENDS_AT.map(() => keepAliveAgents());
    const balance = (c: MTurkClient) => () => c.send(new GetAccountBalanceCommand({}));
    const [a, b, c] = await sendAcrossTheClose([
      sdkDefault.map(balance),
      sdkKeepAlive.map(balance),
      agents.map((x) => postThrough(x['http:'])),
    ]);
    failures = { sdkDefault: a!, sdkKeepAlive: b!, nodeHttp: c! };
    for (const client of [...sdkDefault, ...sdkKeepAlive]) client.destroy();
    for (const x of agents) x['http:'].destroy();
  });

  it('the AWS SDK with its own agents loses requests (the race is really provoked)', () => {
    expect(failures.sdkDefault.length).toBeGreaterThan(0);
    expect(failures.sdkDefault[0]).toMatch(/socket hang up|ECONNRESET/);
  });

  it('the AWS SDK with keepAliveSdkHandler loses none', () => {
    expect(failures.sdkKeepAlive).toEqual([]);
  });

  it('node:http requests through keepAliveAgents lose none', () => {
    expect(failures.nodeHttp).toEqual([]);
  });
});
