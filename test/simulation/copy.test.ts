import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/cases.js';
import { computePlan } from '../../src/pipeline/plan.js';
import { goldItems, itemCases, visibleRecords } from '../../src/pipeline/records.js';
import { reportInputFor } from '../../src/pipeline/report-input.js';
import { preparePublish } from '../../src/pipeline/publish.js';
import { resolveSettings } from '../../src/pipeline/settings.js';
import { copyBatch } from '../../src/simulation/copy.js';
import { useTestDatabase } from '../support/db.js';
import { importSampleBatch, sampleLines, tempDir, testContext } from '../pipeline/support.js';

/**
 * The simulated copy hands over what it wrote (records and texts), so that publishing,
 * the oracle and the report need not read the copy back: what it hands over must be what
 * reading the copy gives, in the same order, and a plan from it the plan read from the database.
 */
const t = useTestDatabase();
const dir = tempDir('qrelay-copy-');
const CASES = 30;

describe('copyBatch', () => {
  it('returns the copy as the database holds it: visible records in order, their cases with the truth, the gold pool', async () => {
    const ctx = testContext(t);
    await importSampleBatch(ctx, dir, 'src', CASES);
    // a truth for every other case: the copy's hidden labels are the truth file's, or none
    const truth = new Map<string, Judgment>(
      sampleLines('escalations.jsonl')
        .slice(0, CASES)
        .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string })
        .filter((_, i) => i % 2 === 0)
        .map((c, i) => [`${c.query_id}\t${c.chunk_id}`, i % 3 === 0 ? 'no' : 'yes']),
    );
    const copy = await copyBatch(ctx, 'src', 'src-sim', truth);
    expect(copy).toMatchObject({ items: CASES, withTruth: truth.size });

    const items = await visibleRecords(ctx, 'escalations', 'src-sim');
    const gold = await visibleRecords(ctx, 'gold', 'src-sim');
    expect(copy.records.items).toEqual(items);
    expect(copy.records.cases).toEqual(await itemCases(ctx, items));
    expect(copy.records.gold).toEqual(gold);
    expect(copy.records.goldItems).toEqual(await goldItems(ctx, gold));
    expect(copy.records.cases.filter((c) => c.hidden_label !== undefined)).toHaveLength(truth.size);

    // the plan from what the copy handed over is the plan read from the database
    const settings = resolveSettings('src-sim', { target: 'local', preset: 'dream', seed: 's' }, 'local');
    const given = await computePlan(ctx, 'src-sim', settings, { cases: copy.records.cases, gold: copy.records.goldItems });
    expect(given).toEqual(await computePlan(ctx, 'src-sim', settings));
  });

  it("stores each record, text and import as the source stores it, with the copy's names", async () => {
    const ctx = testContext(t);
    await importSampleBatch(ctx, dir, 'raw', 8);
    const truth = new Map<string, Judgment>(
      sampleLines('escalations.jsonl')
        .slice(0, 2)
        .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string })
        .map((c) => [`${c.query_id}\t${c.chunk_id}`, 'yes']),
    );
    await copyBatch(ctx, 'raw', 'raw-sim', truth);
    const m = ctx.models;
    const stored = async (model: { collection: { find(f: object): { toArray(): Promise<unknown[]> } } }, filter: object) =>
      (await model.collection.find(filter).toArray()) as Record<string, unknown>[];
    for (const model of [m.items, m.gold, m.consensus]) {
      const source = await stored(model, { batch: 'raw' });
      const copied = await stored(model, { batch: 'raw-sim' });
      expect(copied).toHaveLength(source.length);
      const bySha = new Map(source.map((d) => [`${d.key}|${d.sha}`, d]));
      for (const d of copied) {
        const from = bySha.get(`${d.key}|${d.sha}`)!;
        const { _id, batch, imports, label, ...rest } = d;
        const { _id: _sourceId, batch: _b, imports: sourceImports, label: sourceLabel, ...sourceRest } = from;
        // the same fields with the same values and types (dates, arrays), only the names changed
        expect(rest).toEqual(sourceRest);
        expect(Object.keys(d).sort()).toEqual(Object.keys(from).sort());
        expect(batch).toBe('raw-sim');
        expect(String(_id).startsWith('raw-sim')).toBe(true);
        expect((imports as string[]).map((i) => i.replace('@raw-sim', ''))).toEqual(sourceImports);
        if (model === m.items) expect(label === null || label === 'yes').toBe(true);
        else expect(label).toEqual(sourceLabel);
      }
      // an item's label is the truth's: two of the eight have one
      if (model === m.items) expect(copied.filter((d) => d.label === 'yes')).toHaveLength(2);
    }
    const sourceImports = await stored(m.imports, { batch: 'raw' });
    const copiedImports = await stored(m.imports, { batch: 'raw-sim' });
    expect(copiedImports.map(({ _id, batch: _b, ...rest }) => ({ _id: String(_id).replace('@raw-sim', ''), ...rest }))).toEqual(
      sourceImports.map(({ batch: _b, ...rest }) => rest),
    );
    expect(copiedImports.every((i) => i.startedAt instanceof Date)).toBe(true);
    // each text is the source's record (the hidden label replaced by the truth's, or none)
    const texts = await stored(m.itemTexts, { _id: /^raw-sim/ });
    expect(texts).toHaveLength(8);
    expect(texts.filter((x) => (x.record as { hidden_label?: string }).hidden_label === 'yes')).toHaveLength(2);
    expect(texts.every((x) => Object.keys(x).sort().join() === '_id,record')).toBe(true);
  });

  it('gives the report the cases it would read', async () => {
    const ctx = testContext(t);
    await importSampleBatch(ctx, dir, 'rep', 12);
    const copy = await copyBatch(ctx, 'rep', 'rep-sim', undefined);
    // planned (settings and HITs stored), no HIT created: the report's items are the planned ones
    await preparePublish(ctx, 'rep-sim', { preset: 'dream', target: 'local', seed: 'r' }, 'local');
    const known = new Map(copy.records.items.map((r, i) => [r._id, copy.records.cases[i]!]));
    const read = await reportInputFor(ctx, 'rep-sim');
    expect(read.input.items).toHaveLength(12);
    expect((await reportInputFor(ctx, 'rep-sim', known)).input).toEqual(read.input);
  });
});
