import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startServer } from '../src/server.js';

describe('startServer', () => {
  it('serves, then shuts down gracefully: in-flight requests finish, new ones are refused', async () => {
    const config = loadConfig({ ...process.env, PORT: '0', QRELAY_DATA_DIR: mkdtempSync(join(tmpdir(), 'qrelay-srv-')) });
    // events, not sleeps: the request is known to be in flight before close() starts, and
    // it answers only once close() has begun
    let arrived!: () => void;
    const inside = new Promise<void>((r) => (arrived = r));
    let release!: () => void;
    const closing = new Promise<void>((r) => (release = r));
    const server = await startServer(config, createLogger('silent'), {
      mount: (app) =>
        app.get('/slow', async (_req, res) => {
          arrived();
          await closing;
          res.json({ done: true });
        }),
    });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);

    const inFlight = fetch(`${server.url}/slow`).then((r) => r.json() as Promise<{ done: boolean }>);
    await inside;
    const closed = server.close();
    release();
    expect(await inFlight).toEqual({ done: true });
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(server.database.connection.readyState).toBe(0);
  });
});
