import { existsSync } from 'node:fs';
import type { PipelineContext } from '../pipeline/context.js';
import { reportInputFor } from '../pipeline/report-input.js';
import { readQrels } from '../qrels/index.js';
import { buildReport, type Report } from '../reports/index.js';
import { holesFound } from './human-labels.js';
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

export async function batchReport(ctx: PipelineContext, batch: string, opts: { base?: string } = {}): Promise<BatchReport> {
  const { input, options } = await reportInputFor(ctx, batch);
  const base = await baseFor(ctx, batch, opts.base);
  let holes: number | null = null;
  if (base !== null) {
    const [qrels, human] = await Promise.all([readQrels(base), loadHumanLabels(ctx, batch)]);
    holes = holesFound(qrels.qrels, human.labels);
  }
  const report = buildReport({ ...input, holesFound: holes }, options);
  const simulated = (await ctx.models.batches.findById(batch, { simulated: 1 }).lean())?.simulated === true;
  return { report: simulated ? { ...report, simulated: true } : report, holesBase: base };
}
