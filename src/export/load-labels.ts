import { withAdjudicatorFills } from './adjudicator-fills.js';
import type { PipelineContext } from '../pipeline/context.js';
import { BatchStateError } from '../pipeline/errors.js';
import { actionModels } from '../db/models/actions.js';
import { applyManualLabels, datasetsOf, toHumanLabels, type BatchHumanLabels } from './human-labels.js';
import { buildLabels, loadBatchData, requireBatch } from '../batches/index.js';
import type { BatchDoc } from '../db/models/index.js';

/**
 * The batch's labels from its stored votes, as the pipeline's aggregation decides them
 * (the same computation `aggregateBatch` stores), mapped to qrels input.
 */
export async function loadHumanLabels(
  ctx: PipelineContext,
  batch: string,
  aggregator?: NonNullable<BatchDoc['settings']>['aggregator'],
): Promise<BatchHumanLabels> {
  const doc = await requireBatch(ctx, batch);
  if (!doc.settings)
    throw new BatchStateError(`batch ${batch} is not published: it has no human labels yet (publish it, then collect its votes)`);
  const data = await loadBatchData(ctx, batch);
  // `aggregator` overrides the batch's own (export-qrels --aggregate); the votes are the same
  const { labels } = buildLabels(aggregator ? { ...doc, settings: { ...doc.settings, aggregator } } : doc, data, ctx.now());
  const datasets = datasetsOf(data.hits);
  const crowd = toHumanLabels({ batch, state: doc.state, voteTarget: doc.settings.voteTarget, labels, datasets });
  // Items the crowd left unresolved may carry the LLM adjudicator's label (adjudicate --fill-unresolved);
  // decisions taken by hand (qrelay label) win over both.
  const filled = await withAdjudicatorFills(ctx, crowd);
  const manual = await actionModels(ctx.models.batches.db).manualLabels.find({ batch }).lean();
  return applyManualLabels(
    filled,
    manual.map((m) => ({ item: m._id, queryId: m.queryId, chunkId: m.chunkId, label: m.label })),
    datasets,
  );
}
