import { ADJUDICATOR_SOURCE, llmModels } from '../debate/store.js';
import type { PipelineContext } from '../pipeline/context.js';
import type { BatchHumanLabels } from './human-labels.js';

/**
 * `qrelay adjudicate --fill-unresolved`: the items the crowd left unresolved take the LLM
 * adjudicator's label, with its provenance (`source: llm-adjudicator`), in everything that
 * reads the batch's human labels (export-qrels, reports). Only items marked as filled and
 * still unresolved are touched: the crowd's labels are never replaced.
 */
export async function withAdjudicatorFills(ctx: PipelineContext, human: BatchHumanLabels): Promise<BatchHumanLabels> {
  if (human.unresolved.length === 0) return human;
  const { adjudications } = llmModels(ctx.models.batches.db);
  const filled = await adjudications.find({ batch: human.batch, filledUnresolved: true }).lean();
  if (filled.length === 0) return human;
  const byItem = new Map(filled.filter((a) => a.label !== null).map((a) => [a._id, a]));
  const labels = [...human.labels];
  const unresolved = [];
  for (const u of human.unresolved) {
    const a = byItem.get(u.item);
    if (!a?.label) {
      unresolved.push(u);
      continue;
    }
    // workers: 1 stands for the one adjudicator (the schema counts who answered).
    labels.push({
      query_id: u.query_id,
      chunk_id: u.chunk_id,
      label: a.label,
      votes: u.votes,
      workers: 1,
      batch: human.batch,
      dataset: u.dataset,
      source: ADJUDICATOR_SOURCE,
    });
  }
  return { ...human, labels, unresolved };
}
