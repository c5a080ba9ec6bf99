/**
 * `npm run bench`: every benchmark, one after another, each in its own process so that
 * memory figures are its own. Figures are printed, nothing is asserted. Benches that
 * compare with a peer or a target (bench/support/table.ts) add rows to one table, printed
 * at the end: figure, peer's figure from the same run, ratio. The table, the machine and
 * which benchmarks ran are written to docs/performance.md (bench/support/performance-doc.ts).
 *   npm run bench                        # all, at the default (quick) sizes
 *   npm run bench -- marketplace         # those whose name contains "marketplace"
 *   npm run bench -- --scale paper       # the paper's sizes (DREAM: 116,622 records, 4,056 cases)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paths } from '../src/paths.js';
import { currentCommit, loadNow, PERFORMANCE_DOC, renderPerformance, thisMachine, type BenchOutcome } from './support/performance-doc.js';
import { formatRows, type BenchRow } from './support/table.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
const scale = scaleAt >= 0 ? args[scaleAt + 1] : undefined;
if (scale !== undefined && scale !== 'paper') {
  process.stderr.write(`bench: --scale ${scale ?? ''}: the only scale is paper (the default sizes are quick)\n`);
  process.exit(2);
}
const filters = args.filter((_, i) => scaleAt < 0 || (i !== scaleAt && i !== scaleAt + 1));
const rowsDir = mkdtempSync(join(tmpdir(), 'qrelay-bench-rows-'));
const rowsFile = join(rowsDir, 'rows.jsonl');
const allBenches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('.'))
  .sort();
const benches = allBenches.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));

const loadAtStart = loadNow();
let failed = 0;
const outcomes = new Map<string, BenchOutcome>();
for (const file of benches) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const started = Date.now();
  const env = { ...process.env, QRELAY_BENCH_ROWS: rowsFile, ...(scale && { QRELAY_BENCH_SCALE: scale }) };
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit', env });
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`=== ${file}: ${res.status === 0 ? 'done' : `FAILED (exit ${res.status})`} in ${seconds.toFixed(1)} s ===\n`);
  // killed by a signal: no exit code, still a failure
  outcomes.set(file, { file, exitCode: res.status ?? 1, seconds });
  if (res.status !== 0) failed++;
}
const rows = existsSync(rowsFile)
  ? readFileSync(rowsFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as BenchRow)
  : [];
if (rows.length)
  process.stdout.write(`\n=== figures against their peers (same run${scale ? `, scale ${scale}` : ''}) ===\n${formatRows(rows)}\n`);
writeFileSync(
  join(paths.root, PERFORMANCE_DOC),
  renderPerformance({
    rows,
    benches: allBenches.map((file) => outcomes.get(file) ?? { file, exitCode: null, seconds: null }),
    machine: thisMachine(loadAtStart),
    args,
    commit: currentCommit(paths.root),
    finishedAt: new Date(),
  }),
);
process.stdout.write(`\nwritten: ${PERFORMANCE_DOC}\n`);
rmSync(rowsDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
