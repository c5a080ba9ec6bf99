import * as fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { importFile, ImportRejected } from '../../src/pipeline/import.js';
import { visibleRecords } from '../../src/pipeline/records.js';
import { useTestDatabase } from '../support/db.js';
import { sampleLines, tempDir, testContext, writeLines } from './support.js';

/** `importFile` reads its file once, writing as it validates, and still imports nothing from a bad file. */
const t = useTestDatabase();
const dir = tempDir();
const escalations = sampleLines('escalations.jsonl').slice(0, 40);

vi.mock('node:fs', async (original) => {
  const actual = await original<typeof import('node:fs')>();
  return { ...actual, createReadStream: vi.fn(actual.createReadStream) };
});

describe('import in one pass', () => {
  it('opens the file once for a new batch (the kind given) and once more only to detect the kind', async () => {
    const ctx = testContext(t);
    const file = writeLines(dir, 'once.jsonl', escalations);
    const opened = () => vi.mocked(fs.createReadStream).mock.calls.filter(([path]) => path === file).length;
    const result = await importFile(ctx, file, { batch: 'once', kind: 'escalations', chunkSize: 7 });
    expect(result.counts).toMatchObject({ records: 40, inserted: 40, existing: 0 });
    expect(opened()).toBe(1);
    const again = await importFile(ctx, file, { batch: 'once', chunkSize: 7 });
    expect(again.counts).toMatchObject({ records: 40, inserted: 0, existing: 40 });
    expect(opened()).toBe(3); // detection reads the first line, then the one pass
    expect((await visibleRecords(ctx, 'escalations', 'once')).length).toBe(40);
  });

  it('deletes what it wrote when a bad line comes after chunks were written, lists every error, and creates no batch', async () => {
    const ctx = testContext(t);
    // 800 cases (~1.5 MB: the file is read in chunks of 1 MiB), bad lines in the second chunk
    const sample = sampleLines('escalations.jsonl');
    const lines = Array.from({ length: 800 }, (_, i) => {
      const rec = JSON.parse(sample[i % sample.length]!) as { query_id: string };
      return JSON.stringify({ ...rec, query_id: `${rec.query_id}x${Math.floor(i / sample.length)}` });
    });
    lines[699] = '{"query_id": "q", "chunk_id": ';
    lines[749] = JSON.stringify({ ...JSON.parse(lines[749]!), debate: [] });
    let progressed = 0;
    const watched = { ...ctx, progress: () => void progressed++ };
    const err = await importFile(watched, writeLines(dir, 'late-bad.jsonl', lines), { batch: 'late-bad', chunkSize: 50 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ImportRejected);
    expect((err as ImportRejected).errors.map((e) => e.line)).toEqual([700, 750]);
    expect(progressed).toBeGreaterThanOrEqual(5); // chunks were written before line 700
    expect(await ctx.models.items.countDocuments({ batch: 'late-bad' })).toBe(0);
    expect(await ctx.models.itemTexts.countDocuments({})).toBe(await ctx.models.items.countDocuments({}));
    expect(await ctx.models.imports.countDocuments({ batch: 'late-bad' })).toBe(0);
    expect(await ctx.models.batches.countDocuments({ _id: 'late-bad' })).toBe(0);
  });

  it('keeps the records an earlier import made visible when a later file of the batch is bad', async () => {
    const ctx = testContext(t);
    await importFile(ctx, writeLines(dir, 'first.jsonl', escalations.slice(0, 10)), { batch: 'kept' });
    const bad = [...escalations.slice(5, 20), '{"broken": '];
    await expect(importFile(ctx, writeLines(dir, 'second.jsonl', bad), { batch: 'kept', chunkSize: 3 })).rejects.toBeInstanceOf(
      ImportRejected,
    );
    expect((await visibleRecords(ctx, 'escalations', 'kept')).length).toBe(10);
    expect(await ctx.models.items.countDocuments({ batch: 'kept' })).toBe(10);
    expect(await ctx.models.batches.countDocuments({ _id: 'kept' })).toBe(1);
  });
});
