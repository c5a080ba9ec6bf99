import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agenda } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { MongoClient } from 'mongodb';
import mongoose, { Schema } from 'mongoose';
import { describe, expect, it } from 'vitest';
import { loadMigrations, runMigrations, type Migration } from '../src/db/migrate.js';
import { createAgenda, startJobs, stopJobs } from '../src/jobs/agenda.js';
import { HOUSEKEEPING_JOB } from '../src/jobs/housekeeping.js';
import { declareRecurring } from '../src/jobs/recurring.js';
import { collections } from '../src/db/collections.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { useTestDatabase } from './support/db.js';

/**
 * What qrelay relies on from its database, proven on the real server the suite runs
 * against (the FerretDB dev database, or MONGODB_URI).
 */
const t = useTestDatabase();
const silent = createLogger('silent');

interface Claimable {
  key: string;
  value: number;
  claimedBy?: string;
  tags: string[];
}

const ClaimableModel = mongoose.model<Claimable>(
  'Claimable',
  new Schema<Claimable>({
    key: { type: String, required: true, unique: true },
    value: { type: Number, required: true },
    claimedBy: String,
    tags: [String],
  }),
);

describe('mongoose models on the dev database', () => {
  it('creates, reads, updates and deletes', async () => {
    await ClaimableModel.init();
    const created = await ClaimableModel.create({ key: 'crud', value: 1, tags: ['a'] });
    expect(created._id).toBeDefined();
    const found = await ClaimableModel.findOne({ key: 'crud' }).lean();
    expect(found).toMatchObject({ key: 'crud', value: 1, tags: ['a'] });
    await ClaimableModel.updateOne({ key: 'crud' }, { $inc: { value: 41 }, $push: { tags: 'b' } });
    expect(await ClaimableModel.findOne({ key: 'crud' }).lean()).toMatchObject({ value: 42, tags: ['a', 'b'] });
    const deleted = await ClaimableModel.deleteOne({ key: 'crud' });
    expect(deleted.deletedCount).toBe(1);
    expect(await ClaimableModel.countDocuments({ key: 'crud' })).toBe(0);
  });

  it('surfaces a unique-index violation as a duplicate-key error', async () => {
    // qrelay connects with autoIndex off (indexes belong to migrations), so build them here
    await ClaimableModel.createIndexes();
    await ClaimableModel.create({ key: 'dup', value: 1 });
    const err = await ClaimableModel.create({ key: 'dup', value: 2 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 11000 });
    expect(await ClaimableModel.countDocuments({ key: 'dup' })).toBe(1);
  });

  it('lets exactly one of 20 concurrent claimers win a findOneAndUpdate claim', async () => {
    // several rounds: a race that is lost only sometimes must still show up here
    for (let round = 0; round < 10; round++) {
      const key = `prize-${round}`;
      await ClaimableModel.create({ key, value: 0 });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ClaimableModel.findOneAndUpdate(
            { key, claimedBy: { $exists: false } },
            { $set: { claimedBy: `claimer-${i}` } },
            { returnDocument: 'after' },
          ).lean(),
        ),
      );
      const winners = results.filter((r) => r !== null);
      expect(winners).toHaveLength(1);
      const stored = await ClaimableModel.findOne({ key }).lean();
      expect(stored?.claimedBy).toBe(winners[0]!.claimedBy);
    }
  });

  it('loses no increment under 50 concurrent $inc updates', async () => {
    await ClaimableModel.create({ key: 'counter', value: 0 });
    await Promise.all(Array.from({ length: 50 }, () => ClaimableModel.updateOne({ key: 'counter' }, { $inc: { value: 1 } })));
    expect((await ClaimableModel.findOne({ key: 'counter' }).lean())?.value).toBe(50);
  });

  it('completes a bulk write of 250 updates (the dev database splits what would deadlock FerretDB)', async () => {
    const col = t.db.collection<{ _id: string; v: number }>('bulk');
    await col.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: `d${i}`, v: 0 })));
    const res = await col.bulkWrite(
      Array.from({ length: 250 }, (_, i) => ({ updateOne: { filter: { _id: `d${i}` }, update: { $inc: { v: 1 } } } })),
    );
    expect(res.modifiedCount).toBe(250);
    expect(await col.countDocuments({ v: 1 })).toBe(250);
  });

  it('refuses, rather than hangs on, a raw update command of 100+ statements', async () => {
    const updates = Array.from({ length: 120 }, (_, i) => ({ q: { _id: `d${i}` }, u: { $inc: { v: 1 } } }));
    const outcome = await t.db.command({ update: 'bulk', updates }).then(
      () => 'accepted',
      (e: Error) => e.message,
    );
    // a MongoDB server accepts it; the dev database names the limit instead of deadlocking
    expect(outcome === 'accepted' || /at most 99 per command/.test(outcome)).toBe(true);
    if (outcome !== 'accepted') expect(await t.db.collection('bulk').countDocuments({ v: 2 })).toBe(0);
  });

  it('creates one document when 20 upserts race for the same key', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => ClaimableModel.updateOne({ key: 'upserted' }, { $setOnInsert: { value: i } }, { upsert: true })),
    );
    expect(await ClaimableModel.countDocuments({ key: 'upserted' })).toBe(1);
  });
});

