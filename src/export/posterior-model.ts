import { buildLabels, loadBatchData, requireBatch } from '../batches/index.js';
import type { LabelDoc } from '../db/models/index.js';
import type { PipelineContext } from '../pipeline/context.js';
import { BatchStateError } from '../pipeline/errors.js';
import { agreementError, goldErrorBound, pairKey, type PosteriorModel } from '../qrels/index.js';
import type { AttentionCheckScore } from '../quality/index.js';

/**
 * The batch's worker model for `export-qrels --posterior` (qrels/posterior.ts): the
 * Dawid–Skene posterior of every item (checks as gold), whichever aggregator decided the
 * labels (for majority vote it is computed for this purpose only), the per-vote error
 * on the gold checks of every assignment scored, counted or not (the bound must hold for
 * the crowd as it answered, not only for the answers that passed), the one-coin error of
 * the items' own agreement, and the labels' error in the batch's simulated forecast.
 */

export type BatchPosteriorModel = PosteriorModel & { gold: { checks: number; wrong: number }; agreementError: number };

/** The model from the batch's Dawid–Skene labels and its assignments' check scores (pure). */
export function posteriorModelOf(
  labels: readonly Pick<LabelDoc, 'queryId' | 'chunkId' | 'probabilities' | 'votes'>[],
  scores: readonly Pick<AttentionCheckScore, 'checks' | 'correct'>[],
  labelError: number | null = null,
): BatchPosteriorModel {
  const crowd = new Map<string, number>();
  for (const l of labels) if (l.probabilities) crowd.set(pairKey(l.queryId, l.chunkId), l.probabilities.yes);
  let checks = 0;
  let wrong = 0;
  for (const s of scores) {
    checks += s.checks;
    wrong += s.checks - s.correct;
  }
  const agreement = agreementError(labels.map((l) => l.votes));
  return {
    crowd,
    voteError: Math.max(goldErrorBound(wrong, checks), agreement),
    gold: { checks, wrong },
    agreementError: agreement,
    ...(labelError !== null && { labelError }),
  };
}

/** `labelError`: 1 − the accuracy of the labels written, from the batch's simulated forecast against its truth, when there is one. */
export async function batchPosteriorModel(ctx: PipelineContext, batch: string, labelError: number | null): Promise<BatchPosteriorModel> {
  const doc = await requireBatch(ctx, batch);
  if (!doc.settings) throw new BatchStateError(`batch ${batch} is not published: it has no worker model yet`);
  const data = await loadBatchData(ctx, batch);
  const { aggregate, labels } = buildLabels({ ...doc, settings: { ...doc.settings, aggregator: 'dawid-skene' } }, data, ctx.now());
  return posteriorModelOf(
    labels,
    aggregate.scored.map((s) => s.score),
    labelError,
  );
}
