/**
 * `qrelay simulate` at the paper's scale: 4,056 escalated cases (the sample's 270 cases
 * repeated under new query ids, with their true labels), 3 votes each, the default
 * population, on a fresh dev database. Prints the wall time (the target: 60 s on
 * one machine), how it splits between the simulated crowd and the pipeline's collection
 * rounds, and the forecast's figures. Asserts nothing.
 *   node --import tsx bench/simulate.ts [cases=4056]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../src/paths.js';
import type { Forecast } from '../src/simulation/forecast.js';
import { freshEnv, runQrelay, writeSampleCases } from './support/qrelay-cli.js';

const cases = Number(process.argv[2] ?? '4056');
const TARGET_SECONDS = 60;

const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-simulate-'));
const env = await freshEnv(dir, 'bench_simulate');
// the sample's cases, repeated under new query ids until there are `cases` of them
writeSampleCases(dir, cases);
const qrelay = (args: string[]) => runQrelay(env, args);

try {
  for (const [file, kind] of [
    [join(dir, 'cases.jsonl'), 'escalations'],
    [join(paths.samples, 'gold.jsonl'), 'gold'],
  ] as const) {
    const r = await qrelay(['import', file, '--batch', 'scale', '--kind', kind]);
    if (r.code !== 0) throw new Error(`qrelay import exited with ${r.code}: ${r.stdout}`);
  }
  const r = await qrelay(['simulate', 'scale', '--truth', join(dir, 'truth.jsonl'), '--json']);
  if (r.code !== 0) throw new Error(`qrelay simulate exited with ${r.code}: ${r.stdout}`);
  const f = JSON.parse(r.stdout) as Forecast;
  console.log(
    `qrelay simulate, ${f.items} cases x 3 votes, default population, ${process.env.MONGODB_URI ? 'MONGODB_URI' : 'a fresh dev database'}`,
  );
  console.log(
    `  process wall time (start-up to forecast)     ${r.seconds.toFixed(1)} s   target ${TARGET_SECONDS} s   ratio ${(r.seconds / TARGET_SECONDS).toFixed(2)}`,
  );
  console.log(
    `  of which the simulated crowd                 ${f.wall.crowdSeconds.toFixed(1)} s (${f.assignments} assignments: ${((f.wall.crowdSeconds * 1000) / Math.max(1, f.assignments)).toFixed(1)} ms each)`,
  );
  console.log(`  of which the collection rounds (pipeline)    ${f.wall.roundsSeconds.toFixed(1)} s in ${f.wall.rounds} rounds`);
  console.log(
    `  of which copy, publish, report               ${(f.wallSeconds - f.wall.crowdSeconds - f.wall.roundsSeconds).toFixed(1)} s`,
  );
  console.log(
    `  forecast: κ ${f.fleissKappa?.toFixed(3)}, α ${f.krippendorffAlpha?.toFixed(3)}, balanced accuracy ${((f.accuracy?.balancedAccuracy ?? 0) * 100).toFixed(1)}%, cost $${f.cost.total.toFixed(2)} (quote $${f.cost.quote.toFixed(2)}), p50/p90 ${((f.latency.p50Seconds ?? 0) / 3600).toFixed(2)}/${((f.latency.p90Seconds ?? 0) / 3600).toFixed(2)} h simulated`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
