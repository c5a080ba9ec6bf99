import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, MongoServerError, type Db } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevdb, type DevdbHandle } from '../../src/db/devdb.js';
import { freePort } from '../support/free-port.js';

/**
 * The dev database as FerretDB is built for it (tools/devdb/ferretdb-patches.json): lookups
 * by _id use the unique _id index, non-unique indexes are recorded but not built, unique
 * ones are built and enforced. A private dev database, so that its collections are its own.
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
});
