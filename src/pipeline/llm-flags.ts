import type { BatchData } from '../batches/repository.js';
import type { AssignmentDoc, HitDoc } from '../db/models/index.js';
import { plannedItems } from '../batches/labels.js';
import type { LlmAssistedVerdict } from '../quality/llm-assisted.js';
import { llmAssistedVerdicts } from '../quality/llm-flags.js';
import type { WorkerStats } from '../quality/worker-stats.js';
import { reportItemFromCase } from '../reports/input.js';
import type { PipelineContext } from './context.js';
import { itemCases } from './records.js';
import { scoreStored } from './votes.js';

/**
 * The batch's worker statistics with the `llm-assisted` flag and its evidence: the
 * detection needs the items' debates (the agents' final labels) and texts, which the
 * aggregate does not load; `qrelay workers` and the console's workers table call this.
 */
export async function withLlmFlags(ctx: PipelineContext, data: BatchData, stats: readonly WorkerStats[]): Promise<WorkerStats[]> {
  const verdicts = await llmAssistedVerdictsOf(ctx, data);
  return stats.map((s) => {
    const v = verdicts.get(s.worker);
    if (!v?.flagged || s.flags.includes('llm-assisted')) return s;
    return { ...s, flags: [...s.flags, 'llm-assisted'], llmEvidence: v.evidence };
  });
}

/** Every worker's `llm-assisted` verdict in the batch, with the items' debates and texts loaded. */
export async function llmAssistedVerdictsOf(
  ctx: PipelineContext,
  data: { readonly hits: readonly HitDoc[]; readonly assignments: readonly AssignmentDoc[] },
): Promise<Map<string, LlmAssistedVerdict>> {
  const ids = [...plannedItems(data.hits).keys()];
  const cases = await itemCases(
    ctx,
    ids.map((_id) => ({ _id })),
  );
  const items = new Map(ids.map((id, i) => [id, reportItemFromCase(id, cases[i]!)]));
  const infos = new Map(
    [...items].map(([id, it]) => [
      id,
      { agentLabels: it.agentLabels ?? {}, ...(it.textLength !== undefined && { textLength: it.textLength }) },
    ]),
  );
  return llmAssistedVerdicts(scoreStored(data.hits, data.assignments), infos);
}
