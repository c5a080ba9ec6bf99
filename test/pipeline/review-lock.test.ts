import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../../src/paths.js';
import { collectBatch, RoundBusy } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { formatHolder } from '../../src/pipeline/round-holder.js';
import { useMarketplace } from '../marketplace/support.js';
import { runCli } from '../support/cli.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

/**
 * Issue 17, section 5: a `qrelay review` killed mid-round (a real SIGKILL) leaves its
 * batch lock behind; the next run takes it over at once, saying so, instead of being
 * refused for the lease's ten minutes. A live holder still keeps it.
 */

const h = useMarketplace();
const dir = tempDir();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the batch lock of qrelay review', () => {
  it('is taken over at once from a review killed mid-round, with a line saying so', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'lock-a', 24);
    await publishBatch(ctx, 'lock-a', { preset: 'quick', target: h.running.url }, 'local');

    // slow answers keep the round (one ListAssignmentsForHIT per HIT) going when the kill lands
    h.running.chaos.set({ slowShare: 1, slowMs: 400 });
    const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'review', 'lock-a'], {
      cwd: paths.root,
      env: { ...process.env, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    const exited = new Promise<string | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    try {
      // the condition: the child holds the lock (the test's timeout is the safety net)
      while ((await ctx.models.batches.findById('lock-a').lean())?.roundOwner == null) await sleep(50);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
    } finally {
      h.running.chaos.set({ slowShare: 0 });
    }
    const left = (await ctx.models.batches.findById('lock-a').lean())!;
    expect(left.roundOwner).toMatch(new RegExp(`^${child.pid}@`));
    expect(left.roundLeaseUntil!.getTime()).toBeGreaterThan(Date.now()); // still within its ten minutes

    const again = await runCli(['review', 'lock-a']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `batch lock-a: took over the collection round lock of process ${child.pid} on ${hostname()}, which is no longer running`,
    );
    expect(again.stdout).toMatch(/^batch lock-a: collecting; 0\/24 items decided/m);
    expect(await ctx.models.batches.findById('lock-a').lean()).toMatchObject({ roundLeaseUntil: null, roundOwner: null });
  });

  it('stays with a holder that is alive, and the refusal names it', async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'lock-b', 8);
    await publishBatch(ctx, 'lock-b', { preset: 'quick', target: h.running.url }, 'local');
    // this very process holds it: alive, on this host
    const owner = formatHolder({ pid: process.pid, host: hostname(), tag: 'test' });
    await ctx.models.batches.updateOne({ _id: 'lock-b' }, { $set: { roundLeaseUntil: new Date(Date.now() + 60_000), roundOwner: owner } });
    const busy = collectBatch(ctx, 'lock-b');
    await expect(busy).rejects.toThrow(RoundBusy);
    await expect(busy).rejects.toThrow(`another collection round of batch lock-b is running (process ${process.pid} on ${hostname()})`);
    // a holder on another host cannot be checked: it keeps the lease until it runs out
    await ctx.models.batches.updateOne({ _id: 'lock-b' }, { $set: { roundOwner: '999999@elsewhere.example/x' } });
    await expect(collectBatch(ctx, 'lock-b')).rejects.toThrow('(process 999999 on elsewhere.example)');
    const cli = await runCli(['review', 'lock-b']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^qrelay: another collection round of batch lock-b is running \(process 999999 on elsewhere\.example\): try again when it is done$/m,
    );
  });
});
