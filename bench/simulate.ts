/**
 * The whole lifecycle at the paper's scale, and how its cost grows: `qrelay import` (the
 * cases and the gold pool) then `qrelay simulate` (copy, publish on a private marketplace,
 * the simulated crowd, collection rounds: reconcile, review, follow-up, aggregation; the
 * forecast's report), each a child process of the build on a fresh dev database
 * (bench/support/lifecycle.ts). Runs the paper's 4,056 cases once, against the 60 s goal
 * and the 90 s bar of the `bars/scale` check, and 1x, 2x and 4x a base size, printing for
 * each the wall and CPU times, how the simulation splits into its phases, and the time per
 * 1,000 assignments (a flat figure across sizes means a cost linear in the batch); then
 * rows for the table of figures against their targets (bench/support/table.ts). Asserts
 * nothing.
 *   node --import tsx bench/simulate.ts                   # 4,056 cases; 135, 270, 540 (quick)
 *   node --import tsx bench/simulate.ts --scale paper     # 1,014, 2,028, 4,056 cases (the 4x run is the paper's)
 *   node --import tsx bench/simulate.ts 500               # 4,056 cases; 500, 1,000, 2,000
 *   node --import tsx bench/simulate.ts --lifecycle [n]   # the bars/scale check alone: n cases (default 4,056), each phase
 * At the paper's scale it also runs ten times the paper (40,560 cases, a BRIDGE-sized batch,
 * as the `bars/scale-10x` check does), with rows against its targets: the whole lifecycle
 * within TEN_X_SECONDS, the simulate process's peak RSS within TEN_X_PEAK_MIB.
 * The cases are the sample's 270, repeated under new query ids, with their true labels;
 * the sample's gold pool; the default population (samples/population.json), 3 votes per case.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { paths } from '../src/paths.js';
import { describeLifecycle, runLifecycle, type LifecycleRun } from './support/lifecycle.js';
import { reportRows, type BenchRow } from './support/table.js';

const args = process.argv.slice(2);
// `npm run bench -- --scale paper` passes the scale in QRELAY_BENCH_SCALE (bench/run-all.ts)
const paper = process.env.QRELAY_BENCH_SCALE === 'paper' || (args.includes('--scale') && args[args.indexOf('--scale') + 1] === 'paper');
const lifecycleOnly = args.includes('--lifecycle');
const sizeArg = args.find((a) => /^\d+$/.test(a));
const PAPER_CASES = 4056;
const GOAL_SECONDS = 60;
const BAR_SECONDS = 90;
const TEN_X_CASES = 10 * PAPER_CASES;
const TEN_X_SECONDS = 300;
const TEN_X_PEAK_MIB = 1500;

/** Both packages' builds, as `npm install` makes them (the marketplace's first: qrelay's imports it). */
async function build(): Promise<void> {
  const tsc = join(paths.root, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const project of [join('packages', 'marketplace', 'tsconfig.json'), 'tsconfig.build.json']) {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: paths.root, stdio: 'inherit' });
    if ((await new Promise((r) => child.on('exit', r))) !== 0) throw new Error(`tsc -p ${project} failed`);
  }
}

const totalOf = (r: LifecycleRun) => r.importSeconds + r.simulateSeconds;
const perThousand = (seconds: number, assignments: number) => (seconds * 1000) / Math.max(1, assignments);

function lifecycleRows(r: LifecycleRun): BenchRow[] {
  const figure = `lifecycle wall time, import + simulate of ${r.cases} cases (load ${r.load[0].toFixed(1)})`;
  const scaled = (limit: number) => (limit * r.cases) / PAPER_CASES;
  const against = (limit: number, what: string) =>
    r.cases === PAPER_CASES ? `${what} for 4,056 cases` : `${what} ${limit} s x ${r.cases}/4,056`;
  return [
    { figure, ours: totalOf(r), peer: against(GOAL_SECONDS, 'goal'), theirs: scaled(GOAL_SECONDS), unit: 's', better: 'lower' },
    { figure, ours: totalOf(r), peer: against(BAR_SECONDS, 'bars/scale bar'), theirs: scaled(BAR_SECONDS), unit: 's', better: 'lower' },
    {
      figure: `actual cost against the quote, ${r.cases} cases`,
      ours: r.forecast.cost.total,
      peer: 'quote (target: within 10%)',
      theirs: r.forecast.cost.quote,
      unit: 'USD',
      better: 'lower',
    },
  ];
}

/**
 * Ten times the paper: the lifecycle's wall time, its CPU time (the machine may be shared: the
 * qrelay processes' user + system time, the dev database's apart) and the simulate process's
 * peak RSS, against their targets.
 */
