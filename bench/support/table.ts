/**
 * The benchmarks' common table: each figure, the peer's figure measured in the same run
 * (or the target it is held to), and their ratio; a target of 0 or below (none of
 * something, at least −1 point from an optimum) has no ratio worth reading, and its row
 * shows the figure less the target instead. A bench prints its rows; under
 * `npm run bench` it also appends them to the file named by QRELAY_BENCH_ROWS, from
 * which bench/run-all.ts prints the whole run's table at the end.
 */
import { appendFileSync } from 'node:fs';

export interface BenchRow {
  figure: string;
  ours: number;
  peer: string;
  theirs: number;
  unit: string;
  /** How to read the ratio ours/theirs: `lower` (time, memory) or `higher` (throughput) is better. */
  better: 'lower' | 'higher';
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));

/** The row's peer is a target it is held to (the rows of bench/quality.ts, quality-matrix.ts, ...). */
export const TARGET_PEER = 'target';

/**
 * How the row's figure compares with its peer's: the ratio, or for a target of 0 or below
 * the difference (a ratio to 0 is undefined, and to a negative bound it reads backwards).
 */
export function comparison(r: BenchRow): string {
  if (r.peer === TARGET_PEER && r.theirs <= 0) {
    const d = r.ours - r.theirs;
    // −0.00 and +0.00 read as the same: 0 is 0
    const sign = Math.abs(d) < 0.005 ? '' : d > 0 ? '+' : '-';
    return `${sign}${fmt(Math.abs(d))}${r.unit === '' ? '' : ` ${r.unit}`} from the target (${r.better} is better)`;
  }
  return r.theirs === 0 ? 'n/a' : `${(r.ours / r.theirs).toFixed(2)}× (${r.better} is better)`;
}

export function formatRows(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [r.figure, `${fmt(r.ours)} ${r.unit}`, r.peer, `${fmt(r.theirs)} ${r.unit}`, comparison(r)]);
  const head = ['figure', 'qrelay', 'peer', 'peer figure', 'ratio qrelay/peer (or qrelay − target)'];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

export function reportRows(rows: readonly BenchRow[]): void {
  process.stdout.write(`${formatRows(rows)}\n`);
  const file = process.env.QRELAY_BENCH_ROWS;
  if (file) appendFileSync(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
}

/** The q-quantile (0..1) of unsorted values, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
