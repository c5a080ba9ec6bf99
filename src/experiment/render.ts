import type { Difference, Estimate, ExperimentSummary } from './compare.js';

/**
 * The debate experiment as text (pure): one row per arm with each statistic and its 95%
 * interval, then the difference (debate minus no-debate) with its interval and p-value.
 * Balanced accuracy in percent, κ to three decimals, seconds per item to one.
 */

type Format = (x: number) => string;
const percent: Format = (x) => `${(x * 100).toFixed(1)}%`;
const points: Format = (x) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)} pts`;
const kappa: Format = (x) => x.toFixed(3);
const signedKappa: Format = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
const seconds: Format = (x) => `${x.toFixed(1)} s`;
const signedSeconds: Format = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(1)} s`;

function estimate(e: Estimate, format: Format): string {
  if (e.value === null) return 'n/a';
  const range = e.low === null || e.high === null ? 'n/a' : `${format(e.low)}, ${format(e.high)}`;
  return `${format(e.value)} [${range}]`;
}

function difference(d: Difference, format: Format): string {
  return d.value === null ? 'n/a' : `${estimate(d, format)} p=${d.p === null ? 'n/a' : d.p.toFixed(3)}`;
}

export function renderExperiment(summary: ExperimentSummary): string {
  const header = ['', 'workers', 'items', 'balanced accuracy (checks)', 'Fleiss κ', 'seconds per item'];
  const rows = summary.arms.map((a) => [
    a.arm,
    String(a.workers),
    String(a.items),
    estimate(a.balancedAccuracy, percent),
    estimate(a.kappa, kappa),
    estimate(a.secondsPerItem, seconds),
  ]);
  const d = summary.difference;
  rows.push([
    'difference',
    '',
    '',
    difference(d.balancedAccuracy, points),
    difference(d.kappa, signedKappa),
    difference(d.secondsPerItem, signedSeconds),
  ]);
  const table = [header, ...rows];
  const widths = header.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(c <= 2 ? widths[c]! : 0).padEnd(widths[c]!)))
      .join('   ')
      .trimEnd();
  return [
    `experiment: the debate history (${summary.design}; 95% intervals; difference = debate minus no-debate)`,
    ...table.map(line),
    `test: ${d.kappa.test}`,
    '',
  ].join('\n');
}
