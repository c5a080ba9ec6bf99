#!/usr/bin/env node
/**
 * `qrelay-marketplace`: the marketplace on its own, on a MongoDB database
 * (MARKETPLACE_MONGODB_URI), configured by the MARKETPLACE_* variables (README.md).
 */
import mongoose from 'mongoose';
import { marketplaceCommandEnvSchema, parseEnvironment } from './config.js';
import { errorMessage, MarketplaceUserError } from './errors.js';
import { createMarketplaceLogger } from './log.js';
import { startMarketplace } from './server.js';

async function main(): Promise<void> {
  const env = parseEnvironment(marketplaceCommandEnvSchema, process.env);
  const logger = createMarketplaceLogger(env.MARKETPLACE_LOG_LEVEL);
  let connection: mongoose.Connection;
  try {
    connection = await mongoose.createConnection(env.MARKETPLACE_MONGODB_URI, { serverSelectionTimeoutMS: 10_000 }).asPromise();
  } catch (err) {
    throw new MarketplaceUserError(
      `cannot reach the database at MARKETPLACE_MONGODB_URI (${errorMessage(err)}): start MongoDB or FerretDB there, or point the variable at one`,
    );
  }
  const running = await startMarketplace({ config: { env }, logger, connection });
  process.stdout.write(`marketplace: serving the MTurk Requester API at ${running.url}\n`);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'stopping');
    void running
      .close()
      .then(() => connection.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  if (err instanceof MarketplaceUserError) process.stderr.write(`qrelay-marketplace: ${err.message}\n`);
  else process.stderr.write(`qrelay-marketplace: unexpected error: ${errorMessage(err)}\n`);
  process.exit(1);
});
