import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/connection.js';
import { adminToken } from '@qrelay/marketplace';
import { callMarketplaceAdmin } from '../crowd/marketplace-admin.js';
import { UserError, errorMessage } from '../errors.js';
import { createLogger } from '../log.js';
import { readFile } from 'node:fs/promises';
import { checkPopulation, startMarketplaceWithSimulation, type PopulationProfile, type SimulatedMarketplace } from '../simulation/index.js';
import {
  parseCount,
  passwordOf,
  profileOf,
  registerRetakePolicy,
  registerUpdateWorker,
  withProfileOptions,
  type ProfileOptions,
} from './marketplace-workers.js';
import { databaseNames } from './lifecycle.js';
import { action, onShutdownSignal } from './run.js';
import { stopLine } from './stop-line.js';
import { parsePort, parsePositiveNumber } from './options.js';

/**
 * `qrelay marketplace`: the MTurk-compatible marketplace (serve), and the operator's
 * commands, which talk to a running marketplace's /admin routes at MARKETPLACE_URL
 * (or --url) with the admin token derived from the marketplace key pair.
 */

function parseShare(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError('expected a share from 0 to 1');
  return n;
}

function parseNonNegative(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number >= 0');
  return n;
}

interface AdminOptions {
  url?: string;
}

function callAdmin(config: Config, opts: AdminOptions, method: string, path: string, body?: unknown): Promise<unknown> {
  return callMarketplaceAdmin(config, opts.url ?? config.env.MARKETPLACE_URL, method, path, body);
}

