import type { AssignmentDoc, BatchDoc, HitDoc } from '../db/models/index.js';
import type { LlmAssistedVerdict } from '../quality/llm-assisted.js';
import { llmRefitDue } from '../quality/llm-refit.js';
import type { PipelineContext } from './context.js';
import { llmAssistedVerdictsOf } from './llm-flags.js';
import { SimulatedBatchMemory } from './simulated-batch-memory.js';

/** A simulated batch's last LLM-assisted fit: the assignments it saw and its verdicts. */
const lastFits = new SimulatedBatchMemory<{ assignments: number; verdicts: Map<string, LlmAssistedVerdict> }>();

/**
 * The batch's LLM-assisted verdicts for a collection round's worker decisions. A simulated
 * batch (its clock simulated) keeps its last fit's verdicts until its assignments grew enough
 * (quality/llm-refit.ts, docs/decisions/0011); the service fits in every round, whose cost it
 * pays once a minute rather than once per simulated round.
 */
export async function roundLlmVerdicts(
  ctx: PipelineContext,
  doc: Pick<BatchDoc, '_id' | 'createdAt'>,
  data: { hits: readonly HitDoc[]; assignments: readonly AssignmentDoc[] },
): Promise<Map<string, LlmAssistedVerdict>> {
  if (!ctx.simulatedClock) return llmAssistedVerdictsOf(ctx, data);
  const last = lastFits.get(ctx, doc);
  if (last && !llmRefitDue(data.assignments.length, last.assignments)) return last.verdicts;
  const verdicts = await llmAssistedVerdictsOf(ctx, data);
  lastFits.set(ctx, doc, { assignments: data.assignments.length, verdicts });
  return verdicts;
}
