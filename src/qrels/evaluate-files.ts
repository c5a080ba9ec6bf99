import { basename } from 'node:path';
import { UserError } from '../errors.js';
import { collectGarbage } from './collect-garbage.js';
import {
  compareSystems,
  evaluateSystem,
  evaluationContext,
  type EvaluationContext,
  type EvaluationReport,
  type SystemEvaluation,
} from './evaluate.js';
import type { Measure } from './measure-names.js';
import { prepareLabelDraws, type Posterior } from './label-draws.js';
import { readPosterior, readQrels, readRun } from './read.js';
import type { EvaluationInputs, QrelsInfo, RunInfo } from './render.js';
import { significanceReport, subSeed, type SignificanceOptions, type SignificanceReport } from './significance.js';
import { countJudgments, type Qrels, type QrelsFormat } from './types.js';

/**
 * Runs evaluated from files under base and new qrels (`qrelay evaluate`, the demo, the
 * report): the file adapter around evaluate.ts. Runs are read one at a time and only
 * their per-query values are kept, so memory holds one run whatever their number.
 */

async function loadQrels(file: string, format: QrelsFormat | undefined, relLevel: number): Promise<{ info: QrelsInfo; qrels: Qrels }> {
  const parsed = await readQrels(file, format ? { format } : {});
  const counts = countJudgments(parsed.qrels, relLevel);
  if (counts.judgments === 0) throw new UserError(`${file}: no judgments found; check that this is a qrels file`);
  return { qrels: parsed.qrels, info: { file, format: parsed.format, ...counts } };
}

/** System names: the run files' base names, or the paths as given when two names clash. */
export function systemNames(files: readonly string[]): string[] {
  const repeated = files.find((f, i) => files.indexOf(f) !== i);
  if (repeated !== undefined) throw new UserError(`the run file ${repeated} is given twice; give each run once`);
  const names = files.map((f) => basename(f));
  return new Set(names).size === names.length ? names : [...files];
}

/** A function of its own so that the run is garbage once it returns. */
async function evaluateRunFile(
  ctx: EvaluationContext,
  file: string,
  system: string,
): Promise<{ info: RunInfo; evaluation: SystemEvaluation }> {
  const run = await readRun(file);
  if (run.documents === 0) throw new UserError(`${file}: no ranked documents; check that this is a TREC run file`);
  return {
    info: { system, file, tags: run.tags, queries: run.run.size, documents: run.documents },
    evaluation: evaluateSystem(ctx, { name: system, run: run.run }),
  };
}

export interface EvaluateFilesInput {
  base: string;
  next: string;
  runs: readonly string[];
  measures: readonly Measure[];
  /** Read both qrels as this format instead of detecting it. */
  qrelsFormat?: QrelsFormat;
  /** Relevance level of binary measures without rel=N (default 1). */
  relLevel?: number;
  /** Significance tests and intervals; left out: none computed. */
  significance?: SignificanceOptions;
  /** `p_relevant` of the new qrels' pairs (export-qrels --posterior): intervals and pFlip also carry the labels' doubt. Needs `significance`. */
  posterior?: string;
  /** The same, already read (`file` names it in errors), e.g. computed from a batch. */
  posteriorOf?: { file: string; posterior: Posterior };
  /** With a posterior: also each label's effect alone on every run (SystemEvaluation.labelEffects). */
  labelEffects?: boolean;
}

/** Label draws when the bootstrap draws none (`--bootstrap-samples 0`): pFlip still needs them. */
const LABEL_DRAWS_WITHOUT_SAMPLES = 1000;

export interface EvaluateFilesResult {
  inputs: EvaluationInputs;
  report: EvaluationReport;
  /** Null unless `significance` was asked. */
  significance: SignificanceReport | null;
  /** What the report was computed from: the qrels prepared and each run's values. */
  context: EvaluationContext;
  evaluations: SystemEvaluation[];
}

export async function evaluateFiles(input: EvaluateFilesInput): Promise<EvaluateFilesResult> {
  const relLevel = input.relLevel ?? 1;
  const base = await loadQrels(input.base, input.qrelsFormat, relLevel);
  const next = await loadQrels(input.next, input.qrelsFormat, relLevel);
  const ctx = evaluationContext(base.qrels, next.qrels, input.measures, relLevel);
  if (input.posterior !== undefined || input.posteriorOf !== undefined) {
    const options = input.significance;
    if (!options) throw new UserError('--posterior needs the significance tests and intervals: drop --no-significance and --per-query');
    const posterior =
      input.posterior !== undefined ? { file: input.posterior, posterior: await readPosterior(input.posterior) } : input.posteriorOf!;
    if (input.labelEffects) ctx.labelEffects = true;
    ctx.labels = prepareLabelDraws(posterior.file, next.qrels, posterior.posterior, ctx.queryIds, {
      draws: options.samples > 0 ? options.samples : LABEL_DRAWS_WITHOUT_SAMPLES,
      seed: subSeed(options.seed, -2),
      samples: options.samples,
      resampleSeed: subSeed(options.seed, -1),
    });
  }
  const names = systemNames(input.runs);
  const runs: RunInfo[] = [];
  const evaluations: SystemEvaluation[] = [];
  for (const [i, file] of input.runs.entries()) {
    const { info, evaluation } = await evaluateRunFile(ctx, file, names[i]!);
    runs.push(info);
    evaluations.push(evaluation);
    collectGarbage();
  }
  return {
    inputs: { qrels: { base: base.info, new: next.info }, runs },
    report: compareSystems(ctx, evaluations),
    significance: input.significance ? significanceReport(ctx, evaluations, input.significance) : null,
    context: ctx,
    evaluations,
  };
}
