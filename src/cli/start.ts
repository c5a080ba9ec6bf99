import { InvalidArgumentError, type Command } from 'commander';
import type { Connection } from 'mongoose';
import { resolveApiToken } from '../api/token.js';
import { bundledMarketplace, type BundledMarketplace } from '../bundled-marketplace.js';
import { loadConfig, type Config } from '../config.js';
import { collections } from '../db/collections.js';
import { openDatabase } from '../db/connection.js';
import { inProcessDriver, remoteDriver, type SimulationDriver } from '../demo/driver.js';
import { DemoInterrupted } from '../demo/env.js';
import { createProgress, type Progress } from '../demo/progress.js';
import { unfinishedRun } from '../demo/runs.js';
import { SAMPLE_CASES } from '../demo/sample.js';
import { chooseDemoRun, runDemo } from '../demo/workflow.js';
import { createLogger, type Logger } from '../log.js';
import { createPipelineContext } from '../pipeline/context.js';
import { migrateDatabase } from '../db/migrate-database.js';
import { startServer } from '../server.js';
import { databaseNames, marketplaceNames, ProcessLifecycle, serverNames } from './lifecycle.js';
import { action } from './run.js';

/**
 * `qrelay start` (what `npm start` runs) and `qrelay demo`: the sample batch through the
 * whole workflow on embedded defaults, with a progress bar per stage and a final summary.
 * `start` then keeps serving the API and the marketplace; `demo` exits.
 */

interface DemoCliOptions {
  sampleSize?: number;
}

function parseSampleSize(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > SAMPLE_CASES)
    throw new InvalidArgumentError(`expected a whole number from 1 to ${SAMPLE_CASES}`);
  return n;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Logs go to stderr (stdout holds the progress and the summary); warnings only, unless LOG_LEVEL says otherwise. */
function demoLogger(config: Config): Logger {
  return createLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', { stderr: true });
}

function driverFor(market: BundledMarketplace, config: Config): SimulationDriver {
  return market.running ? inProcessDriver(market.running) : remoteDriver(market.url, config);
}

interface DemoDeps {
  config: Config;
  logger: Logger;
  connection: Connection;
  market: BundledMarketplace;
  signal: AbortSignal;
  progress: Progress;
  /** Told which batch the run is, once chosen (the line printed on Ctrl-C names it). */
  onBatch: (batch: string) => void;
}

/** Where a long-running command stands, for what the line printed on Ctrl-C says the next start does. */
interface Stage {
  phase: 'starting' | 'demo' | 'serving';
  batch?: string;
}

/** What the next run of `command` does after Ctrl-C stopped this one at `stage`. */
function nextStart(command: string, stage: Stage): string {
  if (stage.phase === 'starting') return `the next ${command} starts again`;
  if (stage.phase === 'serving') return `the next ${command} serves the same batches again, and their jobs continue where they stopped`;
  return `the next ${command} continues ${stage.batch ? `batch ${stage.batch}` : 'the demo'} where it stopped (what was done is kept)`;
}

/** Runs (or continues) a demo run; false when Ctrl-C stopped it. */
async function demoOnce(deps: DemoDeps, opts: DemoCliOptions): Promise<boolean> {
  const { config, connection, market } = deps;
  const driver = driverFor(market, config);
  await driver.sync();
  const { run, resumed } = await chooseDemoRun(connection, {
    dataDir: config.dataDir,
    ...(opts.sampleSize !== undefined && { cases: opts.sampleSize }),
  });
  deps.onBatch(run._id);
  say(
    resumed
      ? `qrelay demo: continuing batch ${run._id} (${run.cases} escalated cases), which did not finish last time`
      : `qrelay demo: batch ${run._id}, ${run.cases} escalated cases of the bundled sample (samples/), files in ${run.outDir}`,
  );
  say(
    `marketplace: ${market.running ? 'started in this process' : 'the one already answering'} at ${market.url}; simulated workers from samples/population.json`,
  );
  const ctx = createPipelineContext({
    connection,
    config,
    logger: deps.logger,
    now: () => driver.now(),
    simulatedClock: true,
    progress: (line) => deps.logger.debug(line),
  });
  try {
    const result = await runDemo(
      { ctx, driver, progress: deps.progress, signal: deps.signal },
      run,
      { config, marketplaceUrl: market.url },
      { resumed },
    );
    say('');
    process.stdout.write(result.text);
    return true;
  } catch (err) {
    if (!(err instanceof DemoInterrupted)) throw err;
    // the lifecycle's one line says what stopped and what the next start continues
    return false;
  }
}

