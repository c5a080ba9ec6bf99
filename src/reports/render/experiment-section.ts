import type { Difference, Estimate, ExperimentSummary } from '../../experiment/compare.js';
import type { Section } from './blocks.js';
import { DASH } from './format.js';

/**
 * The report's "Debate experiment" section (present when the batch runs it: `qrelay publish
 * --experiment debate`, docs/experiment.md): per arm the workers, items, balanced accuracy on
 * the checks, Fleiss κ and seconds per item with their 95% intervals, then the difference
 * (debate minus no-debate) with its interval and p-value.
 */

type Format = (x: number) => string;
const pct: Format = (x) => `${(x * 100).toFixed(1)}%`;
const pts: Format = (x) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
const k: Format = (x) => x.toFixed(3);
const signedK: Format = (x) => `${x > 0 ? '+' : ''}${x.toFixed(3)}`;
const s: Format = (x) => `${x.toFixed(1)} s`;
const signedS: Format = (x) => `${x > 0 ? '+' : ''}${x.toFixed(1)} s`;

const value = (e: Estimate, f: Format) => (e.value === null ? DASH : f(e.value));
const range = (e: Estimate, f: Format) => (e.low === null || e.high === null ? DASH : `[${f(e.low)}, ${f(e.high)}]`);
const pValue = (d: Difference) => (d.p === null ? DASH : d.p < 0.001 ? d.p.toExponential(1) : d.p.toFixed(3));

export function experimentSection(x: ExperimentSummary): Section {
  const [debate, noDebate] = x.arms;
  const rows: [string, Format, Format, (a: (typeof x.arms)[number]) => Estimate, Difference][] = [
    ['balanced accuracy on the checks', pct, pts, (a) => a.balancedAccuracy, x.difference.balancedAccuracy],
    ["Fleiss' κ", k, signedK, (a) => a.kappa, x.difference.kappa],
    ['seconds per item', s, signedS, (a) => a.secondsPerItem, x.difference.secondsPerItem],
  ];
  return {
    id: 'experiment',
    title: 'Debate experiment',
    blocks: [
      {
        kind: 'text',
        text:
          'Each worker was assigned at random, in order of arrival, to pages with the debate or without it (between-subjects; docs/experiment.md). ' +
          `Workers: ${debate?.workers ?? 0} with the debate, ${noDebate?.workers ?? 0} without. ` +
          `Intervals are 95%, bootstrapped over workers; p: ${x.difference.kappa.test}.`,
      },
      {
        kind: 'table',
        table: {
          caption: 'Per arm, and the difference (debate minus no-debate)',
          head: ['', 'debate', '95% interval', 'no debate', '95% interval', 'difference', '95% interval', 'p'],
          numeric: [false, true, true, true, true, true, true, true],
          rows: rows.map(([name, f, df, of, d]) => ({
            cells: [
              name,
              debate ? value(of(debate), f) : DASH,
              debate ? range(of(debate), f) : DASH,
              noDebate ? value(of(noDebate), f) : DASH,
              noDebate ? range(of(noDebate), f) : DASH,
              value(d, df),
              range(d, df),
              pValue(d),
            ],
            strong: false,
          })),
        },
      },
    ],
    subsections: [],
  };
}
