import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBatchData } from '../../src/batches/index.js';
import type { WorkerDecisionDoc } from '../../src/db/models/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { llmAssistedVerdictsOf } from '../../src/pipeline/llm-flags.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { paths } from '../../src/paths.js';
import type { MarketplaceHarness } from '../marketplace/support.js';
import { workInSteps } from '../support/simulation.js';
import { sampleOracle, simulationAdmin } from './simulated-crowd.js';
import { importSampleBatch, testContext } from './support.js';

/**
 * One batch of the sample through the collection rounds (`workInSteps`) with a population of
 * careful and LLM-assisted workers (a fifth of 24, as test/simulation/llm-detection.test.ts), under the `lab` preset with the given
 * `llmAssisted` and `workerStop` fields: what the worker-level decisions did, the workers
 * the `llm-assisted` flag names at the end, and each worker's simulated kind.
 */
export const LLM_POLICY_CASES = 54;

export async function runLlmPolicyBatch(
  h: MarketplaceHarness,
  dir: string,
  batch: string,
  preset: { llmAssisted: 'flag' | 'block'; workerStop?: 'discard' | 'reject' },
) {
  const ctx = testContext(h.db);
  const presetFile = join(dir, `${batch}-preset.json`);
  const lab = JSON.parse(readFileSync(join(paths.presets, 'lab.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(presetFile, JSON.stringify({ ...lab, ...preset }));
  await importSampleBatch(ctx, dir, batch, LLM_POLICY_CASES);
  await publishBatch(ctx, batch, { preset: presetFile, target: h.running.url, concurrency: 1 }, 'local');
  await simulationAdmin(h, 'PUT', '/admin/simulation/oracle', sampleOracle(LLM_POLICY_CASES));
  const { workers } = (await simulationAdmin(h, 'PUT', '/admin/simulation/population', {
    seed: `qrelay-llm-policy-${batch}`,
    size: 24,
    arrivalsPerHour: 30,
    hitsPerVisit: 6,
    shares: { llm: 0.2 },
    accuracy: { relevant: { alpha: 48, beta: 2 }, notRelevant: { alpha: 46, beta: 4 } },
    workTime: { medianSeconds: 45 },
  })) as { workers: { workerId: string; kind: string }[] };
  const { complete } = await workInSteps(h.running, async () => (await collectBatch(ctx, batch)).followUp.complete, { spellSeconds: 600 });
  const data = await loadBatchData(ctx, batch);
  const flagged = new Set([...(await llmAssistedVerdictsOf(ctx, data))].filter(([, v]) => v.flagged).map(([w]) => w));
  const decisions = (await ctx.models.workerDecisions.find({ batch }).lean()) as WorkerDecisionDoc[];
  return { ctx, complete, data, flagged, decisions, kindOf: new Map(workers.map((w) => [w.workerId, w.kind])) };
}
