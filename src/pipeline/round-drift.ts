import type { BatchDoc } from '../db/models/index.js';
import { llmRefitDue } from '../quality/llm-refit.js';
import type { PipelineContext } from './context.js';
import { SimulatedBatchMemory } from './simulated-batch-memory.js';

/**
 * Which workers a simulated collection round tests for drift (docs/decisions/0013). The drift
 * test (quality/drift.ts) weighs each worker's whole record, so testing every worker in every
 * round costs the batch's size times its rounds. A simulated batch tests every worker while it
 * has up to EVERY_FIT_UP_TO assignments (the quality matrix's and the sample's batches, always),
 * and again whenever its assignments grew by REFIT_GROWTH since the last such test (the rule of
 * the LLM-assisted refit, quality/llm-refit.ts); in the rounds between, only the workers who
 * submitted since they were last tested: a worker turns careless in their new work, and that is
 * what the test finds. The service (`qrelay review`, the per-batch job) tests everyone every round.
 */

/** What a batch's drift tests saw: its assignments at the last test of everyone, and each worker's when last tested. */
export interface DriftTests {
  wholeAt: number;
  byWorker: Map<string, number>;
}

/**
 * The workers to test (pure): undefined (everyone) when the rule asks for a test of everyone,
 * else those whose assignments changed since they were last tested. `last` is brought up to
 * date with the test this answers for.
 */
export function workersToTest(
  assignments: ReadonlyMap<string, number>,
  last: DriftTests | undefined,
): { tested: ReadonlySet<string> | undefined; next: DriftTests } {
  const total = [...assignments.values()].reduce((s, n) => s + n, 0);
  if (!last || llmRefitDue(total, last.wholeAt)) return { tested: undefined, next: { wholeAt: total, byWorker: new Map(assignments) } };
  const tested = new Set<string>();
  const byWorker = new Map(last.byWorker);
  for (const [worker, n] of assignments)
    if (last.byWorker.get(worker) !== n) {
      tested.add(worker);
      byWorker.set(worker, n);
    }
  return { tested, next: { wholeAt: last.wholeAt, byWorker } };
}

/** Simulated batches' drift tests. */
const lastTests = new SimulatedBatchMemory<DriftTests>();

/** The workers this round tests for drift (undefined: everyone), given each worker's assignments in the batch. */
export function roundDriftTested(
  ctx: PipelineContext,
  doc: Pick<BatchDoc, '_id' | 'createdAt'>,
  assignments: ReadonlyMap<string, number>,
): ReadonlySet<string> | undefined {
  if (!ctx.simulatedClock) return undefined;
  const { tested, next } = workersToTest(assignments, lastTests.get(ctx, doc));
  lastTests.set(ctx, doc, next);
  return tested;
}
