import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { UserError } from '../errors.js';
import { ADDITIONS_DIR, buildPatchedDevdb, listAdditions, listPatches } from './devdb-build.js';
import { paths } from '../paths.js';

/**
 * The dev database: FerretDB (MongoDB wire protocol on SQLite) embedded in a small Go
 * launcher under tools/devdb, built against FerretDB with the speed patches of
 * tools/devdb/patches (devdb-build.ts). Development, tests and the embedded
 * default run it; a MONGODB_URI replaces it everywhere.
 */

/** Every file the launcher is built from (with the files added to FerretDB): a change to any of them means a rebuild. */
function launcherSources(dir: string): string[] {
  const own = readdirSync(dir).filter((f) => (f.endsWith('.go') && !f.endsWith('_test.go')) || f === 'go.mod' || f === 'go.sum');
  // the additions' tests too: the build copies them next to the code they test
  return [...own, ...listPatches(dir), ...listAdditions(dir).map((f) => join(ADDITIONS_DIR, f))];
}

function newestSourceTime(dir: string): number {
  return Math.max(...launcherSources(dir).map((f) => statSync(join(dir, f)).mtimeMs));
}

export function goAvailable(goCommand = 'go'): boolean {
  const probe = spawnSync(goCommand, ['version'], { stdio: 'ignore' });
  return probe.status === 0;
}

export interface EnsureDevdbOptions {
  log?: (line: string) => void;
  binary?: string;
  goCommand?: string;
  /** The launcher's Go sources (tools/devdb). */
  sourceDir?: string;
}

/** Builds tools/devdb/bin/devdb when missing or older than its sources. */
export function ensureDevdbBinary(opts: EnsureDevdbOptions = {}): { built: boolean; binary: string } {
  const log = opts.log ?? (() => {});
  const binary = opts.binary ?? paths.devdbBinary;
  const goCommand = opts.goCommand ?? 'go';
  const sourceDir = opts.sourceDir ?? paths.devdbSource;
  if (existsSync(binary) && statSync(binary).mtimeMs >= newestSourceTime(sourceDir)) {
    return { built: false, binary };
  }
  if (!goAvailable(goCommand)) {
    throw new UserError(
      'the dev database needs the Go toolchain (go 1.24 or newer) to build tools/devdb: install Go, or set MONGODB_URI to a MongoDB server',
    );
  }
  log('building the dev database launcher (tools/devdb; the first build downloads FerretDB and takes about a minute)');
  buildPatchedDevdb(sourceDir, binary, goCommand);
  return { built: true, binary };
}

export function splitAddress(address: string): { host: string; port: number } {
  const i = address.lastIndexOf(':');
  return { host: address.slice(0, i), port: Number(address.slice(i + 1)) };
}

/** True when something accepts TCP connections at host:port. */
export function isListening(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.removeAllListeners();
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface DevdbHandle {
  /** mongodb://host:port/ (no database name). */
  uri: string;
  address: string;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export class AddressInUseError extends UserError {}

/**
 * Starts the dev database and resolves once it accepts connections. It stops by itself
 * when this process dies (its stdin closes), so no orphan keeps the data directory.
 */
export async function startDevdb(opts: { address: string; dataDir: string; timeoutMs?: number }): Promise<DevdbHandle> {
  const { binary } = ensureDevdbBinary({ log: (line) => process.stderr.write(`qrelay: ${line}\n`) });
  mkdirSync(opts.dataDir, { recursive: true });
  const child = spawn(binary, ['-listen', opts.address, '-data', opts.dataDir, '-stop-on-stdin-eof'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderrLines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    stderrLines.push(line);
    if (stderrLines.length > 20) stderrLines.shift();
  });

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new UserError(`the dev database did not start within ${(opts.timeoutMs ?? 30000) / 1000}s on ${opts.address}`));
    }, opts.timeoutMs ?? 30000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.startsWith('devdb ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new UserError(`cannot run ${binary}: ${err.message}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      const why = stderrLines.join(' ').trim();
      if (/address already in use/i.test(why)) {
        reject(new AddressInUseError(`the dev database address ${opts.address} is already in use`));
      } else {
        reject(new UserError(`the dev database exited (code ${code}) before it was ready: ${why || 'no message'}`));
      }
    });
  });

  return {
    uri: `mongodb://${opts.address}/`,
    address: opts.address,
    dataDir: opts.dataDir,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    },
  };
}
