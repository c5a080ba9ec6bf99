/**
 * The main job's speed: `qrelay demo` on the whole sample (270 cases, as `npm start` runs
 * it) on a fresh dev database, data directory and free ports. Prints figures, asserts
 * nothing; the target is a workflow well under 2 minutes on a 2-core machine.
 *   node --import tsx bench/demo.ts [sample-size=270]
 * (the demo's simulated marketplace keeps its own clock: no speed to give it)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isListening } from '../src/db/devdb.js';
import type { DemoSummary } from '../src/demo/summary.js';
import { paths } from '../src/paths.js';

const [size = '270'] = process.argv.slice(2);

async function freePort(from: number): Promise<number> {
  for (let port = from + Math.floor(Math.random() * 500); ; port++) if (!(await isListening('127.0.0.1', port))) return port;
}

const dataDir = mkdtempSync(join(tmpdir(), 'qrelay-bench-demo-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  QRELAY_DATA_DIR: dataDir,
  QRELAY_DEVDB_ADDRESS: `127.0.0.1:${await freePort(27_900)}`,
  PORT: String(await freePort(18_100)),
  MARKETPLACE_URL: `http://127.0.0.1:${await freePort(18_700)}`,
  ...(process.env.MONGODB_URI && { MONGODB_URI: `${process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/')}bench_demo_${Date.now()}` }),
};

const started = performance.now();
const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), 'demo', '--sample-size', size], {
  cwd: paths.root,
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
let stdout = '';
child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
const wall = (performance.now() - started) / 1000;
try {
  if (code !== 0) {
    console.log(stdout);
    throw new Error(`qrelay demo exited with ${code}`);
  }
  const summary = JSON.parse(readFileSync(join(dataDir, 'out', 'sample', 'summary.json'), 'utf8')) as DemoSummary;
  const l = summary.latency;
  console.log(`qrelay demo, ${summary.cases} cases, on ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'a fresh dev database'}`);
  console.log(`  process wall time (start-up, database, workflow, exit)  ${wall.toFixed(1)} s`);
  console.log(`  workflow wall time                                      ${l.totalWallSeconds.toFixed(1)} s`);
  console.log(`  of which the crowd's work and review                    ${l.workWallSeconds.toFixed(1)} s`);
  console.log(`  simulated time to the last vote                         ${((l.simulatedSeconds ?? 0) / 3600).toFixed(2)} h`);
  console.log(
    `  time to 3 votes p50 / p90 (simulated)                   ${((l.timeToTarget.p50Seconds ?? 0) / 60).toFixed(1)} / ${((l.timeToTarget.p90Seconds ?? 0) / 60).toFixed(1)} min`,
  );
  console.log(
    `  cost                                                    $${(summary.cost.total / 100).toFixed(2)} (quote $${((summary.cost.quoted ?? 0) / 100).toFixed(2)})`,
  );
  console.log(
    `  Fleiss κ / Krippendorff α                               ${summary.agreement.fleissKappa?.toFixed(3)} / ${summary.agreement.krippendorffAlpha?.toFixed(3)}`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
