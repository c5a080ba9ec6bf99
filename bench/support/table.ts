/**
 * The benchmarks' common table: each figure, the peer's figure measured in the same run
 * (or the target it is held to), and their ratio. A bench prints its rows; under
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

export function formatRows(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [
    r.figure,
    `${fmt(r.ours)} ${r.unit}`,
    r.peer,
    `${fmt(r.theirs)} ${r.unit}`,
    r.theirs === 0 ? 'n/a' : `${(r.ours / r.theirs).toFixed(2)}× (${r.better} is better)`,
  ]);
  const head = ['figure', 'qrelay', 'peer', 'peer figure', 'ratio qrelay/peer'];
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
