import { describe, expect, it } from 'vitest';
import {
  BULK_SLICE,
  bulkWriteSliced,
  INSERT_CHUNK,
  insertMissing,
  insertRefusingStored,
  insertStoredForm,
} from '../../src/pipeline/bulk.js';
import { useTestDatabase } from '../support/db.js';

const t = useTestDatabase();

const docs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ _id: `d${String(from + i).padStart(6, '0')}`, n: from + i }));

/** A collection that records each insertMany call's size and how many were in flight at once. */
function recording(fail?: (call: number) => Error | undefined) {
  const sizes: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  return {
    sizes,
    get mostInFlight() {
      return mostInFlight;
    },
    async insertMany(batch: readonly object[]): Promise<unknown> {
      const call = sizes.push(batch.length);
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      const err = fail?.(call);
      if (err) throw err;
      return {};
    },
  };
}

describe('bulk inserts in chunks', () => {
  it('inserts every document through the dev database, across chunks and at once, and names the ones stored already', async () => {
    const c = t.db.collection<{ _id: string; n: number }>('bulk_chunks');
    const all = docs(2 * INSERT_CHUNK + 321);
    await insertStoredForm(c, all.slice(0, 700), { concurrency: 3 });
    // stored already: the first 700 and one far into the third chunk
    await c.insertOne({ _id: all[2 * INSERT_CHUNK + 5]!._id, n: -1 });
    const refused = await insertRefusingStored(c, all, { concurrency: 2 });
    expect([...refused].sort()).toEqual([...all.slice(0, 700).map((d) => d._id), all[2 * INSERT_CHUNK + 5]!._id].sort());
    expect(await c.countDocuments()).toBe(all.length);
    // a stored document is left as it was
    expect((await c.findOne({ _id: all[2 * INSERT_CHUNK + 5]!._id }))?.n).toBe(-1);
    const inserted = await insertMissing({ collection: c }, docs(10, all.length - 5));
    expect([...inserted].sort()).toEqual(docs(5, all.length).map((d) => d._id));
  });

  it('fails an insert of a document stored already in its stored form, as mongoose would', async () => {
    const c = t.db.collection<{ _id: string; n: number }>('bulk_stored_form');
    await insertStoredForm(c, docs(3));
    await expect(insertStoredForm(c, docs(1_500), { concurrency: 2 })).rejects.toMatchObject({ code: 11000 });
  });

  it('keeps each call to INSERT_CHUNK documents and at most `concurrency` calls in flight', async () => {
    const c = recording();
    await insertStoredForm(c, docs(3 * INSERT_CHUNK + 1), { concurrency: 2 });
    expect(c.sizes).toEqual([INSERT_CHUNK, INSERT_CHUNK, INSERT_CHUNK, 1]);
    expect(c.mostInFlight).toBe(2);
    const one = recording();
    await insertRefusingStored(one, docs(2 * INSERT_CHUNK));
    expect(one.mostInFlight).toBe(1);
    const none = recording();
    await insertStoredForm(none, []);
    expect(none.sizes).toEqual([]);
  });

  it('writes updates a slice at a time, or a few slices at once, and counts what they matched', async () => {
    const c = t.db.collection<{ _id: string; n: number }>('bulk_slices');
    await insertStoredForm(c, docs(3 * BULK_SLICE + 7));
    const ops = (n: number, value: number) =>
      docs(n).map(({ _id }) => ({ updateOne: { filter: { _id }, update: { $set: { n: value } }, upsert: true } }));
    const model = { bulkWrite: (o: ReturnType<typeof ops>, opts: { ordered: boolean }) => c.bulkWrite(o, opts) };
    expect(await bulkWriteSliced(model, ops(3 * BULK_SLICE + 7, 1))).toEqual({ matched: 3 * BULK_SLICE + 7, upserted: 0 });
    expect(await bulkWriteSliced(model, ops(3 * BULK_SLICE + 9, 2), { concurrency: 3 })).toEqual({
      matched: 3 * BULK_SLICE + 7,
      upserted: 2,
    });
    expect(await c.countDocuments({ n: 2 })).toBe(3 * BULK_SLICE + 9);
  });

  it('starts no chunk after a failure, waits for the ones in flight, and throws the failure', async () => {
    const c = recording((call) => (call === 2 ? new Error('the database went away') : undefined));
    await expect(insertRefusingStored(c, docs(10 * INSERT_CHUNK), { concurrency: 3 })).rejects.toThrow('the database went away');
    // calls 1-3 started together; the failure of call 2 is seen after call 4 started in lane 1 (which finished first)
    expect(c.sizes.length).toBeLessThanOrEqual(4);
    const settledAfter = c.sizes.length;
    await new Promise((r) => setTimeout(r, 30));
    expect(c.sizes.length).toBe(settledAfter);
  });
});
