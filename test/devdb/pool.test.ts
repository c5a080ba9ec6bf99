import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MongoClient, type Db, type FindCursor } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevdb, type DevdbHandle } from '../../src/db/devdb.js';
import { freePort } from '../support/free-port.js';

/**
 * The dev database launcher's proxy under load (tools/devdb/cursors.go): FerretDB v1.24
 * gives every open cursor one of its 100 SQLite connections. These tests run a private
 * dev database (they count its connections, which other test files must not disturb).
 */

interface DevdbStatus {
  connections: number;
  openCursors: number;
  slotsInUse: number;
  slotBudget: number;
  cursorsKilled: number;
  writeLocked: boolean;
}

let devdb: DevdbHandle;
let dataDir: string;
let observer: MongoClient;

async function status(): Promise<DevdbStatus> {
  return (await observer.db('admin').command({ devdbStatus: 1 })) as unknown as DevdbStatus;
}

/** Polls until `ok` holds (the proxy notices closed connections asynchronously); the test timeout is the safety net. */
async function until(ok: (s: DevdbStatus) => boolean): Promise<DevdbStatus> {
  for (;;) {
    const s = await status();
    if (ok(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'qrelay-pool-test-'));
  devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir });
  observer = new MongoClient(devdb.uri, { maxPoolSize: 1 });
  await observer.connect();
  const docs = Array.from({ length: 60 }, (_, i) => ({ _id: `doc-${i}`, n: i }));
  await observer.db('pool').collection<{ _id: string; n: number }>('docs').insertMany(docs);
  await observer.db('pool').collection<{ _id: string; runs: number }>('jobs').insertOne({ _id: 'job', runs: 0 });
});

afterAll(async () => {
  await observer?.close();
  await devdb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the dev database proxy under load', () => {
  it('runs a findAndModify while more cursors are open than FerretDB has connections, and their getMores go on', async () => {
    const before = await status();
    const client = new MongoClient(devdb.uri, { maxPoolSize: 150 });
    await client.connect();
    const db: Db = client.db('pool');
    try {
      // 110 cursors, each with its first batch read and the rest pending: without the budget
      // they hold 110 of 100 SQLite connections and the update below waits for ever
      const cursors: FindCursor[] = [];
      await Promise.all(
        Array.from({ length: 110 }, async () => {
          const cursor = db.collection('docs').find({}, { batchSize: 2 });
          await cursor.next();
          cursors.push(cursor);
        }),
      );
      const during = await status();
      expect(during.slotsInUse).toBeLessThanOrEqual(during.slotBudget);
      expect(during.cursorsKilled).toBeGreaterThan(0); // idle cursors made room for the last finds

      const claimed = await db
        .collection('jobs')
        .findOneAndUpdate({ _id: 'job' as never }, { $inc: { runs: 1 } }, { returnDocument: 'after' });
      expect(claimed?.runs).toBe(1);

      // every cursor finishes: read to the end, or told it was killed for being idle
      const outcomes = await Promise.all(
        cursors.map((c) =>
          c.toArray().then(
            (rest) => (rest.length === 59 ? 'read' : `short ${rest.length}`),
            (err: Error) => (/cursor/i.test(err.message) ? 'killed' : err.message),
          ),
        ),
      );
      expect(outcomes.filter((o) => o !== 'read' && o !== 'killed')).toEqual([]);
      expect(outcomes.filter((o) => o === 'read').length).toBeGreaterThanOrEqual(during.slotBudget - 10);
    } finally {
      await client.close();
    }
    const after = await until((s) => s.connections === before.connections && s.openCursors === 0);
    expect(after).toMatchObject({ connections: before.connections, openCursors: 0, slotsInUse: 0, writeLocked: false });
  });

  it('is back where it started after clients are killed with cursors open and writes in flight', async () => {
    const before = await until((s) => s.openCursors === 0 && s.slotsInUse === 0);
    // each child opens 20 cursors it never finishes and keeps writing, then is SIGKILLed
    const script = `
      import { MongoClient } from 'mongodb';
      const client = new MongoClient(process.argv[1], { maxPoolSize: 30 });
      await client.connect();
      const db = client.db('pool');
      const cursors = [];
      for (let i = 0; i < 20; i++) { const c = db.collection('docs').find({}, { batchSize: 1 }); await c.next(); cursors.push(c); }
      process.stdout.write('ready\\n');
      for (;;) await Promise.all(Array.from({ length: 10 }, () => db.collection('jobs').findOneAndUpdate({ _id: 'job' }, { $inc: { runs: 1 } })));
    `;
    const children = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--input-type=module', '-e', script, devdb.uri], {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve, reject) => {
            createInterface({ input: child.stdout! }).once('line', (line) => (line === 'ready' ? resolve() : reject(new Error(line))));
            child.once('exit', (code) => reject(new Error(`a load client exited early (${code})`)));
          }),
      ),
    );
    const loaded = await status();
    expect(loaded.connections).toBeGreaterThan(before.connections);
    expect(loaded.openCursors).toBeGreaterThan(0);
    await Promise.all(children.map((child) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGKILL')))));

    const after = await until((s) => s.connections === before.connections && s.openCursors === 0 && s.slotsInUse === 0 && !s.writeLocked);
    expect(after.connections).toBe(before.connections);
    // and it still answers reads and writes
    const job = await observer
      .db('pool')
      .collection('jobs')
      .findOneAndUpdate({ _id: 'job' as never }, { $inc: { runs: 1 } }, { returnDocument: 'after' });
    expect(job?.runs).toBeGreaterThan(1);
  });
});
