/**
 * Reports at BRIDGE scale: prints figures, asserts nothing.
 *   node --import tsx bench/reports.ts [items=4056]
 * Builds the report of a simulated batch (9 real items + 1 check per HIT, 3 workers per
 * item plus extra assignments for discarded work) and renders every format.
 */
import { buildReport, renderReport, type ReportFormat } from '../src/reports/index.js';
import { simulatedBatch } from '../test/reports/fixtures.js';

const [items = 4056] = process.argv.slice(2).map(Number);
const input = simulatedBatch({ items, workers: Array.from({ length: 60 }, (_, i) => `W${String(i).padStart(3, '0')}`) });
console.log(
  `input: ${input.items.length} items, ${input.hits.length} HITs, ${input.assignments.length} assignments, ${input.assignments.reduce((n, a) => n + a.answers.length, 0)} answers`,
);

const time = <T>(what: string, run: () => T): T => {
  run(); // warm-up
  const runs = 5;
  const t0 = performance.now();
  let out!: T;
  for (let i = 0; i < runs; i++) out = run();
  console.log(`${what}: ${((performance.now() - t0) / runs).toFixed(1)} ms`);
  return out;
};

const report = time('buildReport', () => buildReport(input));
for (const [format, table] of [['json'], ['md'], ['html'], ['csv', 'workers'], ['csv', 'items']] as [
  ReportFormat,
  ('workers' | 'items')?,
][]) {
  const text = time(`render ${format}${table ? ` (${table})` : ''}`, () => renderReport(report, format, table ? { table } : {}));
  console.log(`  ${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB`);
}
console.log(
  `report: ${report.votes} valid votes, ${report.labels} labels, κ ${report.fleissKappa?.toFixed(3)}, total $${(report.cost.total / 100).toFixed(2)}, per label $${((report.cost.perLabel ?? 0) / 100).toFixed(2)}`,
);
