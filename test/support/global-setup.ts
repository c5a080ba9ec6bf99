import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDevdb, type DevdbHandle } from '../../src/db/devdb.js';

declare module 'vitest' {
  export interface ProvidedContext {
    mongoBaseUri: string;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

let devdb: DevdbHandle | undefined;
let dataDir: string | undefined;

/**
 * One ephemeral dev database for the whole run, on a free port in a temporary directory;
 * each test file then works in a database of its own (per-file-database.ts). With
 * MONGODB_URI set, that server is used instead.
 */
export async function setup(project: TestProject) {
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
