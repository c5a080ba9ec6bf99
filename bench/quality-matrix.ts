/**
 * Issue 35, item 5: the quality targets over a matrix of populations that qrelay did not
 * write. Each cell mixes honest workers (check accuracy equal to item accuracy, 0.80–0.97)
 * with one or more adversarial families at stated parameters (docs/population.md); every
 * cell runs `qrelay simulate --json` for several seeds on the sample's cases (the first
 * `cases` of them, with their truth and the sample's gold pool), the path bench/quality.ts
 * takes, and the targets are computed from the forecasts alone
 * (src/simulation/quality-targets.ts, robustness-targets.ts). Per target it prints the mean
 * over the cells where the target applies and the worst cell, beside the target. Asserts nothing.
 *   node --import tsx bench/quality-matrix.ts [seeds=5] [cases=150; 270 under --scale paper]
 *   QRELAY_BENCH_MATRIX_CELLS=honest-only,mixed ...   # only the cells whose name contains one of these
 *   QRELAY_BENCH_MATRIX_KEEP=/tmp/dir ...   # keep each run's forecast (CELL-SEED.forecast.json) and the inputs
 *     and verdicts of its last LLM-assisted fit (CELL-SEED.round.json, QRELAY_LLM_RECORD), to replay them
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Judgment } from '../src/domain/cases.js';
import { paths } from '../src/paths.js';
import type { Forecast } from '../src/simulation/forecast.js';
import { checkPopulation, type PopulationInput } from '../src/simulation/population.js';
import { meanOf, qualityFigures, type QualityFigures } from '../src/simulation/quality-targets.js';
import { robustnessFigures, type RobustnessFigures } from '../src/simulation/robustness-targets.js';
import { importSampleBatch, isolatedQrelay, runQrelay, writeSampleCases } from './support/qrelay-process.js';
import { reportRows, TARGET_PEER, type BenchRow } from './support/table.js';

const seedCount = Number(process.argv[2] ?? '5');
// 150 cases keep the matrix affordable under `npm run bench`; the paper scale takes the whole sample
const caseCount = Number(process.argv[3] ?? (process.env.QRELAY_BENCH_SCALE === 'paper' ? '270' : '150'));
const seeds = Array.from({ length: seedCount }, (_, i) => `matrix-${i + 1}`);
const only = (process.env.QRELAY_BENCH_MATRIX_CELLS ?? '').split(',').filter((c) => c !== '');
// a directory to keep each run's forecast and its last LLM-assisted fit's inputs in (for study)
const keep = process.env.QRELAY_BENCH_MATRIX_KEEP ?? '';

interface Cell {
  name: string;
  /** The population file; `default` is samples/population.json, the reference for cost. */
  population: PopulationInput | 'default';
  /** The LLM-assisted workers never write the canary: the cell counts for the recall target. */
  canaryNever: boolean;
}

/** Everything but the workers' kinds as the default population has it (its size, visits and arrivals). */
const base = { size: 60, arrivalsPerHour: 40, hitsPerVisit: 8 } as const;
const llmCell = (name: string, accuracy: number, canary: 'never' | 'sometimes' | 'always'): Cell => ({
  name,
  population: {
    ...base,
    shares: { honest: 0.8, llm: 0.2 },
    llm: {
      accuracy,
      canaryEcho: canary === 'never' ? 0 : canary === 'sometimes' ? 0.5 : 1,
      ...(canary === 'always' && { commentShare: 1 }),
    },
  },
  canaryNever: canary === 'never',
});

