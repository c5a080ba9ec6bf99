import type { PipelineContext } from '../pipeline/context.js';
import { importFile } from '../pipeline/import.js';
import type { DebateSummary } from './run.js';
import { llmModels } from './store.js';

/**
 * `qrelay debate --batch B`: the escalations become the batch's cases and the consensus
 * labels its consensus (both through `qrelay import`'s importer, so a second run is a
 * no-op), and the debate's tokens and cost are remembered for the batch's report.
 */
export async function importDebateOutputs(ctx: PipelineContext, batch: string, s: DebateSummary) {
  // An empty file is no import: the importer refuses files without records.
  const escalations = s.escalated > 0 ? (await importFile(ctx, s.files.escalations, { batch, kind: 'escalations' })).counts.records : 0;
  const consensus = s.consensus > 0 ? (await importFile(ctx, s.files.consensus, { batch, kind: 'consensus' })).counts.records : 0;
  const { llmRuns } = llmModels(ctx.models.batches.db);
  const models = [...new Set([s.models.a, s.models.b, ...s.models.prefilter])];
  await llmRuns.replaceOne(
    { _id: `${batch}|debate` },
    {
      _id: `${batch}|debate`,
      batch,
      step: 'debate',
      models,
      promptHash: s.promptHash,
      requests: s.requests,
      promptTokens: s.promptTokens,
      completionTokens: s.completionTokens,
      tokensByModel: s.tokensByModel,
      cost: s.cost,
      counts: { candidates: s.candidates, consensus: s.consensus, escalated: s.escalated, failed: s.failed, filtered: s.filtered },
      at: ctx.now(),
    },
    { upsert: true },
  );
  return { batch, escalations, consensus };
}
