/**
 * The lifecycle of a batch as the `bars/scale` check runs it, for the benchmarks: a batch
 * of `cases` escalated cases with their true labels and the sample's gold pool written to
 * files (the sample's cases repeated under new query ids, bench/support/qrelay-process.ts),
 * then the real CLI from the build as child processes: `qrelay import` of the cases, of the
 * gold pool, and `qrelay simulate --truth --json`. Each process is timed whole (wall, and
 * CPU user + system under /usr/bin/time when the machine has it), and the dev database,
 * started here so that it outlives the commands as one process, is measured apart (its CPU
 * time from /proc, read before and after each command). The forecast's `wall` splits the
 * simulation into its phases. The load average is read at the start and the end, since
 * every wall time depends on what else the machine runs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { startDevdb } from '../../src/db/devdb.js';
import { paths } from '../../src/paths.js';
import { isolatedQrelay, writeSampleCases } from './qrelay-process.js';

export interface TimedCommand {
  /** `import cases`, `import gold`, `simulate`. */
  name: string;
  wallSeconds: number;
  /** User + system CPU seconds of the qrelay process (null without /usr/bin/time). */
  cpuSeconds: number | null;
  peakMiB: number | null;
  /** CPU seconds the dev database spent while the command ran (null where /proc is not readable). */
  dbCpuSeconds: number | null;
}

export interface LifecycleRun {
  cases: number;
  commands: TimedCommand[];
  importSeconds: number;
  simulateSeconds: number;
  forecast: ForecastFigures;
  /** The 1-minute load average at the start and at the end. */
  load: [number, number];
}

const TIME = '/usr/bin/time';

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null when not readable. */
function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may hold spaces, in parentheses): utime and stime are the 12th and 13th
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** The built CLI (as `npm start` and bars/scale run it: tsx would add its compile time), timed whole. */
function timedQrelay(
  env: NodeJS.ProcessEnv,
  args: string[],
  timesFile: string,
): Promise<{ stdout: string; wall: number; cpu: number | null; peakMiB: number | null }> {
  // QRELAY_BENCH_CPU_PROF=<dir>: a V8 CPU profile of each command in <dir> (coarse sampling: profiling slows the run)
  const profile = process.env.QRELAY_BENCH_CPU_PROF;
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, '--cpu-prof-interval=4000'] : [];
  const cli = [process.execPath, ...profiling, join(paths.root, 'dist', 'src', 'cli.js'), ...args];
  const timed = existsSync(TIME);
  const [command, ...rest] = timed ? [TIME, '-f', '%U %S %M', '-o', timesFile, ...cli] : cli;
  const started = performance.now();
  const child = spawn(command!, rest, { cwd: paths.root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      const wall = (performance.now() - started) / 1000;
      if (code !== 0) return reject(new Error(`qrelay ${args.join(' ')} exited with ${code}: ${stdout.slice(0, 500)}`));
      const m = timed ? /^([\d.]+) ([\d.]+) (\d+)\s*$/m.exec(readFileSync(timesFile, 'utf8')) : null;
      resolve({ stdout, wall, cpu: m ? Number(m[1]) + Number(m[2]) : null, peakMiB: m ? Number(m[3]) / 1024 : null });
    }),
  );
}

/**
 * The parts of the forecast the benchmarks read (src/simulation/forecast.ts has the whole):
 * checked, so that a forecast missing one of them fails here, naming it, rather than
 * printing NaN in a row.
 */
const seconds = z.number().nonnegative();
const ForecastFigures = z.object({
  assignments: z.number().int().nonnegative(),
  fleissKappa: z.number().nullable(),
  accuracy: z.object({ balancedAccuracy: z.number().nullable() }).nullable(),
  cost: z.object({ total: z.number(), quote: z.number(), extraAssignments: z.number(), discardedAssignments: z.number() }),
  latency: z.object({ lastVoteSeconds: z.number().nullable() }),
  workers: z.array(z.object({ blocked: z.boolean() })),
  wall: z.object({
    copySeconds: seconds,
    publishSeconds: seconds,
    crowdSeconds: seconds,
    roundsSeconds: seconds,
    rounds: z.number().int().nonnegative(),
    endSeconds: seconds,
  }),
});
export type ForecastFigures = z.infer<typeof ForecastFigures>;

/**
 * The forecast in `qrelay simulate --json`'s stdout: its last line that is a JSON object
 * (the forecast is written last, on one line), so that a line some library wrote on stdout
 * before it does not lose a run of many minutes; such lines are shown on stderr, since
 * they belong there.
 */
