import type { HolesMattered } from '../../qrels/index.js';
import type { Block, Section } from './blocks.js';
import { DASH, decimal, percent } from './format.js';

/**
 * The report's "Did the holes matter?" section (present when the report was made with
 * runs: `qrelay report --runs`): per run the judged share before and after, the measure
 * before and after with the 95% interval of the change, the rank change, and the swaps of
 * the runs' order with their significance.
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
  return { id: 'holes-mattered', title: 'Did the holes matter?', blocks, subsections: [] };
}
