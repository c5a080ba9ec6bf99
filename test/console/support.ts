import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { MarketplaceHarness } from '../marketplace/support.js';

/** qrelay's app (API and console) on a free port of 127.0.0.1, against the harness's marketplace and database. */
export async function serveApp(h: MarketplaceHarness, apiToken: string): Promise<{ server: Server; base: string }> {
  const config = loadConfig({ ...process.env, MTURK_TARGET: h.running.url });
  const app = createApp({ config, logger: createLogger('silent'), connection: h.db.connection, apiToken });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
