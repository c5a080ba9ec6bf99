import type { Server } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { TestDatabase } from './db.js';
import { freePort } from './free-port.js';

export interface QrelayServer {
  /** Where it listens (`QRELAY_PUBLIC_URL`); set once the file's tests start. */
  publicUrl: string;
  /** `QRELAY_PUBLIC_URL` and the extra variables, for the test's contexts and CLI runs. */
  env: Record<string, string>;
}

/**
 * qrelay's app (task pages, API) for this test file, on a free port of this machine over
 * the test's database, closed after the file. `extraEnv` is read when it starts (after the
 * marketplace of an earlier `useMarketplace`, whose address it may name).
 */
export function useQrelayServer(db: TestDatabase, extraEnv: () => Record<string, string> = () => ({})): QrelayServer {
  const out: QrelayServer = { publicUrl: '', env: {} };
  let server: Server | undefined;
  beforeAll(async () => {
    const port = await freePort();
    out.publicUrl = `http://127.0.0.1:${port}`;
    out.env = { QRELAY_PUBLIC_URL: out.publicUrl, ...extraEnv() };
    const config = loadConfig({ ...process.env, ...out.env });
    const app = createApp({ config, logger: createLogger('silent'), connection: db.connection, apiToken: 'qrelay-server-test-token' });
    await new Promise<void>((resolve) => {
      server = app.listen(port, '127.0.0.1', () => resolve());
    });
  });
  afterAll(async () => {
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
  });
  return out;
}
