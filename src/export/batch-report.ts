import { existsSync } from 'node:fs';
import type { BatchData } from '../batches/index.js';
import type { EscalatedCase } from '../domain/cases.js';
import { UserError } from '../errors.js';
import type { PipelineContext } from '../pipeline/context.js';
import { reportGeneratedAt, reportInputFor, reportManualLabels } from '../pipeline/report-input.js';
import { holesMatteredFromFiles, readQrels } from '../qrels/index.js';
import { buildReport, manualDecisions, type Report } from '../reports/index.js';
import { holesFound } from './human-labels.js';
import { batchLabelPosterior } from './label-posterior.js';
import { loadHumanLabels } from './load-labels.js';
import { qrelsExportModel } from './store.js';

/**
 * The report of a batch from the database (`qrelay report`, the report route, the demo).
 *
 * `holesFound` (and so `cost.perHole`) needs the base qrels: the file given (`--base`),
 * else the base of the batch's last `export-qrels`, read again so that the count follows
 * the current labels; null when neither is known or that file is gone.
 */

export interface BatchReport {
  report: Report;
  /** The base qrels the holes were counted against, or null. */
  holesBase: string | null;
}

async function baseFor(ctx: PipelineContext, batch: string, given: string | undefined): Promise<string | null> {
  if (given !== undefined) return given;
  const last = await qrelsExportModel(ctx.models.batches.db).findById(batch).lean();
  return last && existsSync(last.base) ? last.base : null;
}

export interface BatchReportOptions {
  base?: string;
  /** Runs for the "did the holes matter" section, compared under the base and the adjudicated qrels. */
  runs?: readonly string[];
  /** The adjudicated qrels for that section; default the output of the batch's last export-qrels. */
  adjudicated?: string;
  /** The section's measure (default nDCG@10). */
  measure?: string;
  /** The batch's cases by item id, when the caller holds them (a simulation): not read again. */
  cases?: ReadonlyMap<string, EscalatedCase>;
  /** The batch's HITs and assignments, when the caller holds them as stored (a simulation's last round): not read again. */
  data?: BatchData;
}

async function adjudicatedFor(ctx: PipelineContext, batch: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const last = await qrelsExportModel(ctx.models.batches.db).findById(batch).lean();
  if (!last || !existsSync(last.out))
    throw new UserError(`batch ${batch}: no adjudicated qrels to compare the runs under; run export-qrels first, or give the file`);
  return last.out;
}

export async function batchReport(ctx: PipelineContext, batch: string, opts: BatchReportOptions = {}): Promise<BatchReport> {
  const { input, options } = await reportInputFor(ctx, batch, opts.cases, opts.data);
  const base = await baseFor(ctx, batch, opts.base);
  let holes: number | null = null;
  if (base !== null) {
    const [qrels, human] = await Promise.all([readQrels(base), loadHumanLabels(ctx, batch)]);
    holes = holesFound(qrels.qrels, human.labels);
  }
  const report = buildReport({ ...input, holesFound: holes }, options);
  const simulated = (await ctx.models.batches.findById(batch, { simulated: 1 }).lean())?.simulated === true;
  const marked: Report = simulated ? { ...report, simulated: true as const } : report;
  if (!opts.runs || opts.runs.length === 0) return { report: marked, holesBase: base };
  if (base === null) throw new UserError(`batch ${batch}: no base qrels to compare the runs under; give the base qrels file`);
  const next = await adjudicatedFor(ctx, batch, opts.adjudicated);
  // the labels' doubt of the adjudicated qrels, from the batch's own worker model (export-qrels --posterior)
  const posterior = await batchLabelPosterior(ctx, batch, base, (await readQrels(next)).qrels);
  const section = await holesMatteredFromFiles({
    base,
    next,
    runs: opts.runs,
    ...(opts.measure !== undefined && { measure: opts.measure }),
    posterior: { file: `the labels of batch ${batch}`, posterior },
    costPerLabel: report.cost.perLabel,
  });
  return { report: { ...marked, holesMattered: section }, holesBase: base };
}

/**
 * A report of this batch brought up to date with its decisions taken by hand, read anew,
 * and generated now: all that such a decision changes when the report counts no holes
 * (`holesBase` null; holes found follow the manual labels). The API's report stays with
 * the crowd's part computed once per change of the votes (src/api/answers.ts).
 */
export async function withCurrentManualLabels(ctx: PipelineContext, batch: string, report: Report): Promise<Report> {
  const labels = await reportManualLabels(ctx, batch);
  return { ...report, generatedAt: reportGeneratedAt(ctx), manualDecisions: manualDecisions(labels, report.itemRows) };
}
