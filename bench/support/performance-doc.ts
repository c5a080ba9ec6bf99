/**
 * docs/performance.md, as `npm run bench` (bench/run-all.ts) writes it after each run: the
 * figures that have a peer or a target beside them, the machine they were measured on, and
 * which benchmarks ran. Figures live here, not in code comments, where they would go stale.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { formatRows, type BenchRow } from './table.js';

export const PERFORMANCE_DOC = 'docs/performance.md';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** The 1-minute load average when the run started and when it ended: above `cores`, other work shared the machine. */
  load: { start: number; end: number };
}

export interface BenchOutcome {
  file: string;
  /** null: not run in this run (a filter left it out). */
  exitCode: number | null;
  seconds: number | null;
}

export interface PerformanceRun {
  rows: readonly BenchRow[];
  benches: readonly BenchOutcome[];
  machine: Machine;
  /** The arguments after `npm run bench --`, as given. */
  args: readonly string[];
  commit: string | null;
  finishedAt: Date;
}

/** The 1-minute load average now. */
export const loadNow = (): number => Math.round(loadavg()[0]! * 10) / 10;

export function thisMachine(loadAtStart: number): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${type()} ${release()}`,
    load: { start: loadAtStart, end: loadNow() },
  };
}

export function currentCommit(root: string): string | null {
  const res = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' });
  return res.status === 0 ? res.stdout.trim() : null;
}

const outcome = (b: BenchOutcome): string => (b.exitCode === null ? 'not run' : b.exitCode === 0 ? 'done' : `failed (exit ${b.exitCode})`);

export function renderPerformance(run: PerformanceRun): string {
  const { machine } = run;
  const notRun = run.benches.filter((b) => b.exitCode === null).length;
  const command = ['npm run bench', ...(run.args.length ? ['--', ...run.args] : [])].join(' ');
  return [
    '<!-- written by npm run bench; do not edit (bench/run-all.ts) -->',
    '',
    '# Performance',
    '',
    '_Written by `npm run bench` (`bench/run-all.ts`) at the end of each run; do not edit._',
    '',
    `The figures of the last run that have a peer or a target, \`${command}\`: each beside`,
    "the peer's figure measured in the same run on the same machine (crowd-kit, statsmodels and",
    'krippendorff for aggregation, ir_measures for evaluation, `JSON.parse` and a raw',
    '`insertMany` for import) or the target it is held to, and the ratio qrelay / peer.',
    notRun
      ? `${notRun} of the ${run.benches.length} benchmarks were not run this time (below): their figures are missing, not zero.`
      : `Every benchmark in \`bench/\` ran.`,
    '',
    '## The machine',
    '',
    '| | |',
    '|---|---|',
    `| CPU | ${machine.cpu} |`,
    `| cores | ${machine.cores} |`,
    `| memory | ${machine.memoryGiB} GiB |`,
    `| Node.js | ${machine.node} |`,
    `| system | ${machine.os} |`,
    `| load average (1 min), start and end | ${machine.load.start}, ${machine.load.end} |`,
    `| commit | ${run.commit ?? 'unknown'} |`,
    `| finished | ${run.finishedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC |`,
    '',
    'A load average above the cores means other work shared the machine while it ran: compare',
    'ratios, which both sides of a row share, rather than absolute figures across runs.',
    '',
    '## Figures against their peers',
    '',
    run.rows.length ? formatRows(run.rows) : 'No benchmark that ran reports a figure with a peer or a target.',
    '',
    '## The benchmarks of this run',
    '',
    '| benchmark | outcome | seconds |',
    '|---|---|---|',
    ...run.benches.map((b) => `| \`bench/${b.file}\` | ${outcome(b)} | ${b.seconds === null ? '' : b.seconds.toFixed(1)} |`),
    '',
    '## Running them again',
    '',
    '```sh',
    'npm run bench                        # every benchmark at the quick sizes; rewrites this file',
    'npm run bench -- qrels aggregate     # only those whose file name contains one of the words',
    "npm run bench -- --scale paper       # the paper's sizes (a 346 MiB import, a 4,056-case batch)",
    '```',
    '',
    'Each benchmark also runs alone (`node --import tsx bench/<name>.ts`) and prints more',
    'than this table: its own figures, with the sizes it ran at. The peers run from the',
    "project's `.venv` (`bench/peers/requirements.txt`), which the benchmarks complete when",
    'needed. The design decisions behind the figures: [decisions](decisions/README.md).',
    '',
  ].join('\n');
}