const CELLS: readonly Cell[] = [
  { name: 'default', population: 'default', canaryNever: false },
  { name: 'honest-only', population: { ...base, shares: { honest: 1 } }, canaryNever: false },
  {
    name: 'honest+bad',
    population: { ...base, shares: { honest: 0.7, spammer: 0.1, alwaysYes: 0.1, alwaysNo: 0.1 } },
    canaryNever: false,
  },
  llmCell('honest+llm-0.65-never', 0.65, 'never'),
  llmCell('honest+llm-0.90-never', 0.9, 'never'),
  llmCell('honest+llm-0.80-sometimes', 0.8, 'sometimes'),
  llmCell('honest+llm-0.80-always', 0.8, 'always'),
  {
    name: 'honest+careless',
    population: { ...base, shares: { honest: 0.8, careless: 0.2 }, careless: { after: { min: 2, max: 6 }, answer: 'random' } },
    canaryNever: false,
  },
  {
    name: 'honest+copiers',
    population: { ...base, shares: { honest: 0.8, copier: 0.2 }, copying: { accuracy: { min: 0.6, max: 0.8 }, rate: 1 } },
    canaryNever: false,
  },
  {
    name: 'mixed',
    population: {
      ...base,
      shares: { honest: 0.6, spammer: 0.05, alwaysYes: 0.05, alwaysNo: 0.05, llm: 0.1, careless: 0.1, copier: 0.05 },
      llm: { accuracy: 0.8, canaryEcho: 0 },
    },
    canaryNever: true,
  },
];
const cells = CELLS.filter((c) => only.length === 0 || c.name === 'default' || only.some((o) => c.name.includes(o)));
for (const cell of cells) {
  if (cell.population === 'default') continue;
  const checked = checkPopulation(cell.population);
  if (!checked.ok) throw new Error(`cell ${cell.name}: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
}

interface Run {
  seed: string;
  quality: QualityFigures;
  robustness: RobustnessFigures;
}

/** One cell's figures over its seeds: counts pooled, the rest averaged. */
interface CellFigures {
  name: string;
  canaryNever: boolean;
  honestLost: number | null;
  honestStopped: number;
  honestWorkers: number;
  badBlocked: number | null;
  carelessAfter: number | null;
  carelessWorst: number | null;
  /** Share of the workers who turned careless (and worked after it) stopped within 2 assignments of the change. */
  carelessStopped: number | null;
  llmRecall: number | null;
  llmPrecision: number | null;
  /** Balanced accuracy of the exported labels less the Bayes optimum's, in points. */
  baGap: number | null;
  costPerLabel: number | null;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function cellFigures(cell: Cell, runs: readonly Run[]): CellFigures {
  const after = runs.flatMap((r) => r.robustness.careless.afterChange);
  return {
    name: cell.name,
    canaryNever: cell.canaryNever,
    honestLost: ratio(sum(runs.map((r) => r.robustness.honest.lost)), sum(runs.map((r) => r.robustness.honest.assignments))),
    honestStopped: sum(runs.map((r) => r.robustness.honest.stopped)),
    honestWorkers: sum(runs.map((r) => r.robustness.honest.workers)),
    badBlocked: ratio(sum(runs.map((r) => r.quality.bad.blocked)), sum(runs.map((r) => r.quality.bad.workers))),
    carelessAfter: after.length === 0 ? null : sum(after) / after.length,
    carelessWorst: after.length === 0 ? null : Math.max(...after),
    carelessStopped: ratio(sum(runs.map((r) => r.robustness.careless.stoppedWithin)), after.length),
    llmRecall: ratio(sum(runs.map((r) => r.quality.llm.truePositives)), sum(runs.map((r) => r.quality.llm.workers))),
    llmPrecision: ratio(sum(runs.map((r) => r.quality.llm.truePositives)), sum(runs.map((r) => r.quality.llm.flagged))),
    baGap: meanOf(
      runs.map((r) =>
        r.quality.balancedAccuracy === null || r.quality.optimum === null ? null : 100 * (r.quality.balancedAccuracy - r.quality.optimum),
      ),
    ),
    costPerLabel: meanOf(runs.map((r) => r.quality.costPerLabel)),
  };
}

/** Today's cost per label on the default population (bench/quality.ts records it): the cost target's reference. */
const baseline = z
  .object({ measured: z.string(), costPerLabel: z.number().positive() })
  .parse(JSON.parse(readFileSync(join(paths.root, 'bench', 'quality-baseline.json'), 'utf8')));

const { dir, env } = await isolatedQrelay('quality-matrix', { db: 28_900, api: 19_300, marketplace: 19_900 });
const files = writeSampleCases(dir, caseCount);
const truth = new Map<string, Judgment>();
for (const line of readFileSync(files.truth, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const t = JSON.parse(line) as { query_id: string; chunk_id: string; label: Judgment };
  truth.set(`${t.query_id}\t${t.chunk_id}`, t.label);
}
const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const num = (x: number | null, digits = 2) => (x === null ? 'n/a' : x.toFixed(digits));

try {
  await importSampleBatch(env, 'matrix', files.cases);
  console.log(`quality matrix: ${cells.length} cells x ${seeds.length} seeds, ${truth.size} cases of the sample`);
  const measured: CellFigures[] = [];
  for (const cell of cells) {
    const population = cell.population === 'default' ? join(paths.samples, 'population.json') : join(dir, `${cell.name}.json`);
    if (cell.population !== 'default')
      writeFileSync(population, JSON.stringify({ notes: [`bench/quality-matrix.ts cell ${cell.name}`], ...cell.population }));
    const runs: Run[] = [];
    for (const seed of seeds) {
      const options = ['--population', population, '--truth', files.truth, '--seed', seed];
      const kept = keep === '' ? null : join(keep, `${cell.name}-${seed}`);
      const simulate = () =>
        runQrelay(kept === null ? env : { ...env, QRELAY_LLM_RECORD: `${kept}.round.json` }, [
          ...'simulate matrix --as matrix-sim --replace --json'.split(' '),
          ...options,
        ]);
      let r = await simulate();
      // the same seed gives the same run: a second failure is the code's, a first may be the shared machine's
      if (r.code !== 0) {
        console.log(`  ${cell.name} ${seed}: qrelay simulate exited with ${r.code}; once more`);
        r = await simulate();
      }
      if (r.code !== 0) throw new Error(`qrelay simulate (cell ${cell.name}, seed ${seed}) exited with ${r.code}`);
      const forecast = JSON.parse(r.stdout) as Forecast;
      if (kept !== null) writeFileSync(`${kept}.forecast.json`, r.stdout);
      const run = { seed, quality: qualityFigures(forecast, truth), robustness: robustnessFigures(forecast) };
      runs.push(run);
      const { quality: q, robustness: h } = run;
      console.log(
        `  ${cell.name} ${seed}: honest lost ${h.honest.lost}/${h.honest.assignments}, stopped ${h.honest.stopped}/${h.honest.workers}; ` +
          `bad blocked ${q.bad.blocked}/${q.bad.workers}; careless after change [${h.careless.afterChange.join(', ')}] (stopped ${h.careless.stopped}, within 2 ${h.careless.stoppedWithin}); ` +
          `LLM flagged ${q.llm.truePositives}/${q.llm.workers} (flags ${q.llm.flagged}); balanced accuracy ${pct(q.balancedAccuracy)} (optimum ${pct(q.optimum)}); ` +
          `$${num(q.costPerLabel, 3)} per label (${r.seconds.toFixed(0)} s)`,
      );
    }
    measured.push(cellFigures(cell, runs));
  }

  const reference = measured.find((c) => c.name === 'default')?.costPerLabel ?? null;
  console.log('\nper cell (seeds pooled):');
  for (const c of measured)
    console.log(
      `  ${c.name.padEnd(26)} honest lost ${pct(c.honestLost).padStart(6)}, stopped ${c.honestStopped}/${c.honestWorkers}; bad blocked ${pct(c.badBlocked)}; ` +
        `careless after change ${num(c.carelessAfter)} (worst ${num(c.carelessWorst, 0)}, stopped within 2 ${pct(c.carelessStopped)}); LLM recall ${num(c.llmRecall)}, precision ${num(c.llmPrecision)}; ` +
        `balanced accuracy − optimum ${num(c.baGap, 1)} pt; cost per label $${num(c.costPerLabel, 3)}` +
        (reference === null || c.costPerLabel === null ? '' : ` (${(c.costPerLabel / reference).toFixed(2)}× the default population's)`),
    );

  interface Target {
    name: string;
    value: (c: CellFigures) => number | null;
    better: 'lower' | 'higher';
    bound: number | null;
    show: (x: number | null) => string;
    /** The figure as the bench table carries it: its unit and the factor from the value. */
    unit: string;
    scale: number;
    applies: (c: CellFigures) => boolean;
    /** Without a bound: the peer the table sets the figure beside, and its figure (in the table's unit). */
    peer?: { name: string; figure: number };
  }
  const every = () => true;
  const honestCells = (c: CellFigures) => c.name !== 'default';
  const two = (x: number | null) => num(x);
  const target = (
    name: string,
    value: Target['value'],
    better: Target['better'],
    bound: number | null,
    show: Target['show'],
    more: Partial<Pick<Target, 'unit' | 'scale' | 'applies' | 'peer'>> = {},
  ): Target => ({ name, value, better, bound, show, unit: '', scale: 1, applies: every, ...more });
  const percent = { unit: '%', scale: 100 } as const;
  const times = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}×`);
  const targets: Target[] = [
    target('honest assignments lost', (c) => c.honestLost, 'lower', 0.02, pct, { ...percent, applies: honestCells }),
    target(
      'honest workers stopped',
      (c) => (c.honestWorkers === 0 ? null : c.honestStopped),
      'lower',
      0,
      (x) => num(x, 1),
      {
        applies: honestCells,
      },
    ),
    target('bad workers (2+ assignments) blocked', (c) => c.badBlocked, 'higher', 0.95, pct, percent),
    target('careless: assignments after the change', (c) => c.carelessAfter, 'lower', 2, two),
    target('careless: stopped within 2 assignments of the change', (c) => c.carelessStopped, 'higher', 1, pct, percent),
    target('LLM-assisted recall (canary never)', (c) => c.llmRecall, 'higher', 0.8, two, { applies: (c) => c.canaryNever }),
    target('LLM-assisted precision', (c) => c.llmPrecision, 'higher', 0.9, two),
    target(
      'balanced accuracy − Bayes optimum (pt)',
      (c) => c.baGap,
      'higher',
      -1,
      (x) => num(x, 1),
      { unit: 'pt' },
    ),
    // the issue's cost target: the default population's cost per label at most 10% above
    // today's, the baseline bench/quality.ts compares with (its seeds and all the sample's cases)
    target(
      `cost per label, default population / $${baseline.costPerLabel.toFixed(3)} (${baseline.measured.slice(0, 10)})`,
      (c) => (c.costPerLabel === null ? null : c.costPerLabel / baseline.costPerLabel),
      'lower',
      1.1,
      times,
      { unit: '×', applies: (c) => c.name === 'default' },
    ),
    // what each other population costs beside the default one: no bound, for the reader
    target(
      "cost per label / the default population's",
      (c) => (reference === null || c.costPerLabel === null ? null : c.costPerLabel / reference),
      'lower',
      null,
      times,
      { unit: '×', applies: honestCells, peer: { name: 'default population', figure: 1 } },
    ),
  ];

  console.log(`\nissue 35 targets over the matrix (${seeds.length} seeds per cell, ${truth.size} cases): mean over the cells, worst cell`);
  const rows: BenchRow[] = [];
  for (const t of targets) {
    const values = measured.filter(t.applies).flatMap((c) => {
      const v = t.value(c);
      return v === null ? [] : [{ cell: c.name, v }];
    });
    if (values.length === 0) {
      console.log(`  ${t.name}: no cell measured it`);
      continue;
    }
    const mean = sum(values.map((x) => x.v)) / values.length;
    const worst = values.reduce((a, b) => ((t.better === 'lower' ? b.v > a.v : b.v < a.v) ? b : a));
    const met = (x: number) =>
      t.bound === null ? '' : (t.better === 'lower' ? x <= t.bound + 1e-9 : x >= t.bound - 1e-9) ? ' met' : ' NOT met';
    const target = t.bound === null ? 'no bound' : `${t.better === 'lower' ? '≤' : '≥'} ${t.show(t.bound)}`;
    console.log(
      `  ${t.name.padEnd(42)} mean ${t.show(mean)}${met(mean)}; worst ${t.show(worst.v)} (${worst.cell})${met(worst.v)}; target ${target}; ${values.length} cells`,
    );
    const peer = t.bound === null ? t.peer : { name: TARGET_PEER, figure: t.scale * t.bound };
    if (!peer) continue;
    // a target measured on one cell has one figure: its mean is its worst
    const figures: (readonly [string, number])[] =
      values.length === 1
        ? [[worst.cell, worst.v]]
        : [
            ['mean', mean],
            [`worst: ${worst.cell}`, worst.v],
          ];
    for (const [which, v] of figures)
      rows.push({
        figure: `matrix ${t.name} (${which})`,
        ours: t.scale * v,
        peer: peer.name,
        theirs: peer.figure,
        unit: t.unit,
        better: t.better,
      });
  }
  reportRows(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
