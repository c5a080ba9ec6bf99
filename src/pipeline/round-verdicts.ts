import type { BatchDoc } from '../db/models/index.js';
import { rejudgedVerdicts, type BatchVerdicts } from '../quality/batch-verdicts.js';
import type { ScoredAssignment } from '../quality/index.js';
import type { PipelineContext } from './context.js';
import { workersToTest, type DriftTests } from './round-drift.js';
import { SimulatedBatchMemory } from './simulated-batch-memory.js';

/**
 * The worker verdicts of a simulated collection round (docs/decisions/0017, after 0013's rule).
 * The batch's verdicts (quality/batch-verdicts.ts) fit the working model and the references
 * over the whole batch in several passes, which costs the batch's size times its rounds. A
 * simulated batch fits them anew while it has up to EVERY_FIT_UP_TO assignments (the quality
 * matrix's and the sample's batches, always), whenever its assignments grew by REFIT_GROWTH
 * since the last fit (quality/llm-refit.ts), and whenever the workers kept out of the
 * references (stopped, flagged, likely LLM-assisted) change; in the rounds between it keeps
 * that fit and re-judges only the workers with new work (`rejudgedVerdicts`). The service
 * (`qrelay review`, the per-batch job) fits everything every round.
 */

/** What a batch's last fit saw: the workers kept out of the references, the assignments fitted and judged, the verdicts. */
export interface KeptVerdicts {
  notReferences: string;
  judged: DriftTests;
  verdicts: BatchVerdicts;
}

/**
 * This round's verdicts given the last round's (pure): `fit` (the whole fit) when the rule asks
 * for it, else the kept fit's with the workers whose assignments changed re-judged.
 */
export function nextVerdicts(
  scored: readonly ScoredAssignment[],
  notReferences: ReadonlySet<string>,
  assignments: ReadonlyMap<string, number>,
  last: KeptVerdicts | undefined,
  fit: () => BatchVerdicts,
): KeptVerdicts {
  const key = JSON.stringify([...notReferences].sort());
  const same = last?.notReferences === key ? last : undefined;
  const { tested, next } = workersToTest(assignments, same?.judged);
  const verdicts = tested === undefined || !same ? fit() : rejudgedVerdicts(scored, same.verdicts, tested);
  return { notReferences: key, judged: next, verdicts };
}

/** Simulated batches' last verdicts. */
const lastVerdicts = new SimulatedBatchMemory<KeptVerdicts>();

/** The verdicts of this round, given each worker's assignments in the batch; `fit`: the whole fit. */
export function roundVerdicts(
  ctx: PipelineContext,
  doc: Pick<BatchDoc, '_id' | 'createdAt'>,
  scored: readonly ScoredAssignment[],
  notReferences: ReadonlySet<string>,
  assignments: ReadonlyMap<string, number>,
  fit: () => BatchVerdicts,
): BatchVerdicts {
  if (!ctx.simulatedClock) return fit();
  const kept = nextVerdicts(scored, notReferences, assignments, lastVerdicts.get(ctx, doc), fit);
  lastVerdicts.set(ctx, doc, kept);
  return kept.verdicts;
}
