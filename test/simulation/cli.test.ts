import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, MARKETPLACE_DB_SUFFIX } from '@qrelay/marketplace';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '../../src/config.js';
import { paths } from '../../src/paths.js';
import { runCli } from '../support/cli.js';
import { useTestDatabase } from '../support/db.js';
import { SiteClient } from '../marketplace/site/client.js';

/** `qrelay marketplace --simulate <population.json>`, and worker accounts with passwords from the CLI. */

const db = useTestDatabase();
const dir = mkdtempSync(join(tmpdir(), 'qrelay-sim-cli-'));
let server: ChildProcess;
let exited: Promise<number | null>;
const lines: string[] = [];
let url: string;

beforeAll(async () => {
  await db.connection.useDb(`${db.connection.name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
  server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(paths.root, 'src', 'cli.ts'),
      'marketplace',
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--clock-speed',
      '3600',
      '--simulate',
      'samples/population.json',
    ],
    {
      cwd: paths.root,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the marketplace did not start in 30 s: ${lines.join('\n')}`)), 30_000);
    createInterface({ input: server.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('simulation:')) {
        clearTimeout(timer);
        resolve(/MTurk Requester API at (http:\/\/\S+?) /.exec(lines[0]!)![1]!);
      }
    });
    void exited.then((code) => reject(new Error(`the marketplace exited with ${code}`)));
  });
});

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
});

describe('qrelay marketplace --simulate', () => {
  it('starts the simulated population and reports it', async () => {
    expect(lines[1]).toBe(
      `simulation: 60 simulated workers (seed qrelay-default-population) at clock speed 3600; give them an oracle with PUT ${url}/admin/simulation/oracle, follow them at GET ${url}/admin/simulation`,
    );
    const res = await fetch(`${url}/admin/simulation`, {
      headers: { authorization: `Bearer ${adminToken(DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY)}` },
    });
    expect(await res.json()).toMatchObject({
      state: 'running',
      population: 60,
      seed: 'qrelay-default-population',
      clock: { speed: 3600, held: true },
    });
  });

  it('creates worker accounts with a password from a file, never from the command line', async () => {
    const file = join(dir, 'password');
    writeFileSync(file, 'a secret of some length\n');
    const added = await runCli(['marketplace', 'add-worker', '--name', 'Lin', '--password-file', file], { MARKETPLACE_URL: url });
    expect(added.stderr).toBe('');
    expect(added.stdout).not.toContain('a secret');
    expect(JSON.parse(added.stdout)).toMatchObject({ displayName: 'Lin', hasPassword: true });
    await new SiteClient(url).login('lin', 'a secret of some length');

    const [noTty, short] = await Promise.all([
      runCli(['marketplace', 'add-worker', '--name', 'Kim', '--ask-password'], { MARKETPLACE_URL: url }),
      (writeFileSync(join(dir, 'short'), 'short'),
      runCli(['marketplace', 'add-worker', '--name', 'Kim', '--password-file', join(dir, 'short')], { MARKETPLACE_URL: url })),
    ]);
    expect(noTty.stderr).toBe(
      'qrelay: --ask-password needs a terminal: use --password-file <file> (or - to read standard input) instead\n',
    );
    expect(short.stderr).toBe('qrelay: the password must have at least 8 characters\n');
  });

  it('refuses a population file that does not match the schema, naming the fields', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        seed: 1,
        size: 10,
        arrivalsPerHour: -1,
        // only size and shares are required; a field given must still be well formed
        accuracy: { relevant: { alpha: 1, beta: 1 }, notRelevant: 'high' },
        workTime: { medianSeconds: 30 },
      }),
    );
    const bad = await runCli(['marketplace', '--simulate', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      `qrelay: --simulate ${file}: arrivalsPerHour: Too small: expected number to be >0; accuracy.notRelevant: Invalid input: expected object, received string (the fields are described in src/simulation/README.md)\n`,
    );
  });

  it('stops gracefully on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