export function parseForecast(stdout: string): ForecastFigures {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findLastIndex((l) => l.trimStart().startsWith('{'));
  if (at < 0)
    throw new Error(
      `bench lifecycle: qrelay simulate --json wrote no JSON object on stdout; what it wrote: ${JSON.stringify(stdout.slice(0, 400))}`,
    );
  let json: unknown;
  try {
    json = JSON.parse(lines[at]!);
  } catch (err) {
    throw new Error(
      `bench lifecycle: the last JSON line of qrelay simulate --json does not parse (${(err as Error).message}): ${JSON.stringify(lines[at]!.slice(0, 400))}`,
    );
  }
  const stray = lines.filter((_, i) => i !== at);
  if (stray.length > 0)
    console.error(
      `bench lifecycle: qrelay simulate --json wrote ${stray.length} line(s) besides its forecast on stdout (they belong on stderr): ${JSON.stringify(stray.slice(0, 3).map((l) => l.slice(0, 200)))}`,
    );
  const parsed = ForecastFigures.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `bench lifecycle: the forecast of qrelay simulate --json lacks what the benchmark reads (src/simulation/forecast.ts changed?): ${z.prettifyError(parsed.error)}`,
    );
  return parsed.data;
}

/** One lifecycle of `cases` cases on a fresh data directory and dev database (or its own database on MONGODB_URI). */
export async function runLifecycle(cases: number, opts: { seed?: string } = {}): Promise<LifecycleRun> {
  const load0 = loadavg()[0]!;
  const { dir, env } = await isolatedQrelay('lifecycle', { db: 27_900, api: 18_100, marketplace: 18_700 });
  const devdb = process.env.MONGODB_URI ? undefined : await startDevdb({ address: env.QRELAY_DEVDB_ADDRESS!, dataDir: join(dir, 'devdb') });
  const commands: TimedCommand[] = [];
  const run = async (name: string, args: string[]) => {
    const db0 = processCpuSeconds(devdb?.process.pid);
    const r = await timedQrelay(env, args, join(dir, 'times.txt'));
    const db1 = processCpuSeconds(devdb?.process.pid);
    commands.push({
      name,
      wallSeconds: r.wall,
      cpuSeconds: r.cpu,
      peakMiB: r.peakMiB,
      dbCpuSeconds: db0 === null || db1 === null ? null : db1 - db0,
    });
    return r.stdout;
  };
  try {
    const files = writeSampleCases(dir, cases);
    await run('import cases', ['import', files.cases, '--batch', 'scale', '--kind', 'escalations']);
    await run('import gold', ['import', join(paths.samples, 'gold.jsonl'), '--batch', 'scale', '--kind', 'gold']);
    const out = await run('simulate', ['simulate', 'scale', '--truth', files.truth, ...(opts.seed ? ['--seed', opts.seed] : []), '--json']);
    const importSeconds = commands.filter((c) => c.name.startsWith('import')).reduce((s, c) => s + c.wallSeconds, 0);
    return {
      cases,
      commands,
      importSeconds,
      simulateSeconds: commands.at(-1)!.wallSeconds,
      forecast: parseForecast(out),
      load: [load0, loadavg()[0]!],
    };
  } finally {
    await devdb?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const s = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(1)} s`);

/** The run's commands and the simulation's phases, one line each. */
export function describeLifecycle(r: LifecycleRun): string[] {
  const w = r.forecast.wall;
  const other = r.simulateSeconds - w.copySeconds - w.publishSeconds - w.crowdSeconds - w.roundsSeconds - w.endSeconds;
  return [
    `${r.cases} cases, ${r.forecast.assignments} assignments; load average ${r.load[0].toFixed(1)} at the start, ${r.load[1].toFixed(1)} at the end`,
    ...r.commands.map(
      (c) =>
        `  qrelay ${c.name.padEnd(13)} wall ${s(c.wallSeconds).padStart(8)}   CPU ${s(c.cpuSeconds).padStart(8)}   dev database CPU ${s(c.dbCpuSeconds).padStart(8)}   peak RSS ${c.peakMiB === null ? 'n/a' : `${c.peakMiB.toFixed(0)} MiB`}`,
    ),
    `  simulate's phases (wall): copy ${s(w.copySeconds)}, publish ${s(w.publishSeconds)}, crowd ${s(w.crowdSeconds)}, ${w.rounds} rounds ${s(w.roundsSeconds)}, report and forecast ${s(w.endSeconds)}, the rest (start, setup, close) ${s(other)}`,
    `  import + simulate: ${s(r.importSeconds + r.simulateSeconds)}`,
  ];
}
