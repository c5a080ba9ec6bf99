import { describe, expect, it } from 'vitest';
import { importAny } from '../../src/pipeline/import.js';
import { visibleRecords } from '../../src/pipeline/records.js';
import { useTestDatabase } from '../support/db.js';
import { runCli } from '../support/cli.js';
import { sampleLines, tempDir, testContext, writeLines } from './support.js';

/**
 * Issue 17, section 3: a BRIDGE debate file imports with plain `qrelay import FILE --batch B`,
 * split per row (consensus false: escalated cases; true: consensus labels), the command
 * printing the count of each kind; `--kind` still imports one kind; fields qrelay does not
 * read are named in a warning, never dropped in silence.
 */

const t = useTestDatabase();
const dir = tempDir('qrelay-bridge-');
const bridge = sampleLines('escalations.bridge.jsonl'); // 8 escalated rows, 4 consensus rows
const rows = bridge.map((l) => JSON.parse(l) as Record<string, unknown>);
const escalatedRows = rows.filter((r) => r.consensus === false);
const consensusRows = rows.filter((r) => r.consensus === true);

describe('a BRIDGE debate file without --kind', () => {
  it('is split per row: escalations and consensus labels, each counted, nothing skipped', async () => {
    const ctx = testContext(t);
    expect([escalatedRows.length, consensusRows.length]).toEqual([8, 4]);
    const outcome = await importAny(ctx, writeLines(dir, 'mixed.jsonl', bridge), { batch: 'br-a' });
    expect(outcome.format).toBe('bridge');
    expect(outcome.imports.map((r) => [r.kind, r.counts.records, r.counts.inserted])).toEqual([
      ['escalations', 8, 8],
      ['consensus', 4, 4],
    ]);
    expect((await visibleRecords(ctx, 'escalations', 'br-a')).length).toBe(8);
    expect((await visibleRecords(ctx, 'consensus', 'br-a')).length).toBe(4);
    // again: a no-op, counted as already there
    const again = await importAny(ctx, writeLines(dir, 'mixed.jsonl', bridge), { batch: 'br-a' });
    expect(again.imports.map((r) => r.counts.existing)).toEqual([8, 4]);
  });

  it('of one kind only imports that kind', async () => {
    const ctx = testContext(t);
    const escalated = await importAny(
      ctx,
      writeLines(
        dir,
        'esc.jsonl',
        escalatedRows.map((r) => JSON.stringify(r)),
      ),
      { batch: 'br-b' },
    );
    expect(escalated.imports.map((r) => [r.kind, r.counts.records])).toEqual([['escalations', 8]]);
    const consensus = await importAny(
      ctx,
      writeLines(
        dir,
        'con.jsonl',
        consensusRows.map((r) => JSON.stringify(r)),
      ),
      { batch: 'br-b' },
    );
    expect(consensus.imports.map((r) => [r.kind, r.counts.records])).toEqual([['consensus', 4]]);
  });

  it('with a bad row imports nothing, of either kind, and lists the error once', async () => {
    const ctx = testContext(t);
    const bad = [...bridge];
    bad[1] = JSON.stringify({ ...rows[1], consensus: 'maybe' });
    await expect(importAny(ctx, writeLines(dir, 'bad.jsonl', bad), { batch: 'br-c' })).rejects.toMatchObject({
      errors: [{ line: 2, field: 'consensus' }],
      moreErrors: 0,
    });
    expect(await ctx.models.batches.countDocuments({ _id: 'br-c', state: { $ne: 'draft' } })).toBe(0);
    expect((await visibleRecords(ctx, 'escalations', 'br-c')).length).toBe(0);
    expect((await visibleRecords(ctx, 'consensus', 'br-c')).length).toBe(0);
  });

  it('names the fields qrelay does not read', async () => {
    const ctx = testContext(t);
    const extra = rows.map((r, i) => JSON.stringify({ ...r, run_id: `r${i}`, round_1: { ...(r.round_1 as object), judge_note: 'x' } }));
    const outcome = await importAny(ctx, writeLines(dir, 'extra.jsonl', extra), { batch: 'br-d' });
    expect(outcome.ignoredFields).toEqual([
      { field: 'round_N.judge_note', lines: 12, firstLine: 1 },
      { field: 'run_id', lines: 12, firstLine: 1 },
    ]);
  });
});

describe('qrelay import of a BRIDGE file', () => {
  it('prints the count of each kind; --kind imports one kind and skips the other', async () => {
    const extra = rows.map((r) => JSON.stringify({ ...r, source_model: 'gpt' }));
    const file = writeLines(dir, 'cli.jsonl', extra);
    const res = await runCli(['import', file, '--batch', 'br-cli']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(
      `imported ${file} into batch br-cli: 8 escalations records (8 new, 0 already in the batch) and 4 consensus records (4 new, 0 already in the batch) (a BRIDGE file, split per row by its consensus field)`,
    );
    expect(res.stderr).toContain(
      `qrelay: warning: ${file}: fields qrelay does not use were ignored: source_model (12 lines, first line 1)`,
    );

    const only = await runCli(['import', file, '--batch', 'br-cli-2', '--kind', 'consensus']);
    expect(only.code, only.stderr).toBe(0);
    expect(only.stdout).toContain(
      `into batch br-cli-2: 4 consensus records (4 new, 0 already in the batch), 8 BRIDGE rows of the other kind skipped`,
    );
  });
});
