import { describe, expect, it } from 'vitest';
import { requireBatch } from '../../src/batches/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { checkPopulation, type OracleEntry } from '../../src/simulation/index.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, tempDir, testContext } from '../pipeline/support.js';
import { basePopulation, useTaskPages } from './support.js';

// Issue 36: the simulation mounted on the marketplace (the crowd of `qrelay marketplace
// --simulate`) works open Prolific studies as part of its steps, so a batch published with
// --target prolific gets done by it, each study's task page served by qrelay's app.

const h = useMarketplace();
const dir = tempDir();
const pages = useTaskPages(h, 'prolific-simulation-test-token');

describe('the marketplace simulation on Prolific studies', () => {
  it('completes a batch published with --target prolific in its steps', { timeout: 600_000 }, async () => {
    const checked = checkPopulation(basePopulation({ seed: 'prolific-simulation', size: 12 }));
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const sim = h.running.simulation;
    await sim.loadPopulation(checked.profile);
    const ctx = testContext(h.db, pages.env());
    await importSampleBatch(ctx, dir, 'sps', 12, 0);
    await publishBatch(ctx, 'sps', { preset: 'quick', target: 'prolific', workerDecisions: false }, 'local');
    const oracle: Record<string, OracleEntry> = {};
    for (const hit of await ctx.models.hits.find({ batch: 'sps' }).lean())
      for (const item of hit.items)
        if (item.kind === 'check') oracle[item.key] = { truth: item.expected === 'yes' ? 'yes' : 'no', check: true };
    sim.setOracle(oracle);

    sim.startStepped();
    let complete = false;
    try {
      for (let round = 0; round < 20 && !complete; round++) {
        await sim.runUntil(h.running.marketplace.clock.nowMs() + 3_600_000);
        complete = (await collectBatch(ctx, 'sps')).followUp.complete;
      }
    } finally {
      await sim.stop();
    }
    const progress = sim.progress();
    expect(progress.errors).toEqual({ count: 0 });
    expect(progress.assignments.submitted).toBeGreaterThanOrEqual(3);
    expect(progress.assignments.submitted).toBe(progress.assignments.accepted);
    expect(complete).toBe(true);
    const summary = (await requireBatch(ctx, 'sps')).summary!;
    expect(summary.items).toBe(12);
    expect(summary.labels).toBe(summary.items);
    const labels = await ctx.models.labels.find({ batch: 'sps' }).lean();
    expect(labels).toHaveLength(12);
    expect(labels.every((l) => l.label === 'yes' || l.label === 'no')).toBe(true);
  });
});
