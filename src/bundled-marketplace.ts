import type { Connection } from 'mongoose';
import type { Config } from './config.js';
import { isListening } from './db/devdb.js';
import { UserError, errorMessage } from './errors.js';
import type { Logger } from './log.js';
import { marketplaceConfig, MarketplaceUserError } from '@qrelay/marketplace';
import { startMarketplaceWithSimulation, type SimulatedMarketplace } from './simulation/index.js';

/**
 * The bundled marketplace for `qrelay serve`, `start` and `demo` on embedded defaults: the
 * one already answering at MARKETPLACE_URL (a `qrelay marketplace` in another terminal, or
 * another qrelay's), else one started in this process on MARKETPLACE_URL's port. A second
 * marketplace on the same database would refuse to start (it holds a lease), which is why
 * one that answers is used rather than started again.
 */
export interface BundledMarketplace {
  url: string;
  /** The marketplace this process runs; null when another process serves MARKETPLACE_URL. */
  running: SimulatedMarketplace | null;
  /** Stops the marketplace this process runs (nothing for one it does not). */
  close(): Promise<void>;
}

function external(url: string): BundledMarketplace {
  return { url, running: null, close: async () => {} };
}

export async function bundledMarketplace(config: Config, logger: Logger, connection: Connection): Promise<BundledMarketplace> {
  const url = config.env.MARKETPLACE_URL;
  const { host, port } = marketplaceConfig(config).listen;
  if (await isListening(host, port)) return external(url);
  let running: SimulatedMarketplace;
  try {
    running = await startMarketplaceWithSimulation({ config, logger, connection });
  } catch (err) {
    // another process may have started one between our probe and our start
    if (await isListening(host, port)) return external(url);
    if (err instanceof UserError) throw err;
    if (err instanceof MarketplaceUserError) throw new UserError(err.message, { cause: err });
    throw new UserError(
      `MARKETPLACE_URL ${url} does not answer and a marketplace cannot be started there (${errorMessage(err)}): point MARKETPLACE_URL at a local address, or start one with qrelay marketplace`,
      { cause: err },
    );
  }
  return { url: running.url, running, close: () => running.close() };
}
