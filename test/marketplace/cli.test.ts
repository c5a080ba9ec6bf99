import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { MARKETPLACE_DB_SUFFIX } from '@qrelay/marketplace';
import { runCli } from '../support/cli.js';
import { useTestDatabase } from '../support/db.js';

const db = useTestDatabase();
let server: ChildProcess;
let url: string;
let exited: Promise<number | null>;

beforeAll(async () => {
  await db.connection.useDb(`${db.connection.name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
  server = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'marketplace', '--port', '0', '--host', '127.0.0.1'], {
    cwd: paths.root,
    env: { ...process.env, LOG_LEVEL: 'warn', MARKETPLACE_INITIAL_BALANCE: '1.00' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the marketplace did not start in 30 s')), 30_000);
    createInterface({ input: server.stdout! }).on('line', (line) => {
      const m = /MTurk Requester API at (http:\/\/\S+?) /.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`the marketplace exited with ${code}`)));
  });
});

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  await exited;
});

describe('qrelay marketplace', () => {
  it('serves, and takes operator commands over its admin interface', async () => {
    const env = { MARKETPLACE_URL: url };
    const added = await runCli(['marketplace', 'add-worker', '--name', 'Grace', '--country', 'gb', '--adult', '--submitted', '200', '--approved', '190'], env);
    expect(added.stderr).toBe('');
    expect(JSON.parse(added.stdout)).toMatchObject({ displayName: 'Grace', workerId: expect.stringMatching(/^A[A-Z0-9]+$/), profile: { locale: { Country: 'GB' }, adult: true, baseline: { submitted: 200, approved: 190 } } });
    const deposit = await runCli(['marketplace', 'deposit', '5.00', '--reference', 'r1'], env);
    expect(JSON.parse(deposit.stdout)).toEqual({ availableBalance: '6.00', duplicate: false });
    const status = await runCli(['marketplace', 'status'], env);
    expect(JSON.parse(status.stdout)).toMatchObject({ availableBalance: '6.00', clockSpeed: 1 });
    const clock = await runCli(['marketplace', 'clock', '--speed', '60'], env);
    expect(JSON.parse(clock.stdout)).toMatchObject({ speed: 60 });
  });

  it('fails with one clear line', async () => {
    const [dup, wrongKey, bad, sim] = await Promise.all([
      runCli(['marketplace', 'add-worker', '--name', 'grace'], { MARKETPLACE_URL: url }),
      runCli(['marketplace', 'status'], { MARKETPLACE_URL: url, MARKETPLACE_SECRET_ACCESS_KEY: 'another-secret' }),
      runCli(['marketplace', 'chaos', '--fault-share', '2'], { MARKETPLACE_URL: url }),
      runCli(['marketplace', '--simulate', 'population.json']),
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^qrelay: the marketplace at .* answered 409: The name "grace" is taken/)]);
    expect(wrongKey.stderr).toMatch(/^qrelay: the marketplace at .* refused the admin token/);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/expected a share from 0 to 1/);
    expect(sim.code).toBe(1);
    expect(sim.stderr.trim()).toMatch(/^qrelay: --simulate population\.json: cannot read it \(ENOENT: no such file or directory/);
  });

  it('stops gracefully on SIGTERM', async () => {
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
