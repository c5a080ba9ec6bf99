/**
 * The whole lifecycle at the paper's scale, and how its cost grows: `qrelay import` (the
 * cases and the gold pool) then `qrelay simulate` (copy, publish on a private marketplace,
 * the simulated crowd, collection rounds: reconcile, review, follow-up, aggregation; the
 * forecast's report), each a child process on a fresh dev database, at 1x, 2x and 4x a base
 * size. Prints for each size the wall time, how it splits, and the time per 1,000
 * assignments (a flat figure across sizes means a cost linear in the batch); then rows for
 * the table of figures against their targets (bench/support/table.ts): the largest run's
 * wall time against the 60 s goal for 4,056 cases (scaled linearly to the size run at the
 * quick scale), and the time per 1,000 assignments at 4x against 1x. Asserts nothing.
 *   node --import tsx bench/simulate.ts                   # 135, 270, 540 cases (quick)
 *   node --import tsx bench/simulate.ts --scale paper     # 1,014, 2,028, 4,056 cases (the paper's 4,056 escalations)
 *   node --import tsx bench/simulate.ts 500               # 500, 1,000, 2,000 cases
 * The cases are the sample's 270, repeated under new query ids, with their true labels;
 * the default population (samples/population.json), 3 votes per case.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../src/paths.js';
import type { Forecast } from '../src/simulation/forecast.js';
import { isolatedQrelay, writeSampleCases } from './support/qrelay-process.js';
import { reportRows } from './support/table.js';

const args = process.argv.slice(2);
// `npm run bench -- --scale paper` passes the scale in QRELAY_BENCH_SCALE (bench/run-all.ts)
const paper = process.env.QRELAY_BENCH_SCALE === 'paper' || (args.includes('--scale') && args[args.indexOf('--scale') + 1] === 'paper');
const base = Number(args.find((a) => /^\d+$/.test(a)) ?? (paper ? 1014 : 135));
const PAPER_CASES = 4056;
const GOAL_SECONDS = 60;

interface Lifecycle {
  cases: number;
  importSeconds: number;
  simulateSeconds: number;
  forecast: Forecast;
}

async function lifecycle(cases: number): Promise<Lifecycle> {
  const { dir, env } = await isolatedQrelay('simulate', { db: 27_900, api: 18_100, marketplace: 18_700 });
  const qrelay = (cliArgs: string[]): Promise<{ stdout: string; seconds: number }> => {
    const started = performance.now();
    // the build, as `npm start` and bars/scale run it (tsx would add its compile time)
    const child = spawn(process.execPath, [join(paths.root, 'dist', 'src', 'cli.js'), ...cliArgs], {
      cwd: paths.root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    return new Promise((resolve, reject) =>
      child.on('exit', (code) =>
        code === 0
          ? resolve({ stdout, seconds: (performance.now() - started) / 1000 })
          : reject(new Error(`qrelay ${cliArgs[0]} exited with ${code}: ${stdout.slice(0, 500)}`)),
      ),
    );
  };
  try {
    writeSampleCases(dir, cases);
    let importSeconds = 0;
    for (const [file, kind] of [
      [join(dir, 'cases.jsonl'), 'escalations'],
      [join(paths.samples, 'gold.jsonl'), 'gold'],
    ] as const)
      importSeconds += (await qrelay(['import', file, '--batch', 'scale', '--kind', kind])).seconds;
    const sim = await qrelay(['simulate', 'scale', '--truth', join(dir, 'truth.jsonl'), '--json']);
    return { cases, importSeconds, simulateSeconds: sim.seconds, forecast: JSON.parse(sim.stdout) as Forecast };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const build = spawn(process.execPath, [join(paths.root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  cwd: paths.root,
  stdio: 'inherit',
});
if ((await new Promise((r) => build.on('exit', r))) !== 0) throw new Error('tsc -p tsconfig.build.json failed');

const perThousand = (seconds: number, assignments: number) => (seconds * 1000) / Math.max(1, assignments);
const runs: Lifecycle[] = [];
console.log(
  `qrelay import + qrelay simulate at 1x, 2x, 4x ${base} cases, 3 votes each, default population, ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'a fresh dev database each'}`,
);
console.log(
  `${'cases'.padStart(6)} ${'assign.'.padStart(8)} ${'import'.padStart(8)} ${'simulate'.padStart(9)} ${'crowd'.padStart(7)} ${'rounds'.padStart(7)} ${'(n)'.padStart(4)} ${'other'.padStart(7)} ${'total'.padStart(7)}   s per 1,000 assignments: total, crowd, rounds`,
);
for (const factor of [1, 2, 4]) {
  const r = await lifecycle(base * factor);
  runs.push(r);
  const f = r.forecast;
  const total = r.importSeconds + r.simulateSeconds;
  const other = r.simulateSeconds - f.wall.crowdSeconds - f.wall.roundsSeconds;
  console.log(
    `${String(r.cases).padStart(6)} ${String(f.assignments).padStart(8)} ${r.importSeconds.toFixed(1).padStart(7)}s ${r.simulateSeconds.toFixed(1).padStart(8)}s ${f.wall.crowdSeconds.toFixed(1).padStart(6)}s ${f.wall.roundsSeconds.toFixed(1).padStart(6)}s ${String(f.wall.rounds).padStart(4)} ${other.toFixed(1).padStart(6)}s ${total.toFixed(1).padStart(6)}s   ${perThousand(total, f.assignments).toFixed(1)}, ${perThousand(f.wall.crowdSeconds, f.assignments).toFixed(1)}, ${perThousand(f.wall.roundsSeconds, f.assignments).toFixed(1)}`,
  );
  console.log(
    `         forecast: κ ${f.fleissKappa?.toFixed(3)}, balanced accuracy ${((f.accuracy?.balancedAccuracy ?? 0) * 100).toFixed(1)}%, cost $${f.cost.total.toFixed(2)} against a quote of $${f.cost.quote.toFixed(2)} (${(((f.cost.total - f.cost.quote) / f.cost.quote) * 100).toFixed(1)}%: ${f.cost.extraAssignments} extra assignments, ${f.cost.discardedAssignments} discarded), last vote after ${((f.latency.lastVoteSeconds ?? 0) / 3600).toFixed(1)} h simulated`,
  );
}
const first = runs[0]!;
const last = runs[runs.length - 1]!;
const totalOf = (r: Lifecycle) => r.importSeconds + r.simulateSeconds;
const goal = (GOAL_SECONDS * last.cases) / PAPER_CASES;
reportRows([
  {
    figure: `lifecycle wall time, import + simulate of ${last.cases} cases`,
    ours: totalOf(last),
    peer: last.cases === PAPER_CASES ? 'goal for 4,056 cases' : `goal 60 s x ${last.cases}/4,056`,
    theirs: goal,
    unit: 's',
    better: 'lower',
  },
  {
    figure: `time per 1,000 assignments at ${last.cases} cases (4x)`,
    ours: perThousand(totalOf(last), last.forecast.assignments),
    peer: `the same at ${first.cases} cases (1x)`,
    theirs: perThousand(totalOf(first), first.forecast.assignments),
    unit: 's',
    better: 'lower',
  },
  {
    figure: `actual cost against the quote, ${last.cases} cases`,
    ours: last.forecast.cost.total,
    peer: 'quote (target: within 10%)',
    theirs: last.forecast.cost.quote,
    unit: 'USD',
    better: 'lower',
  },
]);
