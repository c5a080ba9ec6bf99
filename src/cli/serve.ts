import type { Command } from 'commander';
import { bundledMarketplace, type BundledMarketplace } from '../bundled-marketplace.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { createLogger } from '../log.js';
import { migrateDatabase } from '../db/migrate-database.js';
import { startServer } from '../server.js';
import { parsePort } from './options.js';
import { marketplaceNames, ProcessLifecycle, serverNames } from './lifecycle.js';
import { action } from './run.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the qrelay API, job scheduler and, on embedded defaults, the dev database and the bundled marketplace')
    .option('--port <port>', 'HTTP port (default: PORT or 8080)', parsePort)
    .option(
      '--no-marketplace',
      'do not run the bundled marketplace (by default it runs here when MTURK_TARGET is local and nothing answers at MARKETPLACE_URL)',
    )
    .action(
      action(async (opts: { port?: number; marketplace: boolean }) => {
        const config = loadConfig();
        if (opts.port !== undefined) config.http.port = opts.port;
        const logger = createLogger(config.logLevel);
        const life = new ProcessLifecycle({
          next: () => 'the next `qrelay serve` serves the same batches again, and their jobs continue where they stopped',
        });
        const server = await life.open(startServer(config, logger), serverNames);
        if (life.aborted || !opts.marketplace || config.env.MTURK_TARGET !== 'local') return;
        let market: BundledMarketplace;
        try {
          market = await life.open(bundledMarketplace(config, logger, server.database.connection), marketplaceNames);
        } catch (err) {
          await life.closeAll();
          throw err;
        }
        logger.info(
          { url: market.url, inProcess: market.running !== null },
          market.running ? 'bundled marketplace started in this process' : 'using the marketplace already answering at MARKETPLACE_URL',
        );
      }),
    );

  program
    .command('migrate')
    .description('apply pending database migrations (safe to run twice, and from two processes)')
    .action(
      action(async () => {
        const config = loadConfig();
        const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
        const database = await openDatabase(config);
        try {
          const result = await migrateDatabase(database, logger);
          process.stdout.write(
            `migrations: ${result.applied.length} applied${result.applied.length ? ` (${result.applied.join(', ')})` : ''}, ${result.skipped.length} already applied\n`,
          );
        } finally {
          await database.close();
        }
      }),
    );
}
