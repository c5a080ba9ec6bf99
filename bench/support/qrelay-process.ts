/**
 * A bench's own qrelay: a private data directory, free ports for its dev database, API and
 * marketplace (or its own database on MONGODB_URI), and the CLI run from the sources.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isListening } from '../../src/db/devdb.js';
import { paths } from '../../src/paths.js';

async function freePort(from: number): Promise<number> {
  for (let port = from + Math.floor(Math.random() * 500); ; port++) if (!(await isListening('127.0.0.1', port))) return port;
}

/** `ports`: where to start looking for the database's, the API's and the marketplace's port. */
export async function isolatedQrelay(
  name: string,
  ports: { db: number; api: number; marketplace: number },
): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = mkdtempSync(join(tmpdir(), `qrelay-bench-${name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QRELAY_DATA_DIR: dir,
    QRELAY_DEVDB_ADDRESS: `127.0.0.1:${await freePort(ports.db)}`,
    PORT: String(await freePort(ports.api)),
    MARKETPLACE_URL: `http://127.0.0.1:${await freePort(ports.marketplace)}`,
    ...(process.env.MONGODB_URI && {
      MONGODB_URI: `${process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/')}bench_${name}_${Date.now()}`,
    }),
  };
  return { dir, env };
}

/** Runs `qrelay args...` from the sources; stderr passes through. */
export function runQrelay(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
    cwd: paths.root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, seconds: (performance.now() - started) / 1000 })));
}
