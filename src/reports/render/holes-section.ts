import type { ChangedComparison, HolesMattered } from '../../qrels/index.js';
import type { Block, Section } from './blocks.js';
import { count, DASH, decimal, percent, usd } from './format.js';

/**
 * The report's "Did the holes matter?" section (present when the report was made with
 * runs: `qrelay report --runs`): per run the judged share before and after, the measure
 * before and after with the 95% interval of the change, the rank change, the swaps of
 * the runs' order with their significance, and every comparison whose order or
 * significance changed with the labels' doubt and what re-judging labels would settle.
 */

const signed = (v: number) => (v > 0 ? `+${v.toFixed(3)}` : v.toFixed(3));
const interval = (i: { low: number; high: number } | null) => (i ? `[${signed(i.low)}, ${signed(i.high)}]` : DASH);
const rank = (before: number, after: number, change: number) =>
  `${before} → ${after}${change === 0 ? '' : ` (${change > 0 ? '+' : ''}${change})`}`;
const pValue = (p: number | null) => (p === null ? DASH : p < 0.001 ? p.toExponential(1) : p.toFixed(3));

export function holesSection(h: HolesMattered): Section {
  const blocks: Block[] = [
    {
      kind: 'text',
      text: `${h.measure} and ${h.judgedMeasure} of each run under the base qrels (before) and the qrels with the adjudicated labels (after). Intervals: 95% bootstrap over queries.`,
    },
    {
      kind: 'table',
      table: {
        caption: `${h.measure} before and after, per run`,
        head: [
          'run',
          `${h.judgedMeasure} before`,
          `${h.judgedMeasure} after`,
          `${h.measure} before`,
          `${h.measure} after`,
          'change',
          'change 95% interval',
          'rank before → after',
        ],
        numeric: [false, true, true, true, true, true, true, true],
        rows: h.runs.map((r) => ({
          strong: false,
          cells: [
            r.system,
            percent(r.judgedBefore),
            percent(r.judgedAfter),
            decimal(r.before, 4),
            decimal(r.after, 4),
            signed(r.difference),
            interval(r.interval),
            rank(r.rankBefore, r.rankAfter, r.rankChange),
          ],
        })),
      },
    },
    {
      kind: 'text',
      text: `Order of the runs, before vs after: Kendall τ-b ${decimal(h.kendallTau)} (95% interval ${interval(h.kendallTauInterval)}), τ_AP ${decimal(h.kendallTauAP)} (${interval(h.kendallTauAPInterval)}).`,
    },
  ];
  if (h.swapped.length === 0) {
    blocks.push({ kind: 'text', text: 'The adjudication swapped no pair of runs.' });
  } else {
    const significant = h.swapped.filter((s) => s.significant).length;
    blocks.push({
      kind: 'table',
      table: {
        caption: `Pairs of runs the adjudication swapped: ${significant} of ${h.swapped.length} significant after it (paired t-test, Holm p < 0.05)`,
        head: ['now above', 'now below', 'difference after', 'Holm p', 'significant'],
        numeric: [false, false, true, true, false],
        rows: h.swapped.map((s) => ({
          strong: false,
          cells: [s.above, s.below, signed(s.difference), pValue(s.pHolm), s.significant ? 'yes' : 'no'],
        })),
      },
    });
  }
  blocks.push(...comparisonBlocks(h));
  return { id: 'holes-mattered', title: 'Did the holes matter?', blocks, subsections: [] };
}

const CHANGE: Record<string, string> = {
  'true,false,true': 'order swapped, now significant',
  'true,true,false': 'order swapped, no longer significant',
  'true,true,true': 'order swapped',
  'true,false,false': 'order swapped',
  'false,false,true': 'now significant',
  'false,true,false': 'no longer significant',
};
const changeOf = (c: ChangedComparison) => CHANGE[`${c.orderChanged},${c.significantBefore},${c.significantAfter}`] ?? DASH;
const labelsOf = (n: number) => `${count(n)} label${n === 1 ? '' : 's'}`;

/** The comparisons whose order or significance changed: the labels' doubt, the verdict, and the labels that would settle them. */
function comparisonBlocks(h: HolesMattered): Block[] {
  if (h.comparisons.length === 0) return [{ kind: 'text', text: 'No comparison of two runs changed its order or its significance.' }];
  const depending = h.comparisons.filter((c) => c.verdict === 'depends on the labels');
  const blocks: Block[] = [
    {
      kind: 'text',
      text: `Comparisons whose order or significance (Holm-adjusted p below 0.05) changed: the difference of ${h.measure} after, its 95% interval over queries and with the labels' doubt (the batch's own label posteriors, as export-qrels --posterior gives them), pFlip (the share of label draws that reverse the order) and the verdict: settled when pFlip is below 5%, else it depends on the labels.`,
    },
    {
      kind: 'table',
      table: {
        caption: `Comparisons whose order or significance changed (${h.measure} after; intervals 95%: over queries, and with the labels' doubt)`,
        head: [
          'ahead after',
          'compared with',
          'what changed',
          'difference after',
          'interval (queries)',
          'interval (with the labels)',
          'pFlip',
          'verdict',
          'labels to settle',
          'cost to settle',
        ],
        numeric: [false, false, false, true, true, true, true, false, true, true],
        rows: h.comparisons.map((c) => ({
          strong: false,
          cells: [
            c.above,
            c.below,
            changeOf(c),
            signed(c.difference),
            interval(c.interval),
            interval(c.withLabels),
            percent(c.pFlip),
            c.verdict ?? DASH,
            c.settle ? count(c.settle.labels) : DASH,
            c.settle ? usd(c.settle.cost) : DASH,
          ],
        })),
      },
    },
  ];
  if (!h.labelPosteriors) {
    blocks.push({ kind: 'text', text: "The labels' posteriors were not known: no pFlip, interval with the labels' doubt or verdict." });
    return blocks;
  }
  const perLabel = h.costPerLabel === null ? 'the batch has no cost per label yet' : `${usd(h.costPerLabel)} per label`;
  blocks.push({
    kind: 'text',
    text:
      depending.length === 0
        ? `Every one of these ${h.comparisons.length} comparisons is settled: the labels' doubt turns none in 5% of the draws (pFlip below 5%).`
        : `${depending.length} of ${h.comparisons.length} comparisons depend on the labels (pFlip of 5% or more). Re-judging ${labelsOf(h.toSettle.labels)} (each counted once; ${usd(h.toSettle.cost)} at ${perLabel}) would be expected to settle them: for each, the fewest labels, most influential first, after whose re-judgment less than 5% doubt about the order is expected to remain. A re-judgment is taken as final, so the count is a floor (docs/evaluation.md).`,
  });
  const named = depending.flatMap((c) =>
    (c.settle?.first ?? []).map((l) => ({
      strong: false,
      cells: [`${c.above} vs ${c.below}`, l.query, l.doc, decimal(l.p), String(l.grade)],
    })),
  );
  if (named.length > 0)
    blocks.push({
      kind: 'table',
      table: {
        caption: 'Labels to re-judge first, per comparison that depends on the labels (most influential first)',
        head: ['comparison', 'query', 'document', 'p_relevant', 'grade'],
        numeric: [false, false, false, true, true],
        rows: named,
      },
    });
  return blocks;
}
