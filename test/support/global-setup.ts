import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevdb, type DevdbHandle } from '../../src/db/devdb.js';
import { findChromium } from './chromium.js';
import { freePort } from './free-port.js';
import { ensureVenv } from './python-venv.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoBaseUri: string;
  }
}

let devdb: DevdbHandle | undefined;
let dataDir: string | undefined;

/**
 * What a fresh clone needs for `npm test`, made here so that nothing else is:
 * - the Python virtual environment `.venv` of the boto3 test (created once, then reused);
 * - Chromium for the browser tests (test/support/chromium.ts: QRELAY_CHROMIUM, Debian's
 *   chromium, or the bundled @sparticuz/chromium, decompressed once into the cache);
 * - one ephemeral dev database for the whole run, on a free port in a temporary directory;
 *   each test file then works in a database of its own (per-file-database.ts). With
 *   MONGODB_URI set, that server is used instead.
 */
export async function setup(project: TestProject) {
  const say = (line: string) => process.stderr.write(`${line}\n`);
  ensureVenv(say);
  // decided (and decompressed) once here, before test files race for it
  const browser = await findChromium();
  if (process.env.LOG_LEVEL === 'debug') say(`test setup: Chromium from ${browser.source} (${browser.executablePath})`);
  if (process.env.MONGODB_URI) {
    project.provide('mongoBaseUri', process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/'));
    return;
  }
  dataDir = mkdtempSync(join(tmpdir(), 'qrelay-test-devdb-'));
  devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir });
  project.provide('mongoBaseUri', devdb.uri);
}

export async function teardown() {
  await devdb?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
