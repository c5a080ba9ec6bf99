import { spawn } from 'node:child_process';
import { listAllHits } from '../support/mturk.js';
import { join } from 'node:path';
import type { HIT } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { runCli, stderrLines } from '../support/cli.js';
import { useMarketplace } from '../marketplace/support.js';
import { sampleLines, tempDir, testContext, writeLines } from './support.js';

const h = useMarketplace();
const dir = tempDir();

async function hitsOf(batch: string): Promise<HIT[]> {
  const client = h.client({ maxAttempts: 5 });
  const hits = await listAllHits(client);
  return hits.filter((x) => x.RequesterAnnotation?.startsWith(`qrelay:${batch}|`));
}

describe('qrelay import, publish, status', () => {
  it('import lists every bad line on stdout and fails with one line on stderr', async () => {
    const lines = sampleLines('escalations.jsonl').slice(0, 3);
    lines[1] = lines[1]!.replace('"query_id"', '"qid_typo"');
    lines.push('not json');
    const res = await runCli(['import', writeLines(dir, 'bad.jsonl', lines), '--batch', 'cli-bad']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/bad\.jsonl line 2: query_id: required but missing/);
    expect(res.stdout).toMatch(/bad\.jsonl line 4: /);
    expect(stderrLines(res.stderr)).toEqual([
      expect.stringMatching(/^qrelay: .*bad\.jsonl has 2 errors, nothing was imported \(the errors are listed above\)$/),
    ]);
  });

  it('imports, with a line of counts', async () => {
    const cases = writeLines(dir, 'cases.jsonl', sampleLines('escalations.jsonl').slice(0, 200));
    const imported = await runCli(['import', cases, '--batch', 'cli-a']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('into batch cli-a: 200 escalations records (200 new, 0 already in the batch)');
    const { importFile } = await import('../../src/pipeline/import.js');
    await importFile(testContext(h.db), writeLines(dir, 'gold.jsonl', sampleLines('gold.jsonl')), { batch: 'cli-a', kind: 'gold' });
    expect(await hitsOf('cli-a')).toHaveLength(0);
  });

  it('a publisher killed mid-batch (SIGKILL) and started again leaves exactly one HIT per planned HIT', async () => {
    // slow answers keep several CreateHIT calls in flight when the kill lands
    h.running.chaos.set({ slowShare: 1, slowMs: 120 });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'publish', 'cli-a', '--preset', 'quick', '--target', h.running.url],
      {
        cwd: paths.root,
        env: { ...process.env, LOG_LEVEL: 'warn' },
        stdio: 'ignore',
      },
    );
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let seen = 0;
    for (let i = 0; i < 600 && seen < 12; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seen = (await hitsOf('cli-a')).length;
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    h.running.chaos.set({ slowShare: 0 });
    const killedAt = (await hitsOf('cli-a')).length;
    expect(killedAt).toBeGreaterThanOrEqual(12);
    expect(killedAt).toBeLessThan(50);

    const ctx = testContext(h.db);
    const creating = await ctx.models.hits.countDocuments({ batch: 'cli-a', state: 'creating' });
    const again = await runCli(['publish', 'cli-a'], {}, 120_000);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/batch cli-a: 50 HITs on http:\/\/127\.0\.0\.1:\d+ \(\d+ created now, \d+ already there\)/);
    const onPlatform = await hitsOf('cli-a');
    expect(onPlatform).toHaveLength(50);
    expect(new Set(onPlatform.map((x) => x.RequesterAnnotation)).size).toBe(50);
    const stored = await ctx.models.hits.find({ batch: 'cli-a' }).lean();
    expect(stored.every((x) => x.state === 'published')).toBe(true);
    expect(new Set(stored.map((x) => x.hitId))).toEqual(new Set(onPlatform.map((x) => x.HITId)));
    // the kill landed with CreateHIT calls in flight (tokens recorded, outcome unknown);
    // the restart repeated those tokens, and the platform answered with the HITs they made
    expect(creating).toBeGreaterThanOrEqual(1);
    const reported = /\((\d+) created now, (\d+) already there\)/.exec(again.stdout)!;
    expect(Number(reported[1]) + Number(reported[2])).toBe(50);
    expect(Number(reported[2])).toBeGreaterThanOrEqual(killedAt);
  });

  it('status prints progress, or one JSON object', async () => {
    const text = await runCli(['status', 'cli-a']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /^batch cli-a: collecting on http:\/\/127\.0\.0\.1:\d+, preset quick\nitems {8}0 of 200 decided \(majority of 3\)/,
    );
    expect(text.stdout).toMatch(/HITs {9}50: 50 published/);
    const json = await runCli(['status', 'cli-a', '--json']);
    const status = JSON.parse(json.stdout) as {
      items: { total: number };
      hits: { total: number };
      cost: { quote: { total: number }; committed: number };
    };
    expect(status).toMatchObject({ items: { total: 200 }, hits: { total: 50 }, cost: { quote: { total: 9900 }, committed: 9900 } });
  });
});