describe('migration runner', () => {
  function countingMigrations(counter: Map<string, number>, delayMs = 0): Migration[] {
    return ['0001-a', '0002-b', '0003-c'].map((id) => ({
      id,
      description: `test ${id}`,
      async up(db) {
        counter.set(id, (counter.get(id) ?? 0) + 1);
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        await db.collection('migrated').updateOne({ _id: id as never }, { $set: { at: new Date() } }, { upsert: true });
      },
    }));
  }

  it('applies in order, records, and is a no-op the second time', async () => {
    const db = t.connection.useDb('qrelay_migrate_once').db!;
    await db.dropDatabase();
    const counter = new Map<string, number>();
    const first = await runMigrations(db, countingMigrations(counter));
    expect(first.applied).toEqual(['0001-a', '0002-b', '0003-c']);
    const second = await runMigrations(db, countingMigrations(counter));
    expect(second).toEqual({ applied: [], skipped: ['0001-a', '0002-b', '0003-c'] });
    expect([...counter.values()]).toEqual([1, 1, 1]);
    const records = await db.collection('migrations').find().sort({ _id: 1 }).toArray();
    expect(records.map((r) => [r._id, r.status])).toEqual([
      ['0001-a', 'applied'],
      ['0002-b', 'applied'],
      ['0003-c', 'applied'],
    ]);
  });

  it('applies each migration exactly once when two processes migrate at once', async () => {
    // two independent clients stand in for two processes
    const clients = [await MongoClient.connect(t.uri), await MongoClient.connect(t.uri)];
    try {
      await clients[0]!.db('qrelay_migrate_race').dropDatabase();
      const counter = new Map<string, number>();
      const results = await Promise.all(
        clients.map((c, i) => runMigrations(c.db('qrelay_migrate_race'), countingMigrations(counter, 50), { owner: `p${i}`, pollMs: 20 })),
      );
      expect([...counter.entries()]).toEqual([
        ['0001-a', 1],
        ['0002-b', 1],
        ['0003-c', 1],
      ]);
      const appliedByEither = results.flatMap((r) => r.applied).sort();
      expect(appliedByEither).toEqual(['0001-a', '0002-b', '0003-c']);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('takes over a migration whose owner died mid-way', async () => {
    const db = t.connection.useDb('qrelay_migrate_stale').db!;
    await db.dropDatabase();
    await db.collection('migrations').insertOne({
      _id: '0001-a' as never,
      status: 'applying',
      description: 'test',
      owner: 'dead-process',
      heartbeatAt: new Date(Date.now() - 120_000),
    });
    const counter = new Map<string, number>();
    const result = await runMigrations(db, countingMigrations(counter), { staleAfterMs: 60_000 });
    expect(result.applied).toEqual(['0001-a', '0002-b', '0003-c']);
    expect(counter.get('0001-a')).toBe(1);
  });

  it('loads the repository migrations and refuses a malformed file with its path', async () => {
    const real = await loadMigrations(paths.migrations);
    expect(real.length).toBeGreaterThan(0);
    expect(real.map((m) => m.id)).toEqual([...real.map((m) => m.id)].sort());
    const dir = mkdtempSync(join(tmpdir(), 'qrelay-migrations-'));
    writeFileSync(join(dir, '0001-broken.js'), 'export const nothing = 1;\n');
    await expect(loadMigrations(dir)).rejects.toThrow(/0001-broken\.js must export/);
  });
});

describe('agenda jobs on the dev database', () => {
  it('runs a recurring job once per schedule across two agenda instances', async () => {
    const db = t.connection.useDb('qrelay_agenda_race').db!;
    await db.dropDatabase();
    const runs: { instance: string; ranAt: number; next: number }[] = [];
    const make = (name: string) => {
      const agenda = new Agenda({ backend: new MongoBackend({ mongo: db }), name, processEvery: 100 });
      agenda.define('tick', async (job) => {
        // when this run started, and the time it set for the next one
        runs.push({ instance: name, ranAt: job.attrs.lastRunAt!.getTime(), next: job.attrs.nextRunAt!.getTime() });
        await new Promise((r) => setTimeout(r, 50));
      });
      return agenda;
    };
    const instances = [make('one'), make('two')];
    await Promise.all(instances.map((a) => a.start()));
    // both declare the same recurring job, as two `serve` processes do (src/jobs/recurring.ts)
    await Promise.all(instances.map((a) => declareRecurring(a, '1 second', 'tick')));
    // until three runs happened (a condition; the test's timeout is the safety net)
    while (runs.length < 3) await new Promise((r) => setTimeout(r, 100));
    await Promise.all(instances.map((a) => a.stop()));

    const stored = await db.collection('agendaJobs').countDocuments({ name: 'tick' });
    expect(stored).toBe(1);
    expect(runs.length).toBeGreaterThanOrEqual(3);
    // once per schedule: each run starts no earlier than the time the run before it set for
    // the next (a second instance running the same occurrence would start before it). Not
    // rounded to seconds: a run that starts late on a busy machine is still one run.
    const sorted = [...runs].sort((a, b) => a.ranAt - b.ranAt);
    const early = sorted.slice(1).filter((r, i) => r.ranAt < sorted[i]!.next);
    expect(early, JSON.stringify(sorted)).toEqual([]);
  });

  it('runs the housekeeping job end to end and retries a failing job with backoff', async () => {
    const db = t.connection.useDb('qrelay_agenda_jobs').db!;
    await db.dropDatabase();
    const agenda = createAgenda({ db, logger: silent, processEvery: 100 });
    let attempts = 0;
    agenda.define(
      'flaky',
      async () => {
        attempts += 1;
        if (attempts < 3) throw new Error(`attempt ${attempts} fails`);
      },
      { backoff: () => (attempts < 5 ? 100 : null) },
    );
    await startJobs(agenda, { housekeepingEvery: '1 hour' });
    await agenda.now('flaky');
    // until both happened (the test's timeout is the safety net)
    for (;;) {
      const [hk, flaky] = await Promise.all([db.collection(collections.housekeepingRuns).countDocuments(), Promise.resolve(attempts)]);
      if (hk >= 1 && flaky >= 3) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await stopJobs(agenda);
    expect(await db.collection(collections.housekeepingRuns).countDocuments()).toBeGreaterThanOrEqual(1);
    expect(attempts).toBe(3);
    const job = await db.collection('agendaJobs').findOne({ name: HOUSEKEEPING_JOB });
    expect(job?.repeatInterval).toBe('1 hour');
  });
});
