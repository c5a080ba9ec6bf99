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