/** A population profile file, checked before anything starts; a bad one is named with the field. */
async function readPopulation(path: string): Promise<PopulationProfile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new UserError(`--simulate ${path}: cannot read it (${errorMessage(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError(`--simulate ${path}: not valid JSON (${errorMessage(err)})`);
  }
  const checked = checkPopulation(json);
  if (!checked.ok) {
    const shown = checked.issues
      .slice(0, 5)
      .map((i) => (i.path ? `${i.path}: ${i.message}` : i.message))
      .join('; ');
    throw new UserError(
      `--simulate ${path}: ${shown}${checked.issues.length > 5 ? `; and ${checked.issues.length - 5} more` : ''} (the fields are described in src/simulation/README.md)`,
    );
  }
  return checked.profile;
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function registerMarketplace(program: Command): void {
  const marketplace = program
    .command('marketplace')
    .description('run the MTurk-compatible marketplace (Requester API on POST /, operator interface on /admin), or operate a running one')
    .option('--port <port>', 'HTTP port (default: the port of MARKETPLACE_URL, 8090)', parsePort)
    .option('--host <host>', 'address to listen on (default: the host of MARKETPLACE_URL)')
    .option(
      '--clock-speed <factor>',
      'marketplace time per real time, e.g. 3600 for an hour per second (default: MARKETPLACE_CLOCK_SPEED, else as saved)',
      parsePositiveNumber,
    )
    .option('--simulate <population.json>', 'also run a simulated worker population described in this file')
    .action(
      action(async (opts: { port?: number; host?: string; clockSpeed?: number; simulate?: string }) => {
        const population = opts.simulate !== undefined ? await readPopulation(opts.simulate) : undefined;
        const config = loadConfig();
        const logger = createLogger(config.logLevel);
        const database = await openDatabase(config);
        let running: SimulatedMarketplace | undefined;
        try {
          running = await startMarketplaceWithSimulation({
            config,
            logger,
            connection: database.connection,
            ...(opts.port !== undefined ? { port: opts.port } : {}),
            ...(opts.host !== undefined ? { host: opts.host } : {}),
            ...(opts.clockSpeed !== undefined ? { clockSpeed: opts.clockSpeed } : {}),
          });
          const serving = running;
          onShutdownSignal(async () => {
            await serving.close();
            await database.close();
            return stopLine(
              [`the marketplace at ${serving.url}`, ...databaseNames(database)],
              'the next `qrelay marketplace` serves the same HITs, workers and accounts again',
            );
          });
          process.stdout.write(
            `marketplace: MTurk Requester API at ${running.url} (sign with MARKETPLACE_ACCESS_KEY_ID); worker site at ${running.url}/worker/; operator interface at ${running.url}/admin (token: qrelay marketplace admin-token)\n`,
          );
          if (population) {
            const workers = await running.simulation.loadPopulation(population);
            running.simulation.start();
            process.stdout.write(
              `simulation: ${workers.length} simulated workers (seed ${population.seed}) at clock speed ${running.marketplace.clock.speed}; give them an oracle with PUT ${running.url}/admin/simulation/oracle, follow them at GET ${running.url}/admin/simulation\n`,
            );
          }
        } catch (err) {
          await running?.close();
          await database.close();
          throw err;
        }
      }),
    );

  const withUrl = (cmd: Command) => cmd.option('--url <url>', 'the marketplace (default: MARKETPLACE_URL)');

  withUrl(
    withProfileOptions(
      marketplace
        .command('add-worker')
        .description('create a worker account (for the worker site and simulated workers)')
        .requiredOption('--name <displayName>', 'display name, also the login name')
        .option('--id <workerId>', 'a chosen worker id (A followed by capital letters and digits)')
        .option('--adult', 'the worker confirmed being 18 or older')
        .option('--masters', 'the worker holds the Masters qualification'),
    ),
  ).action(
    action(async (opts: ProfileOptions & { name: string; id?: string; url?: string }) => {
      const profile = profileOf(opts);
      const password = await passwordOf(opts);
      const worker = await callAdmin(loadConfig(), opts, 'POST', '/workers', {
        displayName: opts.name,
        ...(password !== undefined ? { password } : {}),
        ...(opts.id !== undefined ? { workerId: opts.id } : {}),
        profile,
      });
      print(worker);
    }),
  );

  const admin = (opts: AdminOptions, method: string, path: string, body?: unknown) => callAdmin(loadConfig(), opts, method, path, body);
  registerUpdateWorker(marketplace, withUrl, admin, print);
  registerRetakePolicy(marketplace, withUrl, admin, print);

  withUrl(
    marketplace
      .command('deposit')
      .description('add funds to the requester account')
      .argument('<amount>', 'USD amount, e.g. 250.00')
      .option('--reference <ref>', 'an idempotency reference: depositing twice with it adds the funds once'),
  ).action(
    action(async (amount: string, opts: { reference?: string; url?: string }) => {
      print(await callAdmin(loadConfig(), opts, 'POST', '/deposits', { amount, ...(opts.reference ? { reference: opts.reference } : {}) }));
    }),
  );

  withUrl(
    marketplace
      .command('chaos')
      .description('throttling and fault injection for testing clients (no options: show the current settings)')
      .option('--throttle-rate <n>', 'requests per second of the token bucket (0: off)', parseNonNegative)
      .option('--throttle-burst <n>', 'token bucket capacity', parseNonNegative)
      .option('--throttle-share <x>', 'share of requests throttled at random', parseShare)
      .option('--fault-share <x>', 'share of requests answered with a ServiceFault (500)', parseShare)
      .option('--slow-share <x>', 'share of requests delayed', parseShare)
      .option('--slow-ms <ms>', 'delay of the slow requests', parseCount),
  ).action(
    action(
      async (opts: {
        throttleRate?: number;
        throttleBurst?: number;
        throttleShare?: number;
        faultShare?: number;
        slowShare?: number;
        slowMs?: number;
        url?: string;
      }) => {
        const { url, ...settings } = opts;
        const config = loadConfig();
        print(
          Object.keys(settings).length === 0
            ? await callAdmin(config, { url }, 'GET', '/chaos')
            : await callAdmin(config, { url }, 'PUT', '/chaos', settings),
        );
      },
    ),
  );

  withUrl(
    marketplace
      .command('clock')
      .description("show or change the marketplace's time: speed it up, or move it forward")
      .option('--speed <factor>', 'marketplace time per real time (1 = real time)', parsePositiveNumber)
      .option('--advance <seconds>', 'move the marketplace time forward', parseNonNegative),
  ).action(
    action(async (opts: { speed?: number; advance?: number; url?: string }) => {
      const config = loadConfig();
      const body = {
        ...(opts.speed !== undefined ? { speed: opts.speed } : {}),
        ...(opts.advance !== undefined ? { advanceSeconds: opts.advance } : {}),
      };
      print(
        Object.keys(body).length === 0
          ? await callAdmin(config, opts, 'GET', '/clock')
          : await callAdmin(config, opts, 'PUT', '/clock', body),
      );
    }),
  );

  withUrl(marketplace.command('status').description('balance, clock, HITs, pending notifications, chaos settings')).action(
    action(async (opts: AdminOptions) => print(await callAdmin(loadConfig(), opts, 'GET', '/status'))),
  );

  marketplace
    .command('admin-token')
    .description('print the bearer token of the /admin routes (derived from the marketplace key pair)')
    .action(
      action(async () => {
        const config = loadConfig();
        process.stdout.write(`${adminToken(config.env.MARKETPLACE_ACCESS_KEY_ID, config.env.MARKETPLACE_SECRET_ACCESS_KEY)}\n`);
      }),
    );
}
