import type { EvaluationReport } from './evaluate.js';
import type { ChangedComparison, ChangedComparisons } from './holes-comparisons.js';
import type { SignificanceReport } from './significance.js';
import type { Interval } from './statistics.js';
import { SIGNIFICANCE_LEVEL } from './significance.js';

/**
 * "Did the holes matter?" (pure): for one measure, per run, the judged share of its top
 * ranks and the measure before (base qrels) and after (adjudicated qrels) with the
 * bootstrap interval of the change, its rank before and after; and every pair of runs
 * whose order the adjudication swapped, with whether the new difference is significant
 * (Holm-adjusted paired t-test p < 0.05 under the new qrels).
 */

export interface HolesMatteredRun {
  system: string;
  judgedBefore: number;
  judgedAfter: number;
  before: number;
  after: number;
  /** after − before, with its 95% bootstrap interval (null without samples). */
  difference: number;
  interval: Interval | null;
  rankBefore: number;
  rankAfter: number;
  /** rankBefore − rankAfter: positive when the run moved up. */
  rankChange: number;
}

export interface SwappedPair {
  /** The run ranked above after the adjudication, and the one it passed. */
  above: string;
  below: string;
  /** mean(above) − mean(below) under the new qrels. */
  difference: number;
  pHolm: number | null;
  significant: boolean;
}

export interface HolesMattered {
  measure: string;
  judgedMeasure: string;
  runs: HolesMatteredRun[];
  kendallTau: number | null;
  kendallTauInterval: Interval | null;
  kendallTauAP: number | null;
  kendallTauAPInterval: Interval | null;
  swapped: SwappedPair[];
  /**
   * Every pair of runs whose order or significance the adjudication changed, with the
   * labels' doubt (holes-comparisons.ts); empty when no run was compared.
   */
  comparisons: ChangedComparison[];
  /** The labels that would settle every comparison that depends on them, each counted once, and their cost (cents; null when unknown). */
  toSettle: ChangedComparisons['toSettle'];
  /** The batch's cost per adjudicated label (cents) the comparisons' costs use; null when unknown. */
  costPerLabel: number | null;
  /** Whether the labels' posteriors were known (pFlip, withLabels and the verdicts are null without them). */
  labelPosteriors: boolean;
}

export function holesMattered(
  report: EvaluationReport,
  significance: SignificanceReport,
  measure: string,
  judgedMeasure: string,
  labels: Pick<HolesMattered, 'comparisons' | 'toSettle' | 'costPerLabel' | 'labelPosteriors'> = {
    comparisons: [],
    toSettle: { labels: 0, cost: null },
    costPerLabel: null,
    labelPosteriors: false,
  },
): HolesMattered {
  const main = report.measures.find((m) => m.measure === measure);
  const judged = report.measures.find((m) => m.measure === judgedMeasure);
  if (!main || !judged) throw new Error(`holesMattered: ${measure} and ${judgedMeasure} must both have been evaluated`);
  const tau = significance.rankCorrelation.find((r) => r.measure === measure);
  const runs = main.systems.map((s): HolesMatteredRun => {
    const j = judged.systems.find((x) => x.system === s.system)!;
    return {
      system: s.system,
      judgedBefore: j.base ?? 0,
      judgedAfter: j.new,
      before: s.base ?? 0,
      after: s.new,
      difference: s.new - (s.base ?? 0),
      interval: significance.changes.find((c) => c.measure === measure && c.system === s.system)?.interval ?? null,
      rankBefore: s.rankBase ?? s.rankNew,
      rankAfter: s.rankNew,
      rankChange: s.rankChange ?? 0,
    };
  });
  const swapped: SwappedPair[] = [];
  for (const pair of significance.significance) {
    if (pair.measure !== measure || pair.qrels !== 'new') continue;
    const a = runs.find((r) => r.system === pair.a)!;
    const b = runs.find((r) => r.system === pair.b)!;
    const flipped = Math.sign(a.rankBefore - b.rankBefore) !== Math.sign(a.rankAfter - b.rankAfter);
    if (!flipped || a.rankAfter === b.rankAfter) continue;
    const aAbove = a.rankAfter < b.rankAfter;
    swapped.push({
      above: aAbove ? a.system : b.system,
      below: aAbove ? b.system : a.system,
      difference: aAbove ? pair.meanDifference : -pair.meanDifference,
      pHolm: pair.pHolm,
      significant: pair.pHolm !== null && pair.pHolm < SIGNIFICANCE_LEVEL,
    });
  }
  return {
    measure,
    judgedMeasure,
    runs,
    kendallTau: main.kendallTau,
    kendallTauInterval: tau?.kendallTau ?? null,
    kendallTauAP: main.kendallTauAP,
    kendallTauAPInterval: tau?.kendallTauAP ?? null,
    swapped,
    ...labels,
  };
}
