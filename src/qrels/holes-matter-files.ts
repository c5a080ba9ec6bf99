import { UserError } from '../errors.js';
import { evaluateFiles } from './evaluate-files.js';
import { changedComparisons } from './holes-comparisons.js';
import { holesMattered, type HolesMattered } from './holes-matter.js';
import type { Posterior } from './label-draws.js';
import { parseMeasure } from './measure-names.js';
import { DEFAULT_SIGNIFICANCE } from './significance.js';

/** The report's "did the holes matter" section from files: runs under the base and the adjudicated qrels. */
export interface HolesMatteredFiles {
  base: string;
  next: string;
  runs: readonly string[];
  /** The measure compared, default nDCG@10. */
  measure?: string;
  /** P(relevant) of the adjudicated qrels' labels (the model of export-qrels --posterior); `file` names it in errors. */
  posterior?: { file: string; posterior: Posterior };
  /** The batch's cost per adjudicated label, in cents (what re-judging a label costs); null when unknown. */
  costPerLabel?: number | null;
}

export const HOLES_JUDGED_MEASURE = 'Judged@10';

export async function holesMatteredFromFiles(input: HolesMatteredFiles): Promise<HolesMattered> {
  if (input.runs.length === 0) throw new UserError('give at least one run file to compare under the base and the adjudicated qrels');
  const measure = parseMeasure(input.measure ?? 'nDCG@10');
  if (measure.name === 'Hole')
    throw new UserError(`measure ${measure.id} has no value before the adjudication; choose another, e.g. nDCG@10`);
  const measures = measure.id === HOLES_JUDGED_MEASURE ? [measure] : [measure, parseMeasure(HOLES_JUDGED_MEASURE)];
  const { report, significance, context, evaluations } = await evaluateFiles({
    base: input.base,
    next: input.next,
    runs: input.runs,
    measures,
    significance: DEFAULT_SIGNIFICANCE,
    ...(input.posterior && { posteriorOf: input.posterior, labelEffects: true }),
  });
  const costPerLabel = input.costPerLabel ?? null;
  const { comparisons, toSettle } = changedComparisons({
    ctx: context,
    evaluations,
    significance: significance!,
    options: DEFAULT_SIGNIFICANCE,
    measure: measure.id,
    costPerLabel,
  });
  return holesMattered(report, significance!, measure.id, HOLES_JUDGED_MEASURE, {
    comparisons,
    toSettle,
    costPerLabel,
    labelPosteriors: input.posterior !== undefined,
  });
}
