import { describe, expect, it } from 'vitest';
import { requireBatch } from '../../src/batches/index.js';
import { caseKey } from '../../src/ingest/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import type { PipelineContext } from '../../src/pipeline/context.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { checkPopulation, type OracleEntry, type PopulationProfile } from '../../src/simulation/index.js';
import { latentTruth } from '../../src/simulation/oracle.js';
import { workProlificStudies } from '../../src/simulation/prolific.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, tempDir, testContext } from '../pipeline/support.js';
import { basePopulation, useTaskPages } from './support.js';

// Issue 36: the simulated crowd works Prolific studies (study list, taking part, qrelay's
// task page over HTTP, its form posted, the completion URL) with the answer model it uses
// for HITs; the same batch on the MTurk protocol with the same seed gives figures of the
// same order.

const h = useMarketplace();
const dir = tempDir();
const pages = useTaskPages(h, 'prolific-crowd-test-token');

/** The oracle of the batch's pages: checks by their expected answer, real items by a hidden truth drawn from the seed. */
async function oracleOf(ctx: PipelineContext, batch: string, profile: PopulationProfile) {
  const oracle: Record<string, OracleEntry> = {};
  const truthByCase = new Map<string, 'yes' | 'no'>();
  for (const hit of await ctx.models.hits.find({ batch }).lean()) {
    for (const item of hit.items) {
      if (item.kind === 'check') oracle[item.key] = { truth: item.expected === 'yes' ? 'yes' : 'no', check: true };
      else {
        const truth = latentTruth(profile.seed, item.key, 0.5);
        oracle[item.key] = { truth };
        truthByCase.set(caseKey(item.queryId, item.chunkId), truth);
      }
    }
  }
  return { oracle, truthByCase };
}

/** The batch's figures: κ, accuracy of its labels against the hidden truth, and how many labels. */
async function figures(ctx: PipelineContext, batch: string, truthByCase: Map<string, 'yes' | 'no'>) {
  const summary = (await requireBatch(ctx, batch)).summary!;
  const labels = await ctx.models.labels.find({ batch }).lean();
  const labelled = labels.filter((l) => l.label !== null);
  const right = labelled.filter((l) => l.label === truthByCase.get(caseKey(l.queryId, l.chunkId))).length;
  return { kappa: summary.fleissKappa, accuracy: right / labelled.length, labels: summary.labels, items: summary.items };
}

describe('the simulated crowd on Prolific', () => {
  it(
    'works a batch published with --target prolific over HTTP, and labels it as it labels the same batch on MTurk',
    { timeout: 600_000 },
    async () => {
      const checked = checkPopulation(basePopulation({ seed: 'prolific-crowd', size: 12 }));
      if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
      const profile = checked.profile;
      const sim = h.running.simulation;
      const workers = await sim.loadPopulation(profile);
      const ctx = testContext(h.db, pages.env());

      // Prolific: studies linking to qrelay's task pages, worked by the simulated participants
      await importSampleBatch(ctx, dir, 'spc-p', 16, 0);
      await publishBatch(ctx, 'spc-p', { preset: 'quick', target: 'prolific', workerDecisions: false }, 'local');
      const pro = await oracleOf(ctx, 'spc-p', profile);
      let complete = false;
      let taken = 0;
      for (let round = 0; round < 6 && !complete; round++) {
        const worked = await workProlificStudies(h.running, { profile, workers, oracle: pro.oracle });
        expect(worked.errors).toEqual([]);
        expect(worked.failed).toBe(0);
        expect(worked.completed).toBe(worked.started);
        taken += worked.completed;
        complete = (await collectBatch(ctx, 'spc-p')).followUp.complete;
      }
      expect(complete).toBe(true);
      expect(taken).toBeGreaterThanOrEqual(3);
      const onProlific = await figures(ctx, 'spc-p', pro.truthByCase);

      // the same cases on the MTurk protocol, the same population and seed
      await importSampleBatch(ctx, dir, 'spc-m', 16, 0);
      await publishBatch(ctx, 'spc-m', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local');
      const mt = await oracleOf(ctx, 'spc-m', profile);
      sim.setOracle(mt.oracle);
      sim.startStepped();
      complete = false;
      try {
        for (let round = 0; round < 20 && !complete; round++) {
          const t = await sim.runUntil(h.running.marketplace.clock.nowMs() + 3_600_000, { untilQuiet: true });
          while ((await h.running.loops.tick()).delivered > 0);
          complete = (await collectBatch(ctx, 'spc-m')).followUp.complete;
          await sim.runUntil(t + 60_000);
        }
      } finally {
        await sim.stop();
      }
      expect(complete).toBe(true);
      const onMturk = await figures(ctx, 'spc-m', mt.truthByCase);

      // every item labelled on both; accuracy and κ of the same order (a 16-item batch: loose bounds)
      expect(onProlific.labels).toBe(onProlific.items);
      expect(onMturk.labels).toBe(onMturk.items);
      expect(onProlific.labels).toBe(onMturk.labels);
      expect(onProlific.accuracy).toBeGreaterThan(0.7);
      expect(onMturk.accuracy).toBeGreaterThan(0.7);
      expect(Math.abs(onProlific.accuracy - onMturk.accuracy)).toBeLessThan(0.25);
      expect(onProlific.kappa).not.toBeNull();
      expect(onMturk.kappa).not.toBeNull();
      expect(Math.abs(onProlific.kappa! - onMturk.kappa!)).toBeLessThan(0.4);
    },
  );
});
