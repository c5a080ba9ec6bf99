import { describe, expect, it } from 'vitest';
import { importFile, ImportRejected } from '../../src/pipeline/import.js';
import { itemCases, visibleRecords } from '../../src/pipeline/records.js';
import { useTestDatabase } from '../support/db.js';
import { sampleLines, tempDir, testContext, writeLines } from './support.js';

const t = useTestDatabase();
const dir = tempDir();
const escalations = sampleLines('escalations.jsonl').slice(0, 30);
const gold = sampleLines('gold.jsonl');

async function rejection(promise: Promise<unknown>): Promise<ImportRejected> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ImportRejected) return err;
    throw err;
  }
  throw new Error('expected the import to be rejected');
}

describe('importFile', () => {
  it('imports escalations, gold and consensus into a batch, in file order', async () => {
    const ctx = testContext(t);
    const file = writeLines(dir, 'e.jsonl', escalations);
    const result = await importFile(ctx, file, { batch: 'imp-a' });
    expect(result.kind).toBe('escalations');
    expect(result.counts).toMatchObject({ records: 30, inserted: 30, existing: 0, lines: 30 });
    const goldResult = await importFile(ctx, writeLines(dir, 'g.jsonl', gold), { batch: 'imp-a' });
    expect(goldResult).toMatchObject({ kind: 'gold', counts: { inserted: 72 } });
    const rows = await visibleRecords(ctx, 'escalations', 'imp-a');
    expect(rows.map((r) => r.queryId + '/' + r.chunkId)).toEqual(
      escalations.map((l) => {
        const c = JSON.parse(l) as { query_id: string; chunk_id: string };
        return `${c.query_id}/${c.chunk_id}`;
      }),
    );
    const cases = await itemCases(ctx, rows.slice(0, 2));
    expect(cases[0]).toEqual(expect.objectContaining({ query_id: rows[0]!.queryId, debate: expect.any(Array) }));
    const batch = await ctx.models.batches.findById('imp-a').lean();
    expect(batch?.state).toBe('draft');
    expect(batch?.settings ?? null).toBeNull();
  });

  it('is idempotent: importing the same file again adds nothing', async () => {
    const ctx = testContext(t);
    const file = writeLines(dir, 'e.jsonl', escalations);
    const again = await importFile(ctx, file, { batch: 'imp-a' });
    expect(again.counts).toMatchObject({ records: 30, inserted: 0, existing: 30 });
    expect(await ctx.models.items.countDocuments({ batch: 'imp-a' })).toBe(30);
    expect((await visibleRecords(ctx, 'escalations', 'imp-a')).length).toBe(30);
  });

  it('re-imports more than 100 stored cases (the dev database hangs on 100+ updates in one command)', async () => {
    const ctx = testContext(t);
    const file = writeLines(dir, 'many.jsonl', sampleLines('escalations.jsonl').slice(0, 120));
    await importFile(ctx, file, { batch: 'imp-many' });
    const again = await importFile(ctx, file, { batch: 'imp-many' });
    expect(again.counts).toMatchObject({ records: 120, inserted: 0, existing: 120 });
  });

  it('rejects a file with bad lines, listing line, field and reason for each, and writes nothing', async () => {
    const ctx = testContext(t);
    const bad = [...escalations.slice(0, 3)];
    const broken = JSON.parse(bad[1]!) as { debate: { label: string }[] };
    broken.debate[0]!.label = 'maybe';
    bad[1] = JSON.stringify(broken);
    bad.push('{"query_id": "q", "chunk_id": ');
    const err = await rejection(importFile(ctx, writeLines(dir, 'bad.jsonl', bad), { batch: 'imp-b' }));
    expect(err.errors).toHaveLength(2);
    expect(err.errors[0]).toMatchObject({ line: 2, field: 'debate[0].label' });
    expect(err.errors[0]!.reason).toMatch(/expected "yes" or "no", got "maybe"/);
    expect(err.errors[1]).toMatchObject({ line: 4, field: '' });
    expect(err.message).toMatch(/bad\.jsonl has 2 errors, nothing was imported; the first: .*line 2: debate\[0\]\.label/);
    expect(await ctx.models.items.countDocuments({ batch: 'imp-b' })).toBe(0);
    expect(await ctx.models.imports.countDocuments({ batch: 'imp-b' })).toBe(0);
  });

  it('refuses a record that changes a stored one, naming its line', async () => {
    const ctx = testContext(t);
    const changed = JSON.parse(escalations[4]!) as { chunk: string };
    changed.chunk = `${changed.chunk} (edited)`;
    const err = await rejection(
      importFile(ctx, writeLines(dir, 'changed.jsonl', [escalations[0]!, JSON.stringify(changed)]), { batch: 'imp-a' }),
    );
    expect(err.errors).toEqual([{ line: 2, field: '', reason: expect.stringMatching(/already holds .* with different content/) }]);
  });

  it('keeps a half-committed import invisible, and a re-run completes it', async () => {
    const ctx = testContext(t);
    const file = writeLines(dir, 'half.jsonl', escalations.slice(0, 10));
    // a crash after the first chunk: the import record stays `committing`
    let chunks = 0;
    const crashing = {
      ...ctx,
      progress: () => {
        chunks++;
        throw new Error('killed');
      },
    };
    await expect(importFile(crashing, file, { batch: 'imp-c', chunkSize: 4 })).rejects.toThrow('killed');
    expect(chunks).toBe(1);
    expect(await ctx.models.items.countDocuments({ batch: 'imp-c' })).toBe(4);
    expect(await visibleRecords(ctx, 'escalations', 'imp-c')).toEqual([]);
    const rerun = await importFile(ctx, file, { batch: 'imp-c', chunkSize: 4 });
    expect(rerun.counts).toMatchObject({ inserted: 6, existing: 4 });
    expect((await visibleRecords(ctx, 'escalations', 'imp-c')).length).toBe(10);
  });

  it('detects the kind, and needs it for BRIDGE files', async () => {
    const ctx = testContext(t);
    await expect(importFile(ctx, writeLines(dir, 'b.jsonl', sampleLines('escalations.bridge.jsonl')), { batch: 'imp-d' })).rejects.toThrow(
      /is a BRIDGE debate row: .* say which kind to import/,
    );
    const bridge = await importFile(ctx, writeLines(dir, 'b.jsonl', sampleLines('escalations.bridge.jsonl')), {
      batch: 'imp-d',
      kind: 'escalations',
    });
    expect(bridge.counts).toMatchObject({ records: 8, skipped: 4, inserted: 8 });
    const consensus = await importFile(ctx, writeLines(dir, 'b.jsonl', sampleLines('escalations.bridge.jsonl')), {
      batch: 'imp-d',
      kind: 'consensus',
    });
    expect(consensus.counts).toMatchObject({ records: 4, skipped: 8 });
  });

  it('refuses bad batch names', async () => {
    const ctx = testContext(t);
    await expect(importFile(ctx, writeLines(dir, 'e.jsonl', escalations), { batch: 'a|b' })).rejects.toThrow(
      /batch "a\|b": expected 1-100 letters/,
    );
  });
});
