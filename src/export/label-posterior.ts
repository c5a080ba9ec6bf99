import { existsSync } from 'node:fs';
import { aggregatorOfShortName } from '../aggregate/index.js';
import type { PipelineContext } from '../pipeline/context.js';
import { mergeQrels, posteriorOf, readQrels, type Qrels } from '../qrels/index.js';
import type { Posterior } from '../qrels/label-draws.js';
import { recordedAggregateChoice } from './aggregate-choice.js';
import { decideAggregate } from './aggregate-decision.js';
import { loadHumanLabels } from './load-labels.js';
import { batchPosteriorModel } from './posterior-model.js';
import { batchConsensus, forecastLabelError, readConsensusFile } from './qrels-export.js';
import { qrelsExportModel } from './store.js';

/**
 * The batch's own label posteriors over adjudicated qrels (the report's "Did the holes
 * matter?"): the base merged with the batch's consensus and human labels as export-qrels
 * merges them (the aggregator export-qrels would choose, the consensus file of its last
 * run), each pair's `p_relevant` from the batch's worker model (qrels/posterior.ts), as
 * `export-qrels --posterior` writes it. Kept: the pairs of `next` whose relevance agrees
 * with the merge's (a pair the adjudicated qrels grade otherwise is not this batch's
 * label, and is taken as given).
 */
export async function batchLabelPosterior(ctx: PipelineContext, batch: string, base: string, next: Qrels): Promise<Posterior> {
  const aggregate = decideAggregate(undefined, await recordedAggregateChoice(ctx.models.batches.db, batch));
  const human = await loadHumanLabels(ctx, batch, aggregatorOfShortName(aggregate.aggregate));
  const last = await qrelsExportModel(ctx.models.batches.db).findById(batch).lean();
  const fromFile = last?.consensusFile && existsSync(last.consensusFile) ? await readConsensusFile(last.consensusFile) : [];
  const merged = mergeQrels({
    base: (await readQrels(base)).qrels,
    consensus: [...(await batchConsensus(ctx, batch)), ...fromFile],
    human: human.labels,
  });
  const model = await batchPosteriorModel(ctx, batch, forecastLabelError(aggregate));
  const posterior: Posterior = new Map();
  merged.entries.forEach((entry, line) => {
    const grade = next.get(entry.query_id)?.get(entry.doc_id);
    if (grade === undefined || grade >= 1 !== entry.rel >= 1) return;
    let docs = posterior.get(entry.query_id);
    if (!docs) posterior.set(entry.query_id, (docs = new Map()));
    if (!docs.has(entry.doc_id)) docs.set(entry.doc_id, { p: posteriorOf(entry, model), line: line + 1 });
  });
  return posterior;
}
