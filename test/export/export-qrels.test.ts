import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Judgment } from '../../src/domain/cases.js';
import { batchReport, exportQrels, recordAggregateChoice, type ExportQrelsResult } from '../../src/export/index.js';
import type { PlannedItem } from '../../src/hits/index.js';
import { expireBatch } from '../../src/pipeline/expire.js';
import { importFile } from '../../src/pipeline/import.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { readQrels } from '../../src/qrels/index.js';
import { useMarketplace } from '../marketplace/support.js';
import { answerAgreedAndTied, sampleLines, tempDir, testContext, writeLines } from '../pipeline/support.js';
import { runCli, stderrLines } from '../support/cli.js';

/**
 * `qrelay export-qrels` on a batch worked by scripted workers (quick preset: 4 items and
 * a check per HIT): HIT 0 by three honest workers; HIT 1 by two who disagree on one item,
 * then the batch is expired. So one item ties (unresolved), the others have labels.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-export-');
const BATCH = 'exp';

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');
const pair = (i: { queryId: string; chunkId: string }) => `${i.queryId}\t${i.chunkId}`;

interface Scenario {
  agreed: PlannedItem & { kind: 'real' };
  agreedTruth: Judgment;
  tied: PlannedItem & { kind: 'real' };
  base: string;
  consensus: string;
}

let scenario: Scenario;

async function setUp(): Promise<Scenario> {
  const ctx = testContext(h.db);
  const cases = sampleLines('escalations.jsonl').slice(0, 8);
  await importFile(ctx, writeLines(dir, 'cases.jsonl', cases), { batch: BATCH });
  await importFile(ctx, writeLines(dir, 'gold.jsonl', sampleLines('gold.jsonl')), { batch: BATCH, kind: 'gold' });
  await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url }, 'local');
  const [hit0, hit1] = await Promise.all([ctx.models.hits.findById(`${BATCH}|0`).lean(), ctx.models.hits.findById(`${BATCH}|1`).lean()]);
  const real = (items: PlannedItem[]) => items.filter((i): i is PlannedItem & { kind: 'real' } => i.kind === 'real');
  const agreed = real(hit0!.items)[0]!;
  const tied = real(hit1!.items)[0]!;
  const truth = new Map(
    cases
      .map((l) => JSON.parse(l) as { query_id: string; chunk_id: string; hidden_label: Judgment })
      .map((c) => [`${c.query_id}\t${c.chunk_id}`, c.hidden_label]),
  );
  const agreedTruth = truth.get(pair(agreed))!;

  // consensus imported into the batch: the agreed item with the other label (a human label overrides it)
  await importFile(
    ctx,
    writeLines(dir, 'batch-consensus.jsonl', [
      JSON.stringify({ query_id: agreed.queryId, chunk_id: agreed.chunkId, label: flip(agreedTruth), dataset: agreed.dataset }),
    ]),
    { batch: BATCH, kind: 'consensus' },
  );

  await answerAgreedAndTied(h, ctx, BATCH, tied);
  await collectBatch(ctx, BATCH);
  await expireBatch(ctx, BATCH);

  // the base judges the agreed item the other way (a contradiction the export keeps and lists)
  const base = writeLines(dir, 'base.trec', [
    ...sampleLines('qrels/base.trec'),
    'q-base 0 d-base 1',
    `${agreed.queryId} 0 ${agreed.chunkId} ${agreedTruth === 'yes' ? 0 : 1}`,
  ]);
  // a consensus file: a new pair (twice: identical lines count once), and the agreed item as the batch has it (a duplicate across sources)
  const extra = JSON.stringify({ query_id: 'q-extra', chunk_id: 'd-extra', label: 'yes', dataset: 'extra' });
  const consensus = writeLines(dir, 'consensus.jsonl', [
    extra,
    extra,
    JSON.stringify({ query_id: agreed.queryId, chunk_id: agreed.chunkId, label: flip(agreedTruth), dataset: agreed.dataset }),
  ]);
  return { agreed, agreedTruth, tied, base, consensus };
}

describe('qrelay export-qrels', () => {
  it('merges, keeps and lists a label that contradicts the base, lists the unresolved item without writing it', async () => {
    scenario = await setUp();
    const out = join(dir, 'out', 'merged.trec');
    mkdirSync(join(dir, 'out'), { recursive: true });
    const [text, json] = await Promise.all([
      runCli(['export-qrels', BATCH, '--base', scenario.base, '--consensus', scenario.consensus, '--out', out]),
      runCli([
        'export-qrels',
        BATCH,
        '--base',
        scenario.base,
        '--consensus',
        scenario.consensus,
        '--out',
        join(dir, 'out', 'merged.jsonl'),
        '--json',
      ]),
    ]);
    expect(text.code, text.stderr).toBe(0);
    const { agreed, agreedTruth, tied } = scenario;
    expect(text.stdout).toContain(`batch ${BATCH}: wrote ${out} (trec, `);
    expect(text.stdout).toMatch(/^conflicts: 1 /m);
    expect(text.stdout).toContain(
      `  query "${agreed.queryId}" chunk "${agreed.chunkId}": base ${agreedTruth === 'yes' ? 0 : 1}, consensus ${flip(agreedTruth)}, human ${agreedTruth} -> kept human-majority`,
    );
    expect(text.stdout).toContain('unresolved items (not written): 1');
    expect(text.stdout).toContain(`  query "${tied.queryId}" chunk "${tied.chunkId}" (dataset "${tied.dataset}"): votes tied 1-1`);
    expect(text.stdout).toMatch(/^overall +\d+ +\d+ +1 +0 /m); // labelled, holes filled, 1 flip, 0 unchanged

    const merged = await readQrels(out);
    expect(merged.qrels.get(agreed.queryId)?.get(agreed.chunkId)).toBe(agreedTruth === 'yes' ? 1 : 0);
    expect(merged.qrels.get(tied.queryId)?.get(tied.chunkId)).toBeUndefined();
    expect(merged.qrels.get('q-extra')?.get('d-extra')).toBe(1);
    expect(merged.qrels.get('q-base')?.get('d-base')).toBe(1);

    expect(json.code, json.stderr).toBe(0);
    const result = JSON.parse(json.stdout) as ExportQrelsResult;
    expect(result.summary.duplicates).toEqual({ consensus: 1, human: 0 });
    expect(result.summary.conflicts).toEqual([
      {
        query_id: agreed.queryId,
        doc_id: agreed.chunkId,
        dataset: agreed.dataset,
        base: agreedTruth === 'yes' ? 0 : 1,
        consensus: flip(agreedTruth),
        human: agreedTruth,
        kept: { source: 'human-majority', rel: agreedTruth === 'yes' ? 1 : 0 },
      },
    ]);
    expect(result.human.unresolved).toEqual([
      expect.objectContaining({ query_id: tied.queryId, chunk_id: tied.chunkId, reason: 'tie', votes: { yes: 1, no: 1 } }),
    ]);
    expect(result.human.labels).toBe(7);
    expect(result.consensus).toEqual({ fromBatch: 1, fromFile: 2, file: scenario.consensus });
    expect(result.out.pairs).toBe(merged.pairs);
  });

  it('writes the same pairs in every format, each readable again; the report then counts holes against that base', async () => {
    const ctx = testContext(h.db);
    const results: ExportQrelsResult[] = [];
    for (const name of ['m.trec', 'm.tsv', 'm.jsonl'])
      results.push(await exportQrels(ctx, { batch: BATCH, base: scenario.base, out: join(dir, 'out', name) }));
    expect(results.map((r) => r.out.format)).toEqual(['trec', 'beir', 'jsonl']);
    const read = await Promise.all(['m.trec', 'm.tsv', 'm.jsonl'].map((n) => readQrels(join(dir, 'out', n))));
    expect(read.map((r) => r.format)).toEqual(['trec', 'beir', 'bridge']);
    expect(read[1]!.qrels).toEqual(read[0]!.qrels);
    expect(read[2]!.qrels).toEqual(read[0]!.qrels);
    const provenance = readFileSync(join(dir, 'out', 'm.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { query_id: string; doc_id: string; source: string; votes: unknown; batch: string | null });
    const agreed = provenance.find((p) => p.query_id === scenario.agreed.queryId && p.doc_id === scenario.agreed.chunkId);
    expect(agreed).toMatchObject({ source: 'human-majority', votes: { yes: expect.any(Number), no: expect.any(Number) }, batch: BATCH });

    const { report, holesBase } = await batchReport(ctx, BATCH);
    expect(holesBase).toBe(scenario.base);
    expect(report.cost.holesFound).toBe(results[0]!.holesFound);
  });

  it('writes the majority of 3 or Dawid–Skene (--aggregate), by default what the recorded forecast showed better, and says why', async () => {
    const ctx = testContext(h.db);
    const out = (name: string) => join(dir, 'out', name);
    const sources = (file: string) =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { source: string; batch: string | null })
        .filter((p) => p.batch === BATCH)
        .map((p) => p.source);
    const protocol = await exportQrels(ctx, { batch: BATCH, base: scenario.base, out: out('default.jsonl') });
    expect(protocol.aggregate).toMatchObject({ aggregate: 'majority', from: 'protocol', forecast: null });
    expect(new Set(sources(out('default.jsonl')))).toEqual(new Set(['human-majority']));

    const ds = await runCli(['export-qrels', BATCH, '--base', scenario.base, '--out', out('ds.jsonl'), '--aggregate', 'ds']);
    expect(ds.code, ds.stderr).toBe(0);
    expect(ds.stdout).toContain('labels: Dawid–Skene (source human-dawid-skene), because --aggregate ds was given');
    expect(new Set(sources(out('ds.jsonl')))).toEqual(new Set(['human-dawid-skene']));
    const bad = await runCli(['export-qrels', BATCH, '--base', scenario.base, '--out', out('x.jsonl'), '--aggregate', 'dawid']);
    expect(bad.code).toBe(1);
    expect(stderrLines(bad.stderr).join('\n')).toContain('expected one of majority, ds');

    await recordAggregateChoice(h.db.connection, BATCH, {
      better: 'ds',
      majority: { accuracy: 0.88, balancedAccuracy: 0.87 },
      ds: { accuracy: 0.93, balancedAccuracy: 0.92 },
      simulatedAs: `${BATCH}-sim`,
      seed: 's1',
      at: new Date(),
    });
    const chosen = await exportQrels(ctx, { batch: BATCH, base: scenario.base, out: out('chosen.jsonl') });
    expect(chosen.aggregate).toMatchObject({ aggregate: 'ds', from: 'forecast' });
    expect(chosen.aggregate.reason).toBe(
      `the simulated forecast ${BATCH}-sim (seed s1) showed Dawid–Skene better: balanced accuracy 92.0% (Dawid–Skene) vs 87.0% (majority)`,
    );
    expect(new Set(sources(out('chosen.jsonl')))).toEqual(new Set(['human-dawid-skene']));
    const forced = await exportQrels(ctx, { batch: BATCH, base: scenario.base, out: out('forced.jsonl'), aggregate: 'majority' });
    expect(forced.aggregate).toMatchObject({ aggregate: 'majority', from: 'option' });
  });

  it('on bad input says where in one line, exits 1, and writes nothing', async () => {
    const out = join(dir, 'out', 'kept.trec');
    writeFileSync(out, 'previous content\n');
    const badBase = writeLines(dir, 'bad-base.trec', ['q1 0 d1 1', 'q1 0 d2 0', 'q2 0 d3']);
    const conflicting = writeLines(dir, 'conflicting.jsonl', [
      JSON.stringify({ query_id: scenario.agreed.queryId, chunk_id: scenario.agreed.chunkId, label: scenario.agreedTruth }),
    ]);
    const args = (base: string, more: string[] = []) => ['export-qrels', BATCH, '--base', base, '--out', out, ...more];
    const [malformed, clash] = await Promise.all([runCli(args(badBase)), runCli(args(scenario.base, ['--consensus', conflicting]))]);
    expect(malformed.code).toBe(1);
    expect(stderrLines(malformed.stderr)).toEqual([
      `qrelay: ${badBase}:3: expected 4 columns "qid iter docid rel" of TREC qrels ("qid iter docid rel"), found 3`,
    ]);
    expect(clash.code).toBe(1);
    expect(stderrLines(clash.stderr)).toEqual([
      expect.stringMatching(
        /^qrelay: 1 \(query, chunk\) pair has conflicting dream-consensus labels \(query ".+" chunk ".+": (yes vs no|no vs yes)\); keep one label per pair before merging$/,
      ),
    ]);

    // the same refusals in-process (each is one line through the CLI's action wrapper)
    const ctx = testContext(h.db);
    await expect(exportQrels(ctx, { batch: BATCH, base: join(dir, 'no-such.trec'), out })).rejects.toThrow(
      `cannot read ${join(dir, 'no-such.trec')}: no such file; check the path`,
    );
    await expect(exportQrels(ctx, { batch: 'no-such-batch', base: scenario.base, out })).rejects.toThrow(
      'no batch named no-such-batch: import its cases first',
    );
    await expect(exportQrels(ctx, { batch: BATCH, base: scenario.base, out: scenario.base })).rejects.toThrow(
      `--out ${scenario.base} is the --base file`,
    );
    await expect(exportQrels(ctx, { batch: BATCH, base: scenario.base, out: join(dir, 'no-dir', 'x.trec') })).rejects.toThrow(
      `the directory ${join(dir, 'no-dir')} does not exist; create it first`,
    );
    expect(readFileSync(out, 'utf8')).toBe('previous content\n');
    expect(readdirSync(join(dir, 'out')).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});
