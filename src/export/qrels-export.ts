import { resolve } from 'node:path';
import { aggregatorOfShortName } from '../aggregate/index.js';
import type { ConsensusLabel } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { readRecords } from '../ingest/index.js';
import type { PipelineContext } from '../pipeline/context.js';
import { visibleRecords } from '../pipeline/records.js';
import {
  mergeQrels,
  outputFormatFor,
  ADJUDICATOR_CONFIDENCE,
  CONSENSUS_CONFIDENCE,
  readQrels,
  withPosteriors,
  writeQrels,
  type MergeSummary,
  type QrelsFormat,
  type QrelsOutputFormat,
} from '../qrels/index.js';
import { holesFound, type UnresolvedItem } from './human-labels.js';
import { recordedAggregateChoice } from './aggregate-choice.js';
import { decideAggregate, type Aggregate, type AggregateDecision } from './aggregate-decision.js';
import { loadHumanLabels } from './load-labels.js';
import { batchPosteriorModel } from './posterior-model.js';
import { qrelsExportModel } from './store.js';

/**
 * `qrelay export-qrels`: the base qrels, the debate-consensus labels and the batch's
 * human labels merged (`mergeQrels`: human > consensus > base, conflicts listed) and
 * written atomically in one format.
 *
 * Consensus labels come from the batch (those imported with `--kind consensus`) and, when
 * given, from a consensus file; both are used together. A pair in both with the same
 * label counts once (a duplicate); with different labels the export refuses, since no
 * tier says which is right. Every input is read and the merge computed before anything is
 * written; the file appears whole or not at all. The export is recorded on the batch
 * (src/export/store.ts) so reports know the base it was merged into.
 */

export interface ExportQrelsOptions {
  batch: string;
  base: string;
  baseFormat?: QrelsFormat;
  consensus?: string;
  out: string;
  format?: QrelsOutputFormat;
  /** `majority` (the protocol's) or `ds` (Dawid–Skene); default: what the batch's simulated forecast showed better, else majority. */
  aggregate?: Aggregate;
  /** Add `p_relevant` to every JSONL record (qrels/posterior.ts); TREC and BEIR outputs are unchanged. */
  posterior?: boolean;
}

/** What `p_relevant` was computed from (`--posterior`). */
export interface PosteriorSummary {
  /** Answers to the batch's gold checks, and how many were wrong. */
  gold: { checks: number; wrong: number };
  /** One-coin per-vote error fitted on the items' agreement. */
  agreementError: number;
  /** The larger of the gold's upper 95% bound and the agreement's: no crowd label is surer than a majority at this error. */
  voteError: number;
  /** 1 − the labels' accuracy against the truth in the batch's simulated forecast (a floor of every crowd label's doubt); null without one. */
  labelError: number | null;
  /** Stated confidences of consensus and LLM-adjudicated labels. */
  consensusConfidence: number;
  adjudicatorConfidence: number;
}

export interface ExportQrelsResult {
  batch: string;
  /** Labels of a simulated crowd (`qrelay simulate`); absent for real batches. */
  simulated?: true;
  base: { file: string; format: QrelsFormat; pairs: number };
  consensus: { fromBatch: number; fromFile: number | null; file: string | null };
  human: { labels: number; unresolved: UnresolvedItem[] };
  /** Which labels were written, and why (the option, the recorded forecast, or the protocol's default). */
  aggregate: AggregateDecision;
  out: { file: string; format: QrelsOutputFormat; pairs: number };
  /** Human labels of relevance on pairs the base did not judge. */
  holesFound: number;
  summary: MergeSummary;
  /** With `--posterior` only. */
  posterior?: PosteriorSummary;
}

/** The error of the labels written, as the batch's simulated forecast measured it against the truth; null without a forecast. */
export function forecastLabelError(decision: AggregateDecision): number | null {
  const accuracy = decision.forecast?.[decision.aggregate].accuracy;
  return accuracy === null || accuracy === undefined ? null : 1 - accuracy;
}