function tenTimesRows(r: LifecycleRun): BenchRow[] {
  const peak = r.commands.find((c) => c.name === 'simulate')?.peakMiB ?? null;
  const sum = (of: (c: LifecycleRun['commands'][number]) => number | null) =>
    r.commands.every((c) => of(c) !== null) ? r.commands.reduce((s, c) => s + of(c)!, 0) : null;
  const cpu = sum((c) => c.cpuSeconds);
  const dbCpu = sum((c) => c.dbCpuSeconds);
  const load = `load ${r.load[0].toFixed(1)} at the start, ${r.load[1].toFixed(1)} at the end`;
  const target = { peer: 'target (bars/scale-10x)', theirs: TEN_X_SECONDS, unit: 's', better: 'lower' as const };
  const rows: BenchRow[] = [
    { figure: `lifecycle wall time, import + simulate of ${r.cases} cases (10x the paper, ${load})`, ours: totalOf(r), ...target },
  ];
  // on a shared machine the wall time says little: the CPU time the lifecycle needs, its own and the dev database's
  if (cpu !== null)
    rows.push({ figure: `lifecycle CPU time of the qrelay processes, ${r.cases} cases (10x the paper)`, ours: cpu, ...target });
  if (cpu !== null && dbCpu !== null)
    rows.push({ figure: `lifecycle CPU time, qrelay + dev database, ${r.cases} cases (10x the paper)`, ours: cpu + dbCpu, ...target });
  if (peak !== null)
    rows.push({
      figure: `peak RSS of qrelay simulate, ${r.cases} cases (10x the paper)`,
      ours: peak,
      peer: 'target (bars/scale-10x)',
      theirs: TEN_X_PEAK_MIB,
      unit: 'MiB',
      better: 'lower',
    });
  return rows;
}

function printRun(r: LifecycleRun): void {
  const f = r.forecast;
  for (const line of describeLifecycle(r)) console.log(line);
  console.log(
    `  per 1,000 assignments: ${perThousand(totalOf(r), f.assignments).toFixed(1)} s in all, crowd ${perThousand(f.wall.crowdSeconds, f.assignments).toFixed(1)} s, rounds ${perThousand(f.wall.roundsSeconds, f.assignments).toFixed(1)} s, publish ${perThousand(f.wall.publishSeconds, f.assignments).toFixed(1)} s`,
  );
  console.log(
    `  forecast: κ ${f.fleissKappa?.toFixed(3)}, balanced accuracy ${((f.accuracy?.balancedAccuracy ?? 0) * 100).toFixed(1)}%, cost $${f.cost.total.toFixed(2)} against a quote of $${f.cost.quote.toFixed(2)} (${(((f.cost.total - f.cost.quote) / f.cost.quote) * 100).toFixed(1)}%: ${f.cost.extraAssignments} extra assignments, ${f.cost.discardedAssignments} discarded), ${f.workers.filter((w) => w.blocked).length} of ${f.workers.length} workers stopped, last vote after ${((f.latency.lastVoteSeconds ?? 0) / 3600).toFixed(1)} h simulated`,
  );
}

await build();
const where = process.env.MONGODB_URI ? 'MONGODB_URI' : 'a fresh dev database each';
if (lifecycleOnly) {
  const cases = Number(sizeArg ?? PAPER_CASES);
  console.log(`the bars/scale lifecycle: qrelay import + qrelay simulate --json of ${cases} cases with gold, ${where}`);
  const r = await runLifecycle(cases);
  printRun(r);
  reportRows([...lifecycleRows(r), ...(cases === TEN_X_CASES ? tenTimesRows(r) : [])]);
} else {
  const base = Number(sizeArg ?? (paper ? 1014 : 135));
  console.log(
    `qrelay import + qrelay simulate at ${PAPER_CASES} cases and at 1x, 2x, 4x ${base} cases, 3 votes each, default population, ${where}`,
  );
  const runs: LifecycleRun[] = [];
  for (const factor of [1, 2, 4]) {
    const r = await runLifecycle(base * factor);
    runs.push(r);
    printRun(r);
  }
  const paperRun = runs.find((r) => r.cases === PAPER_CASES) ?? (await runLifecycle(PAPER_CASES));
  if (!runs.includes(paperRun)) printRun(paperRun);
  const first = runs[0]!;
  const tenTimes = paper ? await runLifecycle(TEN_X_CASES) : undefined;
  if (tenTimes) printRun(tenTimes);
  reportRows([
    ...lifecycleRows(paperRun),
    // ten times the paper beside the paper's own rows
    ...(tenTimes ? tenTimesRows(tenTimes) : []),
    ...runs.slice(1).map((r, i): BenchRow => ({
      figure: `time per 1,000 assignments at ${r.cases} cases (${2 ** (i + 1)}x)`,
      ours: perThousand(totalOf(r), r.forecast.assignments),
      peer: `the same at ${first.cases} cases (1x)`,
      theirs: perThousand(totalOf(first), first.forecast.assignments),
      unit: 's',
      better: 'lower',
    })),
  ]);
}
