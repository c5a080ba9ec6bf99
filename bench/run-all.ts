/**
 * `npm run bench`: every benchmark, one after another, each in its own process so that
 * memory figures are its own. Figures are printed, nothing is asserted. Benches that
 * compare with a peer or a target (bench/support/table.ts) add rows to one table, printed
 * at the end: figure, peer's figure from the same run, ratio. The table, the machine and
 * which benchmarks ran are written to docs/performance.md (bench/support/performance-doc.ts),
 * each benchmark's last record at each scale kept in docs/performance-runs.json.
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
import {
  currentCommit,
  loadNow,
  mergeRecords,
  parseRecords,
  PERFORMANCE_DOC,
  PERFORMANCE_RECORDS,
  renderPerformance,
  serializeRecords,
  thisMachine,
  type BenchRecord,
} from './support/performance-doc.js';
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
const allBenches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('.'))
  .sort();
const benches = allBenches.filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
const recordsPath = join(paths.root, PERFORMANCE_RECORDS);
// read before any bench runs: a records file that does not parse stops the run before it costs anything
const earlier = parseRecords(existsSync(recordsPath) ? readFileSync(recordsPath, 'utf8') : null);

const loadAtStart = loadNow();
let failed = 0;
const records: BenchRecord[] = [];
for (const file of benches) {
  process.stdout.write(`\n=== ${file} ===\n`);
  const started = Date.now();
  const loadBefore = loadNow();
  // each bench's rows in a file of its own, so that the records say which bench measured them
  const rowsFile = join(rowsDir, `${file}.jsonl`);
  const env = { ...process.env, QRELAY_BENCH_ROWS: rowsFile, ...(scale && { QRELAY_BENCH_SCALE: scale }) };
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit', env });
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`=== ${file}: ${res.status === 0 ? 'done' : `FAILED (exit ${res.status})`} in ${seconds.toFixed(1)} s ===\n`);
  const rows = existsSync(rowsFile)
    ? readFileSync(rowsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BenchRow)
    : [];
  records.push({
    file,
    scale: scale ?? 'quick',
    // killed by a signal: no exit code, still a failure
    exitCode: res.status ?? 1,
    seconds,
    rows,
    commit: currentCommit(paths.root),
    finishedAt: new Date().toISOString(),
    load: { start: loadBefore, end: loadNow() },
  });
  if (res.status !== 0) failed++;
}
const rows = records.flatMap((r) => r.rows);
if (rows.length)
  process.stdout.write(`\n=== figures against their peers (same run${scale ? `, scale ${scale}` : ''}) ===\n${formatRows(rows)}\n`);
const merged = mergeRecords(earlier, records, allBenches);
writeFileSync(recordsPath, serializeRecords(merged));
writeFileSync(
  join(paths.root, PERFORMANCE_DOC),
  renderPerformance({
    records: merged,
    benches: allBenches,
    machine: thisMachine(loadAtStart),
    args,
    commit: currentCommit(paths.root),
    finishedAt: new Date(),
  }),
);
process.stdout.write(`\nwritten: ${PERFORMANCE_DOC} and ${PERFORMANCE_RECORDS}\n`);
rmSync(rowsDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
