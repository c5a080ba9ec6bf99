import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { MarketplaceEnv } from './config.js';
import { MarketplaceUserError } from './errors.js';
import type { Logger } from './log.js';
import { adminToken } from './admin/token.js';
import { createMarketplaceApp } from './app.js';
import { DEFAULT_DELIVERY, openMarketplace, type Marketplace, type MarketplaceSettings } from './core.js';
import { ChaosControl } from './protocol/chaos-control.js';
import { bracketed, OwnHosts, parseHost } from './protocol/own-hosts.js';
import type { ChaosSettings } from './protocol/chaos.js';
import { BackgroundLoops } from './services/loops.js';
import type { Writes } from './store/background-writer.js';
import { findUnsettledApprovals, noteUnsettled } from './services/reviews.js';
import { marketplaceConfig } from './settings.js';
import { mountWorkerSite } from './site/index.js';
import { mountProlific, ProlificService } from './prolific/index.js';
import { WorkerApi } from './workers.js';

export interface StartMarketplaceOptions {
  /** The parsed MARKETPLACE_* variables (loadMarketplaceEnv; qrelay passes its own config, which carries them). */
  config: { env: MarketplaceEnv };
  logger: Logger;
  /** An open mongoose connection; the marketplace uses the database `<its name>_marketplace` beside it. */
  connection: Connection;
  /** Default: the port and host of MARKETPLACE_URL; 0 picks a free port. */
  port?: number;
  host?: string;
  /** Simulated ms per real ms; default MARKETPLACE_CLOCK_SPEED, else the saved clock's speed. */
  clockSpeed?: number;
  /** Throttling and fault injection at start; default MARKETPLACE_CHAOS (off). */
  chaos?: Partial<ChaosSettings>;
  /** The draws deciding which requests chaos hits (default Math.random; tests pass a seeded one, so that a run is replayable). */
  chaosRandom?: () => number;
  /** How often the background loops run (real ms, default 1000). */
  loopIntervalMs?: number;
  delivery?: Partial<MarketplaceSettings['delivery']>;
  /** A private simulated marketplace: repeatable HIT ids (MarketplaceSettings.idSeed). */
  idSeed?: string;
  /** false: the background loops do not run on a timer; their driver calls `loops.tick()` (a discrete-event simulation). */
  backgroundTimer?: boolean;
  /**
   * `background`: HIT changes and submitted answers are written to the database after they
   * show (store/background-writer.ts), for a throwaway marketplace whose database nothing
   * reads after a crash (a simulation's private one); default `each`, written before.
   */
  writes?: Writes;
  /** Adds routes ahead of /admin and the Requester API (after the worker website), e.g. a driver's /admin/simulation routes. */
  mount?: (app: Express, marketplace: RunningMarketplace) => void;
}

export interface RunningMarketplace {
  url: string;
  app: Express;
  marketplace: Marketplace;
  /** The worker-facing functions (website, simulated workers). */
  workers: WorkerApi;
  /** The Prolific side: its researcher API's operations and what a participant does (startStudy, completeStudy). */
  prolific: ProlificService;
  chaos: ChaosControl;
  loops: BackgroundLoops;
  /** Bearer token of the /admin routes. */
  adminToken: string;
  /** Stops taking requests, lets in-flight ones finish, stops the loops, releases the database (the connection stays open). */
  close(): Promise<void>;
}

function listen(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(
          new MarketplaceUserError(
            `port ${port} on ${host} is already in use: stop what runs there, or give the marketplace another port (--port or MARKETPLACE_URL)`,
          ),
        );
      else if (err.code === 'EACCES')
        reject(new MarketplaceUserError(`no permission to listen on ${host}:${port}: choose a port above 1023`));
      else reject(err);
    });
  });
}

/** The MTurk-compatible marketplace: state loaded, background loops running, HTTP listening. */
export async function startMarketplace(opts: StartMarketplaceOptions): Promise<RunningMarketplace> {
  const base = marketplaceConfig(opts.config);
  const settings: MarketplaceSettings = {
    ...base.settings,
    delivery: { ...DEFAULT_DELIVERY, ...opts.delivery },
    ...(opts.idSeed !== undefined && { idSeed: opts.idSeed }),
  };
  const clockSpeed = opts.clockSpeed ?? base.clockSpeed;
  const marketplace = await openMarketplace({
    connection: opts.connection,
    settings,
    logger: opts.logger,
    ...(opts.writes && { writes: opts.writes }),
    ...(clockSpeed !== undefined ? { clockSpeed } : {}),
  });
  const loops = new BackgroundLoops(marketplace, opts.loopIntervalMs ?? 1000);
  let server: Server | undefined;
  try {
    noteUnsettled(marketplace, findUnsettledApprovals(marketplace));
    await loops.tick();
    const chaos = new ChaosControl({ ...base.chaos, ...opts.chaos }, opts.chaosRandom);
    const workers = new WorkerApi(marketplace);
    const prolific = new ProlificService(marketplace);
    const token = adminToken(settings.accessKeyId, settings.secretAccessKey);
    const running = {} as RunningMarketplace;
    const ownHosts = new OwnHosts();
    const app = createMarketplaceApp({ marketplace, workers, chaos, loops, token, ownHosts }, (a) => {
      mountProlific(a, prolific, opts.config.env.MARKETPLACE_PROLIFIC_TOKEN, (pages) => mountWorkerSite(a, running, pages));
      opts.mount?.(a, running);
    });
    const host = opts.host ?? base.listen.host;
    server = await listen(app, host, opts.port ?? base.listen.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : (opts.port ?? base.listen.port);
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const configured = new URL(opts.config.env.MARKETPLACE_URL);
    const configuredHost = parseHost(configured.host, configured.protocol === 'https:' ? 443 : 80);
    ownHosts.set({ name: bracketed(host), port }, configuredHost);
    if (opts.backgroundTimer !== false) loops.start();
    const httpServer = server;
    let closing: Promise<void> | undefined;
    Object.assign(running, {
      url,
      app,
      marketplace,
      workers,
      prolific,
      chaos,
      loops,
      adminToken: token,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => {
            httpServer.close(() => resolve());
            httpServer.closeIdleConnections();
          });
          await loops.stop();
          await marketplace.close();
        })();
        return closing;
      },
    } satisfies RunningMarketplace);
    opts.logger.info({ url, clockSpeed: marketplace.clock.speed }, 'marketplace is serving the MTurk Requester API');
    return running;
  } catch (err) {
    server?.close();
    await loops.stop();
    await marketplace.close();
    throw err;
  }
}
