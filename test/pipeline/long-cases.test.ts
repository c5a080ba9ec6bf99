import { GetHITCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { requireBatch } from '../../src/batches/index.js';
import { checksFor } from '../../src/hits/plan.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { runCli } from '../support/cli.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { honest, sampleLines, tempDir, testContext, work, writeLines } from './support.js';

/**
 * Issue 33 item 1: a case whose chunk is about 49 KB fits an HTMLQuestion alone but not beside
 * an attention check that carries its own debate. Publishing must not refuse it: the batch is
 * imported and published with `qrelay import` and `qrelay publish` (the real SDK against the
 * bundled marketplace), every HIT fits 65,535 bytes, the checks the long cases' HITs cannot
 * hold sit in other HITs, and honest workers take the batch to complete.
 */

const h = useMarketplace();
const dir = tempDir();

const FILLER = 'The survey recorded further details of the region, its rivers, its towns and its roads. ';

/** The sample case with its chunk grown to about `bytes` bytes. */
function longCase(line: string, bytes: number, n: number): string {
  const c = JSON.parse(line) as { chunk: string; chunk_id: string };
  const filler = FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes - c.chunk.length);
  return JSON.stringify({ ...c, chunk_id: `${c.chunk_id}-long${n}`, chunk: `${c.chunk} ${filler}` });
}

describe('a batch with ~49 KB cases', () => {
  it('publishes every case and its checks within 65,535 bytes, and is worked to complete', async () => {
    const lines = sampleLines('escalations.jsonl').slice(0, 20);
    lines[8] = longCase(lines[8]!, 49_000, 1);
    lines[17] = longCase(lines[17]!, 48_000, 2);
    const cases = writeLines(dir, 'long-cases.jsonl', lines);
    const gold = writeLines(dir, 'long-gold.jsonl', sampleLines('gold.jsonl'));
    let said = '';
    for (const args of [
      ['import', cases, '--batch', 'long-a'],
      ['import', gold, '--batch', 'long-a', '--kind', 'gold'],
      ['publish', 'long-a', '--preset', 'quick', '--target', h.running.url],
    ]) {
      const res = await runCli(args);
      expect(res.code, `qrelay ${args[0]}: ${res.stderr}`).toBe(0);
      said = `${res.stdout}${res.stderr}`;
    }

    const ctx = testContext(h.db);
    const hits = await ctx.models.hits.find({ batch: 'long-a' }).sort({ index: 1 }).lean();
    expect(hits.every((x) => x.state === 'published' && x.bytes <= 65_535)).toBe(true);
    const long = hits.filter((x) => x.items.some((i) => i.chunkId.includes('-long')));
    expect(long.map((x) => x.realItems)).toEqual([1, 1]);
    // a long case's HIT holds a check short enough to fit beside it, or none; publishing says how many hold none
    expect(long.every((x) => x.checks <= 1)).toBe(true);
    const checkless = long.filter((x) => x.checks === 0).length;
    expect(checkless).toBeGreaterThan(0); // the 49 KB case has room for no gold item of the sample
    expect(said).toMatch(new RegExp(`batch long-a: ${checkless} HITs? of one long case holds? no attention check`));
    // every real item once; the checks the plan's HITs call for are all there (quick: 4 items and 1 check)
    expect(hits.reduce((a, x) => a + x.realItems, 0)).toBe(20);
    const wanted = hits.reduce((a, x) => a + checksFor(x.realItems, { itemsPerHit: 4, checksPerHit: 1 }), 0);
    expect(hits.reduce((a, x) => a + x.checks, 0)).toBe(wanted);

    // on the platform, through the SDK: each long case's page as planned, within MTurk's limit
    const client = h.client({ maxAttempts: 5 });
    for (const x of long) {
      const { HIT } = await client.send(new GetHITCommand({ HITId: x.hitId! }));
      expect(Buffer.byteLength(HIT!.Question!, 'utf8')).toBe(x.bytes);
      expect(HIT!.Question).toContain(FILLER.trim());
    }

    const workers = await Promise.all([1, 2, 3].map(() => newWorker(h)));
    for (const x of hits) for (const w of workers) await work(h.running, ctx, x._id, w.workerId, honest);
    const round = await collectBatch(ctx, 'long-a');
    expect(round.review).toMatchObject({ decided: hits.length * 3, discarded: 0, rejected: 0 });
    const batch = await requireBatch(ctx, 'long-a');
    expect(batch.state).toBe('complete');
    expect(batch.summary).toMatchObject({ items: 20, itemsComplete: 20, labels: 20 });
  });
});