function servingLines(config: Config, apiUrl: string, market: BundledMarketplace): string[] {
  const token = resolveApiToken(config);
  return [
    'qrelay is serving (Ctrl-C stops it):',
    `  API          ${apiUrl}  (/healthz, /openapi.json, /api/v1/batches, /api/v1/batches/<batch>/report?format=html)`,
    `  API token    ${token.source === 'QRELAY_API_TOKEN' ? 'QRELAY_API_TOKEN (from the environment)' : token.source} (bearer token of the mutating routes and of reads of worker data)`,
    `  console      ${apiUrl}/  (log in with the API token: batches, workers, items, actions)`,
    `  marketplace  ${market.url}  (MTurk Requester API)${market.running ? '' : ', served by another process'}; worker site ${market.url}/worker/`,
  ];
}

export function registerStart(program: Command): void {
  const demoOptions = (cmd: Command) =>
    cmd
      .option('--sample-size <n>', `escalated cases taken from the sample, the first n (default: all ${SAMPLE_CASES})`, parseSampleSize)
      .addHelpText(
        'after',
        `
Stages: import, publish (target local, preset dream), work (simulated workers from
samples/population.json on a private simulated marketplace with its own clock), review, aggregate, export qrels
(TREC, BEIR, JSONL), evaluate the sample runs (base vs adjudicated qrels), report (json,
md, html, csv), hand-over (the simulated marketplace's workers, HITs, assignments and
payments to the bundled marketplace at MARKETPLACE_URL, on its clock; the batch then
targets it, so actions reach the demo's workers). Files go to <QRELAY_DATA_DIR>/out/<batch>/
(./data/out/sample/ on defaults). Ctrl-C stops at the next step; the next run continues the same batch.`,
      );

  demoOptions(
    program
      .command('start')
      .description(
        'the main job on embedded defaults (what `npm start` runs): serve the API and the marketplace, and run the sample batch through the whole workflow when the database holds no batch yet',
      ),
  ).action(
    action(async (opts: DemoCliOptions) => {
      const config = loadConfig();
      const logger = demoLogger(config);
      const terminal = process.stdout.isTTY === true;
      const stage: Stage = { phase: 'starting' };
      const life = new ProcessLifecycle({ endLine: terminal, next: () => nextStart('`npm start`', stage) });
      const server = await life.open(startServer(config, logger), serverNames);
      try {
        if (life.aborted) return;
        const market = await life.open(bundledMarketplace(config, logger, server.database.connection), marketplaceNames);
        if (life.aborted) return;
        const connection = server.database.connection;
        const batches = await connection.collection(collections.batches).countDocuments({});
        const unfinished = await unfinishedRun(connection);
        if (batches === 0 || unfinished) {
          stage.phase = 'demo';
          const demo = demoOnce(
            {
              config,
              logger,
              connection,
              market,
              signal: life.signal,
              progress: createProgress(process.stdout, { terminal }),
              onBatch: (batch) => (stage.batch = batch),
            },
            opts,
          );
          if (!(await life.track(demo))) return;
        } else {
          say(
            `qrelay start: the database already holds ${batches} batch${batches === 1 ? '' : 'es'}, so the demo does not run again; \`qrelay demo\` (or \`npx qrelay demo\`) runs it as a new batch`,
          );
        }
        stage.phase = 'serving';
        say('');
        for (const line of servingLines(config, server.url, market)) say(line);
      } catch (err) {
        if (life.aborted) return;
        await life.closeAll();
        throw err;
      }
    }),
  );

  demoOptions(
    program
      .command('demo')
      .description(
        'run the sample batch through the whole workflow once (a new batch, or the one a stopped run left), print the summary, exit',
      ),
  ).action(
    action(async (opts: DemoCliOptions) => {
      const config = loadConfig();
      const logger = demoLogger(config);
      const terminal = process.stdout.isTTY === true;
      const stage: Stage = { phase: 'starting' };
      const life = new ProcessLifecycle({ endLine: terminal, next: () => nextStart('`qrelay demo` (or `npm start`)', stage) });
      const database = await life.open(openDatabase(config), databaseNames);
      try {
        if (life.aborted) return;
        await life.track(migrateDatabase(database, logger));
        if (life.aborted) return;
        const market = await life.open(bundledMarketplace(config, logger, database.connection), marketplaceNames);
        if (life.aborted) return;
        stage.phase = 'demo';
        await life.track(
          demoOnce(
            {
              config,
              logger,
              connection: database.connection,
              market,
              signal: life.signal,
              progress: createProgress(process.stdout, { terminal }),
              onBatch: (batch) => (stage.batch = batch),
            },
            opts,
          ),
        );
      } catch (err) {
        if (life.aborted) return;
        throw err;
      } finally {
        if (!life.aborted) await life.closeAll();
      }
    }),
  );
}
