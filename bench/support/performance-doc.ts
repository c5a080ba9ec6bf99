/**
 * docs/performance.md, as `npm run bench` (bench/run-all.ts) writes it after each run: the
 * figures that have a peer or a target beside them, the machine they were measured on, and
 * which benchmarks ran. Figures live here, not in code comments, where they would go stale.
 *
 * A run may cover a few benchmarks only (`npm run bench -- api-load`), and the paper's sizes
 * take long enough that nobody runs every benchmark at both scales at once. So each
 * benchmark's last outcome at each scale is kept in docs/performance-runs.json (machine
 * readable, written beside the page) and a run replaces only the records of what it ran: the
 * page always shows the last figures of every benchmark, each with the commit and the load of
 * the run that measured it.
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism, cpus, loadavg, release, totalmem, type } from 'node:os';
import { z } from 'zod';
import { formatRows } from './table.js';

export const PERFORMANCE_DOC = 'docs/performance.md';
export const PERFORMANCE_RECORDS = 'docs/performance-runs.json';

export type BenchScale = 'quick' | 'paper';
const SCALES: readonly BenchScale[] = ['quick', 'paper'];

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** The 1-minute load average when the run started and when it ended: above `cores`, other work shared the machine. */
  load: { start: number; end: number };
}

const rowSchema = z.object({
  figure: z.string(),
  ours: z.number(),
  peer: z.string(),
  theirs: z.number(),
  unit: z.string(),
  better: z.enum(['lower', 'higher']),
});

const recordSchema = z.object({
  file: z.string(),
  scale: z.enum(['quick', 'paper']),
  exitCode: z.number().int(),
  seconds: z.number(),
  rows: z.array(rowSchema),
  commit: z.string().nullable(),
  /** ISO 8601, UTC. */
  finishedAt: z.string(),
  /** The 1-minute load average when this benchmark started and ended. */
  load: z.object({ start: z.number(), end: z.number() }),
});

/** One benchmark's last outcome at one scale. */
export type BenchRecord = z.infer<typeof recordSchema>;

const recordsSchema = z.object({ records: z.array(recordSchema) });

export interface PerformanceRun {
  /** The last record of every benchmark at every scale, this run's and earlier ones'. */
  records: readonly BenchRecord[];
  /** Every benchmark file in bench/, run or not. */
  benches: readonly string[];
  machine: Machine;
  /** The arguments after `npm run bench --` of this run, as given. */
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

/**
 * The records kept from earlier runs (`text`: docs/performance-runs.json, or null when there
 * is none yet). A file that does not parse is an error naming it: silently starting afresh
 * would drop every earlier figure.
 */
export function parseRecords(text: string | null, file = PERFORMANCE_RECORDS): BenchRecord[] {
  if (text === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message}); fix it or delete it to start the records afresh`);
  }
  const parsed = recordsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.') || '(top level)'}: ${issue.message}; fix it or delete it to start the records afresh`);
  }
  return parsed.data.records;
}

export const serializeRecords = (records: readonly BenchRecord[]): string => `${JSON.stringify({ records }, null, 2)}\n`;

/**
 * Earlier records with this run's in place of the same benchmark at the same scale, in a
 * stable order (scale, then file); records of benchmarks no longer in bench/ are dropped.
 */
export function mergeRecords(earlier: readonly BenchRecord[], now: readonly BenchRecord[], benches: readonly string[]): BenchRecord[] {
  const key = (r: BenchRecord) => `${r.scale}\t${r.file}`;
  const merged = new Map(earlier.map((r) => [key(r), r]));
  for (const r of now) merged.set(key(r), r);
  const exists = new Set(benches);
  return [...merged.values()]
    .filter((r) => exists.has(r.file))
    .sort((a, b) => SCALES.indexOf(a.scale) - SCALES.indexOf(b.scale) || a.file.localeCompare(b.file));
}

const outcome = (r: BenchRecord): string => (r.exitCode === 0 ? 'done' : `failed (exit ${r.exitCode})`);
const when = (iso: string): string => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const measuredBy = (r: BenchRecord): string => `\`${r.file}\` at ${r.commit ?? 'unknown'}, load ${r.load.start}–${r.load.end}`;

const scaleTitle: Record<BenchScale, string> = {
  quick: 'At the quick sizes (`npm run bench`)',
  paper: "At the paper's sizes (`npm run bench -- --scale paper`)",
};

function figures(records: readonly BenchRecord[], scale: BenchScale): string[] {
  const withRows = records.filter((r) => r.scale === scale && r.rows.length > 0);
  if (withRows.length === 0) return [];
  const rows = withRows.flatMap((r) => r.rows);
  const table = formatRows(rows).split('\n');
  const byRow = withRows.flatMap((r) => r.rows.map(() => measuredBy(r)));
  const width = Math.max('measured by'.length, ...byRow.map((m) => m.length));
  // the table of formatRows, with the run that measured each row as a last column
  const lines = table.map((line, i) =>
    i === 0
      ? `${line} ${'measured by'.padEnd(width)} |`
      : i === 1
        ? `${line}${'-'.repeat(width + 2)}|`
        : `${line} ${byRow[i - 2]!.padEnd(width)} |`,
  );
  return [`### ${scaleTitle[scale]}`, '', ...lines, ''];
}

export function renderPerformance(run: PerformanceRun): string {
  const { machine, records } = run;
  const command = ['npm run bench', ...(run.args.length ? ['--', ...run.args] : [])].join(' ');
  const recorded = new Set(records.map((r) => r.file));
  const neverRun = run.benches.filter((b) => !recorded.has(b));
  const figureLines = SCALES.flatMap((s) => figures(records, s));
  return [
    '<!-- written by npm run bench; do not edit (bench/run-all.ts) -->',
    '',
    '# Performance',
    '',
    '_Written by `npm run bench` (`bench/run-all.ts`) at the end of each run; do not edit._',
    '',
    "Each figure that has a peer or a target, beside the peer's figure measured in the same run on",
    'the same machine (crowd-kit, statsmodels and krippendorff for aggregation, ir_measures for',
    'evaluation, `JSON.parse` and a raw `insertMany` for import) or the target it is held to, and',
    'the ratio qrelay / peer. Every benchmark keeps the figures of its last run at each scale',
    `(\`${PERFORMANCE_RECORDS.replace('docs/', '')}\`), so rows may come from different runs: each row names the`,
    'commit and the load average (1 minute, start–end) of the run that measured it. A load above',
    'the cores means other work shared the machine: compare ratios, which both sides of a row',
    'share, rather than absolute figures across rows.',
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
    `| last run | \`${command}\` at ${run.commit ?? 'unknown'}, finished ${when(run.finishedAt.toISOString())}, load ${machine.load.start}, ${machine.load.end} |`,
    '',
    '## Figures against their peers',
    '',
    ...(figureLines.length ? figureLines : ['No benchmark has reported a figure with a peer or a target yet.', '']),
    '## The benchmarks',
    '',
    '| benchmark | scale | outcome | seconds | commit | finished |',
    '|---|---|---|---|---|---|',
    ...records.map(
      (r) =>
        `| \`bench/${r.file}\` | ${r.scale} | ${outcome(r)} | ${r.seconds.toFixed(1)} | ${r.commit ?? 'unknown'} | ${when(r.finishedAt)} |`,
    ),
    ...neverRun.map((file) => `| \`bench/${file}\` | | not run yet | | | |`),
    '',
    '## Running them again',
    '',
    '```sh',
    'npm run bench                        # every benchmark at the quick sizes; updates this file',
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
