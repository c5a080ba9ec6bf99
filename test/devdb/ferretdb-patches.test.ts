import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, Double, Int32, Long, MongoClient, MongoServerError, ObjectId, Timestamp, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patchedCopyOf } from '../../src/db/devdb-build.js';
import { ensureDevdbBinary, startDevdb, type DevdbHandle } from '../../src/db/devdb.js';
import { freePort } from '../support/free-port.js';

/**
 * The dev database as FerretDB is built for it (tools/devdb/patches): lookups
 * by _id use the unique _id index, non-unique indexes are recorded but not built, unique
 * ones are built and enforced, stored documents are decoded in one pass, and SQLite does not
 * wait for the disk at each commit (WAL, synchronous=NORMAL: what a process crash cannot
 * lose). A private dev database, so that its collections are its own.
 */

let devdb: DevdbHandle;
let dataDir: string;
let client: MongoClient;
let db: Db;

interface Doc {
  _id: string;
  batch: string;
  code?: string;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'qrelay-patches-test-'));
  devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir });
  client = new MongoClient(devdb.uri, { maxPoolSize: 2 });
  await client.connect();
  db = client.db('patches');
});

afterAll(async () => {
  await client?.close();
  await devdb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The SQLite plan FerretDB's explain reports for a find, as one string. */
async function plan(collection: string, filter: Record<string, unknown>): Promise<string> {
  const res = await db.command({ explain: { find: collection, filter }, verbosity: 'queryPlanner' });
  return JSON.stringify(res.queryPlanner);
}

describe('FerretDB as the dev database builds it', () => {
  it('looks a document up by _id through the unique _id index, and finds, updates and deletes it', async () => {
    const docs = db.collection<Doc>('lookups');
    await docs.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `d${i}`, batch: i % 2 ? 'a' : 'b' })));
    expect(await plan('lookups', { _id: 'd7' })).toMatch(/USING INDEX lookups_[0-9a-f]+__id_/);
    expect(await docs.findOne({ _id: 'd7' })).toEqual({ _id: 'd7', batch: 'a' });
    expect((await docs.updateOne({ _id: 'd7' }, { $set: { batch: 'c' } })).modifiedCount).toBe(1);
    expect(await docs.findOne({ _id: 'd7' })).toEqual({ _id: 'd7', batch: 'c' });
    expect((await docs.deleteOne({ _id: 'd7' })).deletedCount).toBe(1);
    expect(await docs.findOne({ _id: 'd7' })).toBeNull();
    // any other filter is a scan, as before: FerretDB's SQLite backend pushes down a lone _id only
    expect(await docs.countDocuments({ batch: 'a' })).toBe(24);
  });

  it('still refuses a second document with the same _id', async () => {
    const docs = db.collection<Doc>('unique_ids');
    await docs.insertOne({ _id: 'one', batch: 'a' });
    const err = await docs.insertOne({ _id: 'one', batch: 'b' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(11000);
    expect(await docs.find().toArray()).toEqual([{ _id: 'one', batch: 'a' }]);
  });

  it('records a non-unique index without building it: listed, written around, dropped', async () => {
    const docs = db.collection<Doc>('secondary');
    await docs.createIndex({ batch: 1 }, { name: 'batch' });
    await docs.insertMany([
      { _id: 'x', batch: 'a' },
      { _id: 'y', batch: 'a' },
    ]);
    expect((await docs.listIndexes().toArray()).map((i) => i.name).sort()).toEqual(['_id_', 'batch']);
    // not built: SQLite has no pages for it (collStats reads the sizes from SQLite's dbstat)
    const stats = await db.command({ collStats: 'secondary' });
    expect(stats.indexSizes).toEqual({ _id_: expect.any(Number), batch: 0 });
    expect(stats.indexSizes._id_).toBeGreaterThan(0);
    expect(await plan('secondary', { batch: 'a' })).not.toContain('USING INDEX secondary');
    expect(await docs.countDocuments({ batch: 'a' })).toBe(2);
    await docs.dropIndex('batch');
    expect((await docs.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });

  it('builds and enforces a unique index on another field', async () => {
    const docs = db.collection<Doc>('unique_codes');
    await docs.createIndex({ code: 1 }, { name: 'code', unique: true });
    await docs.insertOne({ _id: 'p', batch: 'a', code: 'c1' });
    const err = await docs.insertOne({ _id: 'q', batch: 'a', code: 'c1' }).catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(11000);
    await docs.insertOne({ _id: 'q', batch: 'a', code: 'c2' });
    expect(await docs.countDocuments({})).toBe(2);
  });

  it('reads back documents of every BSON type, nested, as they were written (the one-pass decoding)', async () => {
    const docs = db.collection<{ _id: string }>('types');
    const written = {
      _id: 'all',
      text: 'plain, "quoted", back\\slash, <&>, é 中 😀, line\nbreak, \u2028',
      double: new Double(-1.5),
      whole: new Double(3),
      int: new Int32(-2147483648),
      long: Long.fromString('9223372036854775807'),
      date: new Date(Date.UTC(1969, 6, 20, 20, 17, 40, 123)),
      bool: false,
      none: null,
      binary: new Binary(Buffer.from([0, 1, 2, 250, 255]), 4),
      id: new ObjectId('0123456789abcdef01234567'),
      regex: /^a.c$/i,
      timestamp: new Timestamp({ t: 1_700_000_000, i: 7 }),
      'key <&> é': new Int32(1),
      // (FerretDB stores no arrays within arrays)
      nested: { empty: {}, list: [], deep: { a: [new Int32(1), { b: ['x', null, true, { c: new Date(0) }] }, {}] } },
      array: [new Int32(1), 'two', new Double(3.25), { four: [new Int32(4)] }, null],
    };
    await docs.insertOne(written);
    const read = await docs.findOne({ _id: 'all' }, { promoteValues: false, promoteLongs: false });
    const again = await db
      .collection('types')
      .aggregate([{ $match: { _id: 'all' } }], { promoteValues: false, promoteLongs: false })
      .toArray();
    for (const doc of [read, again[0]]) {
      expect(JSON.stringify(doc)).toBe(JSON.stringify(written));
      expect(doc).toEqual(written);
    }
    // and what an update reads first (the document, decoded) is written back whole
    await docs.updateOne({ _id: 'all' }, { $set: { 'nested.deep.a.0': new Int32(2) } });
    const updated = await docs.findOne({ _id: 'all' }, { promoteValues: false, promoteLongs: false });
    expect(updated).toEqual({ ...written, nested: { ...written.nested, deep: { a: [new Int32(2), ...written.nested.deep.a.slice(1)] } } });
  });

  it('keeps every acknowledged write when the dev database is killed (SIGKILL) and started again', async () => {
    const crashDir = mkdtempSync(join(tmpdir(), 'qrelay-patches-crash-'));
    const address = `127.0.0.1:${await freePort()}`;
    let crashing = await startDevdb({ address, dataDir: crashDir });
    let crashClient = new MongoClient(crashing.uri, { maxPoolSize: 4 });
    try {
      const docs = crashClient.db('crash').collection<{ _id: string; n: number; items: { k: number }[] }>('docs');
      await docs.insertMany(Array.from({ length: 200 }, (_, i) => ({ _id: `d${i}`, n: i, items: [{ k: i }] })));
      for (let i = 0; i < 200; i += 3) await docs.updateOne({ _id: `d${i}` }, { $set: { n: -i }, $push: { items: { k: -i } } });
      await docs.deleteOne({ _id: 'd1' });
      const acknowledged = await docs.find({}).sort({ _id: 1 }).toArray();
      await new Promise((resolve) => (crashing.process.once('exit', resolve), crashing.process.kill('SIGKILL')));
      await crashClient.close(true);

      crashing = await startDevdb({ address, dataDir: crashDir });
      crashClient = new MongoClient(crashing.uri, { maxPoolSize: 4 });
      const after = await crashClient.db('crash').collection('docs').find({}).sort({ _id: 1 }).toArray();
      expect(after).toHaveLength(199);
      expect(after).toEqual(acknowledged);
    } finally {
      await crashClient.close(true);
      await crashing.stop();
      rmSync(crashDir, { recursive: true, force: true });
    }
  });

  it("passes FerretDB's own sjson tests and the one-pass decoding's test against FerretDB's decoding", () => {
    // the copy the launcher was built from (devdb-build.ts); the tests compile against its go.mod
    const copy = patchedCopyOf(ensureDevdbBinary().binary);
    expect(existsSync(join(copy, 'internal', 'handler', 'sjson', 'onepass_test.go'))).toBe(true);
    const run = spawnSync('go', ['test', '-count=1', '-v', './internal/handler/sjson/'], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, CGO_ENABLED: '0' },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-3000)).toBe(0);
    for (const name of [
      'TestOnePassAsFerretDB',
      'TestOnePassDeclines',
      'TestOnePassStrings',
      'TestUnmarshalInvalid',
      'TestMarshalUnmarshal',
    ])
      expect(run.stdout).toContain(`--- PASS: ${name}`);
  }, 240_000);
});
