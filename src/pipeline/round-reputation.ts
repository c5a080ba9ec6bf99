import type { BatchDoc, BatchSettings } from '../db/models/index.js';
import { llmRefitDue } from '../quality/llm-refit.js';
import type { PipelineContext } from './context.js';
import { SimulatedBatchMemory } from './simulated-batch-memory.js';

/**
 * When a simulated collection round brings the target's reputation up to date with its batch
 * (docs/decisions/0020). The update (reputation.ts) recomputes every worker's record over the
 * whole batch, then reads, writes and pushes the records that changed, and a worker's record
 * changes whenever they did new work or their items' labels moved: most rounds, for most of the
 * active workers. A simulated batch runs about as many rounds whatever its size, so this cost
 * the batch's size times its rounds.
 *
 * Within one simulated batch the values pushed change nothing unless its preset requires a
 * reputation (`minReputation`): no simulated worker reads them, and neither the forecast nor
 * the report does. Such a batch updates its reputation by the rule of the LLM-assisted refit
 * (quality/llm-refit.ts): in every round up to EVERY_FIT_UP_TO assignments, then whenever its
 * assignments grew by REFIT_GROWTH since the last update, and always once it is finished (its
 * last round, with the LLM-assisted flags). The service (`qrelay review`, the per-batch job)
 * updates in every round.
 */

/** Whether this round updates the reputation (pure): `last`, the batch's assignments at the last update (undefined: none yet). */
export function reputationDue(round: {
  finished: boolean;
  requiresReputation: boolean;
  assignments: number;
  last: number | undefined;
}): boolean {
  return round.finished || round.requiresReputation || llmRefitDue(round.assignments, round.last);
}

/** The states after which a batch takes no more work: its reputation is updated whatever the rule says. */
const FINISHED: readonly BatchDoc['state'][] = ['complete', 'expired', 'closed'];

/** Simulated batches' assignments at their last reputation update. */
const lastUpdates = new SimulatedBatchMemory<number>();

/** Whether this round of `doc`, with `assignments` in the batch, updates the reputation; remembered when it does. */
export function roundReputationDue(
  ctx: PipelineContext,
  doc: Pick<BatchDoc, '_id' | 'createdAt' | 'state' | 'settings'>,
  assignments: number,
): boolean {
  if (!ctx.simulatedClock) return true;
  const due = reputationDue({
    finished: FINISHED.includes(doc.state),
    requiresReputation: (doc.settings as BatchSettings | undefined)?.preset.minReputation !== undefined,
    assignments,
    last: lastUpdates.get(ctx, doc),
  });
  if (due) lastUpdates.set(ctx, doc, assignments);
  return due;
}
