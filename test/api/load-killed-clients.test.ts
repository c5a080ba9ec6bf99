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
import { exited, hasExited, stopChild, until, within } from '../support/bounded.js';
import { freePort } from '../support/free-port.js';
import { importSampleBatch, testContext } from '../pipeline/support.js';

/**
 * `qrelay serve` (a child process) under a burst of status and report requests whose
 * clients go away mid-response: sockets destroyed after the first bytes, and a client
 * process SIGKILLed with requests in flight. Afterwards the dev database has no more
 * connections than before, no open cursor, no command in flight and no write lock, and the
 * service still answers. A private dev database: the test counts its connections.
 * (bench/api-load.ts measures the same routes at 500 requests/s; this checks correctness only.)
 *
 * Every wait is bounded (test/support/bounded.ts) and says what did not happen: on a busy
 * machine a wait that missed its event used to hang until the test timeout.
 */

interface DevdbStatus {
  connections: number;
  openCursors: number;
  slotsInUse: number;
  writeLocked: boolean;
}

const BATCH = 'killed';
const BURST = 500;
/**
 * The service's connection pool, fixed: with the driver's default (100) the pool grows with
 * the load, and how far depends on the machine's speed (a slow one has more requests waiting
 * at once), so a count of connections after the burst could exceed the count before it
 * without any leak, and a wait for it to come back never ended.
 */
const POOL = 10;
/** Bounds of the waits: far above what they take, below the test timeout, so a failure names its wait. */
const SETTLE_MS = 60_000;
const ANSWER_MS = 120_000;
let devdb: DevdbHandle;
let dir: string;
let observer: MongoClient;
let serve: ChildProcess;
let base: string;

const status = async () =>
  (await within(
    SETTLE_MS,
    'the devdbStatus command answering',
    observer.db('admin').command({ devdbStatus: 1 }),
  )) as unknown as DevdbStatus;

/** Polls the dev database until `ok` holds (the proxy notices closed connections asynchronously). */
const settled = (wanted: string, ok: (s: DevdbStatus) => boolean) => until(SETTLE_MS, `the dev database: ${wanted}`, status, ok);

// the report names workers: it asks for the token (src/api/auth.ts)
const AUTH = { Authorization: 'Bearer load-killed-test-token' };
const routes = () => [`${base}/api/v1/batches/${BATCH}`, `${base}/api/v1/batches/${BATCH}/report`];

/**
 * One GET; with `abort`, the socket is destroyed at the first bytes of the answer. Resolves
 * with the status (0: aborted, or cut off by the server), whichever of the response's events
 * comes (an answer without a body has no 'data', one cut off no 'end', but every one 'close');
 * rejects when nothing at all arrives for ANSWER_MS.
 */
function get(url: string, abort: boolean, gzip: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    let done = false;
    const settle = (status: number) => {
      if (done) return;
      done = true;
      resolve(status);
    };
    const req = httpRequest(url, { headers: { ...AUTH, ...(gzip ? { 'Accept-Encoding': 'gzip' } : {}) } }, (res) => {
      if (abort) {
        res.once('data', () => {
          req.destroy();
          settle(0);
        });
      } else {
        res.resume();
        res.on('end', () => settle(res.statusCode ?? 0));
      }
      res.on('error', () => settle(0));
      res.on('close', () => settle(abort || !res.complete ? 0 : (res.statusCode ?? 0)));
    });
    req.setTimeout(ANSWER_MS, () => {
      if (!done) {
        done = true;
        reject(new Error(`GET ${url}: no answer for ${ANSWER_MS / 1000} s`));
      }
      req.destroy();
    });
    req.on('error', () => settle(0));
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
  observer = new MongoClient(devdb.uri, { maxPoolSize: 1 });
  await observer.connect();

  const port = await freePort();
  serve = spawn(
    process.execPath,
    ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'serve', '--no-marketplace', '--port', String(port)],
    {
      cwd: paths.root,
      env: {
        ...process.env,
        MONGODB_URI: uri,
        QRELAY_DATA_DIR: dir,
        LOG_LEVEL: 'warn',
        QRELAY_API_TOKEN: 'load-killed-test-token',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  base = `http://127.0.0.1:${port}`;
  const healthy = async () => {
    if (hasExited(serve)) throw new Error(`qrelay serve exited (code ${serve.exitCode}, signal ${serve.signalCode}) before it answered`);
    // refused while it starts (0): asked again
    return within(10_000, 'qrelay serve answering /healthz', get(`${base}/healthz`, false, false)).catch(() => 0);
  };
  await until(SETTLE_MS, `qrelay serve on port ${port} answering /healthz with 200`, healthy, (s) => s === 200, 100);
}, 120_000);

afterAll(async () => {
  if (serve) await stopChild(serve);
  await observer?.close();
  await devdb?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('status and report under load, clients killed mid-response', () => {
  it('leaves the database where it started and keeps answering', async () => {
    // a first burst answered in full: the snapshots and the service's pool are what a busy dashboard leaves
    const whole = await Promise.all(Array.from({ length: 50 }, (_, i) => get(routes()[i % 2]!, false, i % 4 < 2)));
    expect(whole.every((s) => s === 200)).toBe(true);
    const before = await settled(
      'no open cursor, no command in flight, no write lock after the first burst',
      (s) => s.openCursors === 0 && s.slotsInUse === 0 && !s.writeLocked,
    );

    // a client process with BURST requests in flight, SIGKILLed once answers have started to come
    const script = `
      import { request } from 'node:http';
      const urls = JSON.parse(process.argv[1]);
      let answered = 0;
      for (let i = 0; i < ${BURST}; i++) {
        const req = request(urls[i % 2], { headers: { ...${JSON.stringify(AUTH)}, ...(i % 4 < 2 ? { 'Accept-Encoding': 'gzip' } : {}) } }, (res) => {
          res.once('data', () => { if (++answered === 10) process.stdout.write('answering\\n'); });
        });
        req.on('error', () => undefined);
        req.end();
      }
    `;
    const client = spawn(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(routes())], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await within(
        ANSWER_MS,
        'the load client seeing its first 10 answers',
        new Promise<void>((resolve, reject) => {
          createInterface({ input: client.stdout! }).once('line', () => resolve());
          void exited(client).then(() => reject(new Error(`the load client exited before answers came (code ${client.exitCode})`)));
        }),
      );
      // and, meanwhile, BURST requests from here, half of them dropped at their first bytes
      const mine = Promise.all(Array.from({ length: BURST }, (_, i) => get(routes()[i % 2]!, i % 2 === 0, i % 4 < 2)));
      // it may have finished by itself meanwhile: stopChild waits on its exit either way
      await stopChild(client, 'SIGKILL');
      const answered = await mine;
      expect(answered.filter((s) => s !== 0).every((s) => s === 200)).toBe(true);
    } finally {
      await stopChild(client, 'SIGKILL');
    }

    // at most the pool's connections more than before: the pool may have grown, up to POOL, but
    // a connection left open by a request whose client went away would exceed it
    const bound = before.connections + POOL;
    const after = await settled(
      `at most ${bound} connections, no open cursor, no command in flight, no write lock after the killed clients`,
      (s) => s.connections <= bound && s.openCursors === 0 && s.slotsInUse === 0 && !s.writeLocked,
    );
    expect(after.connections).toBeLessThanOrEqual(bound);
    expect(await Promise.all([`${base}/healthz`, ...routes()].map((url) => get(url, false, true)))).toEqual([200, 200, 200]);
  });
});