export async function readConsensusFile(file: string): Promise<ConsensusLabel[]> {
  const labels: ConsensusLabel[] = [];
  for await (const { record } of readRecords(file, 'consensus')) labels.push(record);
  return labels;
}

export async function batchConsensus(ctx: PipelineContext, batch: string): Promise<ConsensusLabel[]> {
  const rows = await visibleRecords(ctx, 'consensus', batch);
  return rows.flatMap((r) => (r.label ? [{ query_id: r.queryId, chunk_id: r.chunkId, label: r.label, dataset: r.dataset }] : []));
}

function refuseOverwritingInput(out: string, inputs: ReadonlyArray<[string, string | undefined]>): void {
  for (const [option, file] of inputs) {
    if (file !== undefined && resolve(file) === resolve(out)) {
      throw new UserError(`--out ${out} is the ${option} file: write the merged qrels to another file (the inputs are never overwritten)`);
    }
  }
}

export async function exportQrels(ctx: PipelineContext, opts: ExportQrelsOptions): Promise<ExportQrelsResult> {
  refuseOverwritingInput(opts.out, [
    ['--base', opts.base],
    ['--consensus', opts.consensus],
  ]);
  const format = opts.format ?? outputFormatFor(opts.out);
  const aggregate = decideAggregate(opts.aggregate, await recordedAggregateChoice(ctx.models.batches.db, opts.batch));
  const human = await loadHumanLabels(ctx, opts.batch, aggregatorOfShortName(aggregate.aggregate));
  const base = await readQrels(opts.base, opts.baseFormat ? { format: opts.baseFormat } : {});
  const fromFile = opts.consensus !== undefined ? await readConsensusFile(opts.consensus) : null;
  const fromBatch = await batchConsensus(ctx, opts.batch);
  const merged = mergeQrels({ base: base.qrels, consensus: [...fromBatch, ...(fromFile ?? [])], human: human.labels });
  const model = opts.posterior ? await batchPosteriorModel(ctx, opts.batch, forecastLabelError(aggregate)) : null;
  const written = await writeQrels(opts.out, model ? withPosteriors(merged.entries, model) : merged.entries, format);

  const simulated = (await ctx.models.batches.findById(opts.batch, { simulated: 1 }).lean())?.simulated === true;
  const result: ExportQrelsResult = {
    batch: opts.batch,
    ...(simulated && { simulated: true as const }),
    base: { file: opts.base, format: base.format, pairs: base.pairs },
    consensus: { fromBatch: fromBatch.length, fromFile: fromFile?.length ?? null, file: opts.consensus ?? null },
    human: { labels: human.labels.length, unresolved: human.unresolved },
    aggregate,
    out: { file: opts.out, format, pairs: written.pairs },
    holesFound: holesFound(base.qrels, human.labels),
    summary: merged.summary,
    ...(model && {
      posterior: {
        gold: model.gold,
        agreementError: model.agreementError,
        voteError: model.voteError,
        labelError: model.labelError ?? null,
        consensusConfidence: CONSENSUS_CONFIDENCE,
        adjudicatorConfidence: ADJUDICATOR_CONFIDENCE,
      },
    }),
  };
  await qrelsExportModel(ctx.models.batches.db).updateOne(
    { _id: opts.batch },
    {
      $set: {
        base: resolve(opts.base),
        baseFormat: base.format,
        consensusFile: opts.consensus !== undefined ? resolve(opts.consensus) : null,
        out: resolve(opts.out),
        format,
        exportedAt: ctx.now(),
        labels: human.labels.length,
        unresolved: human.unresolved.length,
        holesFound: result.holesFound,
        holesFilled: merged.summary.overall.holesFilled,
        flips: merged.summary.overall.flips,
        conflicts: merged.summary.conflicts.length,
      },
    },
    { upsert: true },
  );
  return result;
}
