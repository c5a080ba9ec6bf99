/**
 * Worker-level quality control measured with `qrelay simulate` (issue 16, items 1 and 2):
 * for a population and several seeds, the share of spammers, always-yes and always-no
 * workers with two or more assignments who were blocked, the share of diligent workers'
 * assignments discarded, the cost per label and the balanced accuracy against the sample's
 * truth. The sample's cases (repeated under new query ids up to `cases`), on a fresh dev
 * database. Prints figures, asserts nothing.
 *   node --import tsx bench/worker-actions.ts [population=samples/population.json] [seeds=3] [cases=270] [on|off]
 * `off`: the same with `--worker-decisions off` (the checks alone, per assignment: qrelay before
 * issue 16), for the comparison.
 */
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { paths } from '../src/paths.js';
import type { Forecast } from '../src/simulation/forecast.js';
import { isolatedQrelay, runQrelay, writeSampleCases } from './support/qrelay-process.js';

const population = resolve(process.argv[2] ?? join(paths.samples, 'population.json'));
const seeds = Number(process.argv[3] ?? '3');
const cases = Number(process.argv[4] ?? '270');
const decisions = process.argv[5] === 'off' ? 'off' : 'on';
const BAD = new Set(['spammer', 'alwaysYes', 'alwaysNo']);

const { dir, env } = await isolatedQrelay('worker-actions', { db: 27_900, api: 18_100, marketplace: 18_700 });
const files = writeSampleCases(dir, cases);
const qrelay = (args: string[]) => runQrelay(env, args);

export interface Figures {
  badBlocked: number;
  badEligible: number;
  diligentDiscarded: number;
  diligentAssignments: number;
  perLabel: number | null;
  balancedAccuracy: number | null;
  costOverQuote: number;
}

/** The issue's figures from one forecast (pure). */
export function figures(f: Forecast): Figures {
  const bad = f.workers.filter((w) => BAD.has(w.kind) && w.assignments >= 2);
  const diligent = f.workers.filter((w) => w.kind === 'diligent');
  return {
    badBlocked: bad.filter((w) => w.blocked).length,
    badEligible: bad.length,
    diligentDiscarded: diligent.reduce((s, w) => s + w.discardedAssignments + w.rejectedAssignments, 0),
    diligentAssignments: diligent.reduce((s, w) => s + w.assignments, 0),
    perLabel: f.cost.perLabel,
    balancedAccuracy: f.accuracy?.balancedAccuracy ?? null,
    costOverQuote: f.cost.total / f.cost.quote,
  };
}

const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

try {
  for (const [file, kind] of [
    [files.cases, 'escalations'],
    [join(paths.samples, 'gold.jsonl'), 'gold'],
  ] as const) {
    const r = await qrelay(['import', file, '--batch', 'wa', '--kind', kind]);
    if (r.code !== 0) throw new Error(`qrelay import exited with ${r.code}: ${r.stdout}`);
  }
  const all: Figures[] = [];
  console.log(`worker-level quality control ${decisions}, ${cases} cases, population ${population}`);
  for (let s = 1; s <= seeds; s++) {
    const seed = `wa-seed-${s}`;
    const r = await qrelay([
      'simulate',
      'wa',
      '--population',
      population,
      '--truth',
      files.truth,
      '--seed',
      seed,
      '--replace',
      '--worker-decisions',
      decisions,
      '--json',
    ]);
    if (r.code !== 0) throw new Error(`qrelay simulate exited with ${r.code}: ${r.stdout}`);
    const f = JSON.parse(r.stdout) as Forecast;
    const g = figures(f);
    all.push(g);
    console.log(
      `  seed ${seed}: bad blocked ${g.badBlocked}/${g.badEligible} (${pct(g.badBlocked, g.badEligible)}), diligent discarded ${g.diligentDiscarded}/${g.diligentAssignments} (${pct(g.diligentDiscarded, g.diligentAssignments)}), ` +
        `cost per label $${g.perLabel?.toFixed(3)}, cost/quote ${g.costOverQuote.toFixed(2)}, balanced accuracy ${((g.balancedAccuracy ?? 0) * 100).toFixed(1)}%, ${f.wallSeconds} s`,
    );
    const missed = f.workers.filter((w) => BAD.has(w.kind) && w.assignments >= 2 && !w.blocked);
    if (missed.length > 0)
      console.log(
        `    not blocked: ${missed.map((w) => `${w.workerId} (${w.kind}, ${w.assignments} assignments, ${w.discardedAssignments} discarded)`).join('; ')}`,
      );
  }
  const sum = (k: keyof Figures) => all.reduce((s, g) => s + (g[k] ?? 0), 0);
  console.log(
    `  all ${seeds} seeds: bad blocked ${pct(sum('badBlocked'), sum('badEligible'))} (target >= 95%), diligent discarded ${pct(sum('diligentDiscarded'), sum('diligentAssignments'))} (target <= 2%), ` +
      `cost per label $${(sum('perLabel') / seeds).toFixed(3)}, balanced accuracy ${((100 * sum('balancedAccuracy')) / seeds).toFixed(1)}%`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
