import type { Server } from 'node:http';
import type { Agenda } from 'agenda';
import type { Express } from 'express';
import { createApp } from './app.js';
import { finishedBatches, warmAnswers } from './api/answers.js';
import type { AppContext } from './api/context.js';
import { resolveApiToken } from './api/token.js';
import type { Config } from './config.js';
import { openDatabase, requireDb, type Database } from './db/connection.js';
import { migrateDatabase } from './db/migrate-database.js';
import { UserError } from './errors.js';
import { createAgenda, startJobs, stopJobs } from './jobs/agenda.js';
import type { Logger } from './log.js';
import { createPipelineContext } from './pipeline/context.js';

export interface RunningServer {
  url: string;
  app: Express;
  ctx: AppContext;
  database: Database;
  agenda: Agenda;
  close(): Promise<void>;
}

export interface StartServerOptions {
  /** Extra routes (e.g. the bundled marketplace) mounted on the same app. */
  mount?: (app: Express) => void;
  jobs?: { processEvery?: number | string; housekeepingEvery?: string | number; collectEvery?: string | number };
}

function listen(app: Express, host: string, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once('listening', () => resolve(server));
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new UserError(`port ${port} on ${host} is already in use: stop what runs there or set PORT to another port`));
      } else if (err.code === 'EACCES') {
        reject(new UserError(`no permission to listen on ${host}:${port}: choose a PORT above 1023`));
      } else {
        reject(err);
      }
    });
  });
}

/** Finished batches whose answers `serve` prepares before it listens (the others' after). */
const WARM_BEFORE_LISTENING = 4;

/** Database (started if needed), migrations, jobs, HTTP: `qrelay serve`. */
export async function startServer(config: Config, logger: Logger, opts: StartServerOptions = {}): Promise<RunningServer> {
  const database = await openDatabase(config);
  logger.info({ database: database.target.describe }, 'database ready');
  let agenda: Agenda | undefined;
  let server: Server | undefined;
  try {
    await migrateDatabase(database, logger);
    const db = requireDb(database.connection);
    const pipeline = createPipelineContext({ connection: database.connection, config, logger });
    agenda = createAgenda({
      db,
      logger,
      processEvery: opts.jobs?.processEvery,
      pipeline: { ctx: pipeline, defaultTarget: config.env.MTURK_TARGET, collectEvery: opts.jobs?.collectEvery },
      config,
    });
    await startJobs(agenda, { housekeepingEvery: opts.jobs?.housekeepingEvery });

    const apiToken = resolveApiToken(config);
    logger.info({ tokenSource: apiToken.source }, 'mutating API routes require the bearer token');
    const ctx: AppContext = { config, logger, connection: database.connection, apiToken: apiToken.token, agenda };
    const app = createApp(ctx, { mount: opts.mount });
    // the most recently finished batches' status and report are ready before the first
    // request (a dashboard opened at once would otherwise wait seconds for a large batch's
    // report); the other finished batches' in the background once serving
    const finished = await finishedBatches(ctx).catch((err: unknown) => {
      logger.warn({ err }, 'could not list the finished batches to prepare their answers');
      return [];
    });
    await warmAnswers(ctx, finished.slice(0, WARM_BEFORE_LISTENING)).catch((err: unknown) =>
      logger.warn({ err }, 'could not prepare the answers of finished batches'),
    );
    server = await listen(app, config.http.host, config.http.port);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.http.port;
    const url = `http://${config.http.host}:${port}`;
    logger.info({ url }, 'qrelay is serving');
    warmAnswers(ctx, finished.slice(WARM_BEFORE_LISTENING)).then(
      () => logger.debug({ batches: finished.length }, 'answers of finished batches ready'),
      (err: unknown) => logger.warn({ err }, 'could not prepare the answers of finished batches'),
    );

    const httpServer = server;
    const jobs = agenda;
    let closing: Promise<void> | undefined;
    return {
      url,
      app,
      ctx,
      database,
      agenda: jobs,
      close() {
        closing ??= (async () => {
          // stop accepting, let in-flight requests finish, then jobs, then the database
          await new Promise<void>((resolve) => {
            httpServer.close(() => resolve());
            httpServer.closeIdleConnections();
          });
          await stopJobs(jobs);
          await database.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    server?.close();
    if (agenda) await agenda.stop().catch(() => undefined);
    await database.close();
    throw err;
  }
}
