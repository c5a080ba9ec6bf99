import type { Logger } from '../log.js';
import { paths } from '../paths.js';
import { requireDb, type Database } from './connection.js';
import { loadMigrations, runMigrations } from './migrate.js';

/** Applies qrelay's migrations (migrations/) to an open database: `serve`, `start` and the pipeline commands run it first. */
export async function migrateDatabase(database: Database, logger: Logger) {
  const migrations = await loadMigrations(paths.migrations);
  return runMigrations(requireDb(database.connection), migrations, { log: (line) => logger.info(line) });
}
