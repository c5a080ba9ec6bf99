import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongoose, requireDb } from '../../src/db/connection.js';
import { startDevdb, type DevdbHandle } from '../../src/db/devdb.js';
import { migrateDatabase } from '../../src/db/migrate-database.js';
import { createLogger } from '../../src/log.js';
import { paths } from '../../src/paths.js';
import { preparePublish } from '../../src/pipeline/publish.js';
import { freePort } from '../support/free-port.js';
import { importSampleBatch, testContext } from '../pipeline/support.js';

/**
 * `qrelay serve` (a child process) under a burst of status and report requests whose
 * clients go away mid-response: sockets destroyed after the first bytes, and a client
 * process SIGKILLed with requests in flight. Afterwards the dev database has no more
 * connections than before, no open cursor, no command in flight and no write lock, and the
 * service still answers. A private dev database: the test counts its connections.
 * (bench/api-load.ts measures the same routes at 500 requests/s; this checks correctness only.)
 */

interface DevdbStatus {
  connections: number;
  openCursors: number;
  slotsInUse: number;
  writeLocked: boolean;
}

const BATCH = 'killed';
const BURST = 500;
let devdb: DevdbHandle;
let dir: string;
let observer: MongoClient;
let serve: ChildProcess;
let base: string;

const status = async () => (await observer.db('admin').command({ devdbStatus: 1 })) as unknown as DevdbStatus;

/** Polls until `ok` holds (the proxy notices closed connections asynchronously); the test timeout is the safety net. */
async function until(ok: (s: DevdbStatus) => boolean): Promise<DevdbStatus> {
  for (;;) {
    const s = await status();
    if (ok(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const routes = () => [`${base}/api/v1/batches/${BATCH}`, `${base}/api/v1/batches/${BATCH}/report`];

/** One GET; with `abort`, the socket is destroyed at the first bytes of the answer. Resolves with the status (0: aborted). */
function get(url: string, abort: boolean, gzip: boolean): Promise<number> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { headers: gzip ? { 'Accept-Encoding': 'gzip' } : {} }, (res) => {
      if (abort) {
        res.once('data', () => {
          req.destroy();
          resolve(0);
        });
      } else {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'qrelay-load-killed-'));
  devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir: join(dir, 'devdb') });
  const uri = `${devdb.uri}qrelay`;
  const connection = await connectMongoose(uri);
  await migrateDatabase({ connection, target: { uri, describe: 'test' }, close: async () => undefined }, createLogger('silent'));
  const ctx = testContext({ connection, db: requireDb(connection), uri });
  await importSampleBatch(ctx, dir, BATCH, 60);
  await preparePublish(ctx, BATCH, { target: 'local', preset: 'dream' }, 'local');
  await mongoose.disconnect();

  const port = await freePort();
  serve = spawn(
    process.execPath,
    ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'serve', '--no-marketplace', '--port', String(port)],
    {
      cwd: paths.root,
      env: { ...process.env, MONGODB_URI: uri, QRELAY_DATA_DIR: dir, LOG_LEVEL: 'warn', QRELAY_API_TOKEN: 'load-killed-test-token' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (serve.exitCode !== null) throw new Error(`qrelay serve exited (${serve.exitCode})`);
    if (await get(`${base}/healthz`, false, false).then((s) => s === 200)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  observer = new MongoClient(devdb.uri, { maxPoolSize: 1 });
  await observer.connect();
}, 120_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) await new Promise((resolve) => (serve.once('exit', resolve), serve.kill('SIGTERM')));
  await observer?.close();
  await devdb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('status and report under load, clients killed mid-response', () => {
  it('leaves the database where it started and keeps answering', async () => {
    // a first burst answered in full: the snapshots and the service's pool are what a busy dashboard leaves
    const whole = await Promise.all(Array.from({ length: 50 }, (_, i) => get(routes()[i % 2]!, false, i % 4 < 2)));
    expect(whole.every((s) => s === 200)).toBe(true);
    const before = await until((s) => s.openCursors === 0 && s.slotsInUse === 0 && !s.writeLocked);

    // a client process with BURST requests in flight, SIGKILLed once answers have started to come
    const script = `
      import { request } from 'node:http';
      const urls = JSON.parse(process.argv[1]);
      let answered = 0;
      for (let i = 0; i < ${BURST}; i++) {
        const req = request(urls[i % 2], { headers: i % 4 < 2 ? { 'Accept-Encoding': 'gzip' } : {} }, (res) => {
          res.once('data', () => { if (++answered === 10) process.stdout.write('answering\\n'); });
        });
        req.on('error', () => undefined);
        req.end();
      }
    `;
    const client = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(routes())], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: client.stdout! }).once('line', () => resolve());
      client.once('exit', (code) => reject(new Error(`the load client exited before answers came (${code})`)));
    });
    // and, meanwhile, BURST requests from here, half of them dropped at their first bytes
    const mine = Promise.all(Array.from({ length: BURST }, (_, i) => get(routes()[i % 2]!, i % 2 === 0, i % 4 < 2)));
    await new Promise((resolve) => (client.once('exit', resolve), client.kill('SIGKILL')));
    const answered = await mine;
    expect(answered.filter((s) => s !== 0).every((s) => s === 200)).toBe(true);

    const after = await until((s) => s.connections <= before.connections && s.openCursors === 0 && s.slotsInUse === 0 && !s.writeLocked);
    expect(after.connections).toBeLessThanOrEqual(before.connections);
    expect(await Promise.all([`${base}/healthz`, ...routes()].map((url) => get(url, false, true)))).toEqual([200, 200, 200]);
  });
});
