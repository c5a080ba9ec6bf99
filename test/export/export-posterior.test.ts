import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportQrels, renderExportSummary } from '../../src/export/index.js';
import { expireBatch } from '../../src/pipeline/expire.js';
import { importFile } from '../../src/pipeline/import.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { CONSENSUS_CONFIDENCE } from '../../src/qrels/index.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { sampleLines, tempDir, testContext, work, writeLines } from '../pipeline/support.js';

/**
 * `export-qrels --posterior` on a batch whose first HIT three honest workers answered:
 * every JSONL record gets p_relevant; base pairs 1 or 0, crowd labels the Dawid–Skene
 * posterior kept away from 0 and 1 by the gold checks, consensus its stated confidence.
 */

const h = useMarketplace();
const dir = tempDir('qrelay-posterior-');
const BATCH = 'post';

interface Line {
  query_id: string;
  doc_id: string;
  rel: number;
  source: string;
  p_relevant?: number;
}

describe('qrelay export-qrels --posterior', () => {
  it('adds p_relevant to every JSONL record, and leaves TREC output as it was', async () => {
    const ctx = testContext(h.db);
    await importFile(ctx, writeLines(dir, 'cases.jsonl', sampleLines('escalations.jsonl').slice(0, 8)), { batch: BATCH });
    await importFile(ctx, writeLines(dir, 'gold.jsonl', sampleLines('gold.jsonl')), { batch: BATCH, kind: 'gold' });
    await publishBatch(ctx, BATCH, { preset: 'quick', target: h.running.url }, 'local');
    for (let w = 0; w < 3; w++)
      await work(h.running, ctx, `${BATCH}|0`, (await newWorker(h)).workerId, (item, t) => (item.kind === 'check' ? item.expected : t!));
    await collectBatch(ctx, BATCH);
    await expireBatch(ctx, BATCH);
    const base = writeLines(dir, 'base.trec', [...sampleLines('qrels/base.trec'), 'q-base 0 d-base 1', 'q-base 0 d-none 0']);
    const consensus = writeLines(dir, 'consensus.jsonl', [JSON.stringify({ query_id: 'q-extra', chunk_id: 'd-extra', label: 'yes' })]);

    const out = join(dir, 'p.jsonl');
    const result = await exportQrels(ctx, { batch: BATCH, base, consensus, out, posterior: true });
    expect(result.posterior?.gold.checks).toBeGreaterThan(0);
    expect(result.posterior?.gold.wrong).toBe(0);
    expect(result.posterior?.voteError).toBeGreaterThan(0);
    expect(result.posterior?.agreementError).toBe(0);
    expect(result.posterior?.labelError).toBeNull();
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    expect(renderExportSummary(result)).toMatch(
      /p_relevant: crowd labels from Dawid–Skene, .*gold: 0 of \d+ check answers wrong; items' agreement: 0\.0%\)/,
    );
    for (const l of lines) expect(l.p_relevant).toBeTypeOf('number');
    const of = (q: string, d: string) => lines.find((l) => l.query_id === q && l.doc_id === d)!;
    expect(of('q-base', 'd-base').p_relevant).toBe(1);
    expect(of('q-base', 'd-none').p_relevant).toBe(0);
    expect(of('q-extra', 'd-extra').p_relevant).toBe(CONSENSUS_CONFIDENCE);
    const crowd = lines.filter((l) => l.source === 'human-majority');
    expect(crowd.length).toBeGreaterThan(0);
    for (const l of crowd) {
      // three agreeing votes: sure, but never certain
      expect(l.p_relevant).toBeGreaterThan(0);
      expect(l.p_relevant).toBeLessThan(1);
      expect(l.p_relevant! > 0.5).toBe(l.rel >= 1);
    }

    const trecPlain = join(dir, 'plain.trec');
    const trecPosterior = join(dir, 'posterior.trec');
    await exportQrels(ctx, { batch: BATCH, base, consensus, out: trecPlain });
    const withFlag = await exportQrels(ctx, { batch: BATCH, base, consensus, out: trecPosterior, posterior: true });
    expect(withFlag.out.format).toBe('trec');
    expect(renderExportSummary(withFlag)).toContain('p_relevant: not written (trec has no field for it; use --format jsonl)');
    expect(readFileSync(trecPosterior, 'utf8')).toBe(readFileSync(trecPlain, 'utf8'));
  });
});
