/**
 * Issue 16's four quality targets for the default population (samples/population.json) on
 * the bundled sample (270 escalated cases, its gold pool, its hidden labels as the truth),
 * each averaged over several seeds of `qrelay simulate --json` on a fresh dev database:
 *   (a) balanced accuracy of the labels export-qrels writes by default, against the
 *       Bayes-optimal decision from the same votes with each worker's true error rates
 *       (src/quality/bayes-optimal.ts; LLM-assisted workers, whose true accuracy is unknown,
 *       get their empirical per-class accuracy against the truth): target ≥ optimum − 1 pt;
 *   (b) share of spammer, always-yes and always-no workers with 2 or more assignments who
 *       were blocked (≥ 95%), and share of diligent workers' assignments discarded (≤ 2%);
 *   (c) recall (≥ 0.80) and precision (≥ 0.90) of the `llm-assisted` flag;
 *   (d) cost per label against the baseline: the same seeds measured on main before issue 16
 *       (bench/quality-baseline.json, with its date and commit): target ≤ baseline.
 * It reads only the forecast's JSON fields (src/simulation/quality-targets.ts), so it
 * measures the merged system, whatever does the blocking and the flagging.
 *   node --import tsx bench/quality.ts [seeds=5]
 *   QRELAY_BENCH_QUALITY_RECORD=1 ...   # also write bench/quality-baseline.json from this run
 *   QRELAY_BENCH_QUALITY_ARGS='--adaptive-checks on' ...   # extra `qrelay simulate` options (a variant measured against the default)
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Judgment } from '../src/domain/cases.js';
import { paths } from '../src/paths.js';
import type { Forecast } from '../src/simulation/forecast.js';
import { meanOf, qualityFigures, type QualityFigures } from '../src/simulation/quality-targets.js';
import { isolatedQrelay, runQrelay } from './support/qrelay-process.js';
import { reportRows, type BenchRow } from './support/table.js';

const seeds = Array.from({ length: Number(process.argv[2] ?? '5') }, (_, i) => `quality-${i + 1}`);
const baselineFile = join(paths.root, 'bench', 'quality-baseline.json');

interface Baseline {
  measured: string;
  commit: string;
  note: string;
  seeds: string[];
  costPerLabel: number;
  perSeed: Record<string, number | null>;
}

const { dir, env } = await isolatedQrelay('quality', { db: 28_400, api: 19_100, marketplace: 19_700 });

const truth = new Map<string, Judgment>();
const truthLines: string[] = [];
for (const line of readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const c = JSON.parse(line) as { query_id: string; chunk_id: string; hidden_label: Judgment };
  truth.set(`${c.query_id}\t${c.chunk_id}`, c.hidden_label);
  truthLines.push(JSON.stringify({ query_id: c.query_id, chunk_id: c.chunk_id, label: c.hidden_label }));
}
writeFileSync(join(dir, 'truth.jsonl'), `${truthLines.join('\n')}\n`);

const qrelay = (args: string[]) => runQrelay(env, args);

const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const met = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? 'met' : 'NOT met');

try {
  for (const [file, kind] of [
    [join(paths.samples, 'escalations.jsonl'), 'escalations'],
    [join(paths.samples, 'gold.jsonl'), 'gold'],
  ] as const) {
    const r = await qrelay(['import', file, '--batch', 'quality', '--kind', kind]);
    if (r.code !== 0) throw new Error(`qrelay import exited with ${r.code}: ${r.stdout}`);
  }
  const runs: { seed: string; figures: QualityFigures; forecast: Forecast }[] = [];
  for (const seed of seeds) {
    const r = await qrelay([
      'simulate',
      'quality',
      '--truth',
      join(dir, 'truth.jsonl'),
      '--seed',
      seed,
      '--as',
      `quality-${seed}`,
      '--json',
      ...(process.env.QRELAY_BENCH_QUALITY_ARGS ?? '').split(' ').filter((a) => a !== ''),
    ]);
    if (r.code !== 0) throw new Error(`qrelay simulate --seed ${seed} exited with ${r.code}`);
    const forecast = JSON.parse(r.stdout) as Forecast;
    const figures = qualityFigures(forecast, truth);
    runs.push({ seed, figures, forecast });
    console.log(
      `seed ${seed}: balanced accuracy ${pct(figures.balancedAccuracy)} (${forecast.accuracy?.aggregate ?? 'n/a'}; majority ${pct(forecast.aggregation.majority.balancedAccuracy)}, Dawid–Skene ${pct(forecast.aggregation.ds.balancedAccuracy)}), optimum ${pct(figures.optimum)}; ` +
        `bad blocked ${figures.bad.blocked}/${figures.bad.workers}; diligent discarded ${figures.diligent.discarded}/${figures.diligent.assignments}; ` +
        `LLM flagged ${figures.llm.truePositives}/${figures.llm.workers} (flags ${figures.llm.flagged}); $${figures.costPerLabel?.toFixed(3) ?? 'n/a'} per label, total $${figures.cost.total.toFixed(2)} (quote $${figures.cost.quote.toFixed(2)})`,
    );
  }
  const mean = (f: (q: QualityFigures) => number | null) => meanOf(runs.map((r) => f(r.figures)));
  const ba = mean((q) => q.balancedAccuracy);
  const optimum = mean((q) => q.optimum);
  const blocked = mean((q) => q.bad.share);
  const discarded = mean((q) => q.diligent.share);
  const recall = mean((q) => q.llm.recall);
  const precision = mean((q) => q.llm.precision);
  const cost = mean((q) => q.costPerLabel);
  const majorityBa = meanOf(runs.map((r) => r.forecast.aggregation.majority.balancedAccuracy));
  const dsBa = meanOf(runs.map((r) => r.forecast.aggregation.ds.balancedAccuracy));

  if (process.env.QRELAY_BENCH_QUALITY_RECORD === '1' && cost !== null) {
    const baseline: Baseline = {
      measured: new Date().toISOString(),
      commit: process.env.QRELAY_BENCH_QUALITY_COMMIT ?? 'unknown',
      note: 'cost per label (US dollars) of the default population on the sample, the same seeds, before issue 16 changed collection',
      seeds,
      costPerLabel: cost,
      perSeed: Object.fromEntries(runs.map((r) => [r.seed, r.figures.costPerLabel])),
    };
    writeFileSync(baselineFile, `${JSON.stringify(baseline, null, 2)}\n`);
  }
  const baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as Baseline;

  console.log(`\nissue 16 targets, default population, the sample (${truth.size} cases), mean over ${runs.length} seeds:`);
  const lines: [string, string, string, boolean | null][] = [
    [
      '(a) balanced accuracy of exported labels',
      pct(ba),
      `≥ optimum − 1 pt = ${pct(optimum === null ? null : optimum - 0.01)} (optimum ${pct(optimum)}; majority ${pct(majorityBa)}, Dawid–Skene ${pct(dsBa)})`,
      ba === null || optimum === null ? null : ba >= optimum - 0.01,
    ],
    ['(b) bad workers (2+ assignments) blocked', pct(blocked), '≥ 95%', blocked === null ? null : blocked >= 0.95],
    ['(b) diligent assignments discarded', pct(discarded), '≤ 2%', discarded === null ? null : discarded <= 0.02],
    ['(c) LLM-assisted recall', recall === null ? 'n/a' : recall.toFixed(3), '≥ 0.80', recall === null ? null : recall >= 0.8],
    [
      '(c) LLM-assisted precision',
      precision === null ? 'n/a' : precision.toFixed(3),
      '≥ 0.90',
      precision === null ? null : precision >= 0.9,
    ],
    [
      '(d) cost per label',
      cost === null ? 'n/a' : `$${cost.toFixed(3)}`,
      `≤ $${baseline.costPerLabel.toFixed(3)} (baseline measured ${baseline.measured.slice(0, 10)} at ${baseline.commit})`,
      cost === null ? null : cost <= baseline.costPerLabel + 1e-9,
    ],
  ];
  const width = Math.max(...lines.map((l) => l[0].length));
  const valueWidth = Math.max(...lines.map((l) => l[1].length));
  for (const [name, value, target, ok] of lines)
    console.log(`  ${name.padEnd(width)}  ${value.padStart(valueWidth)}  target ${target}: ${met(ok)}`);

  const rows: BenchRow[] = [];
  if (ba !== null && optimum !== null)
    rows.push({
      figure: 'balanced accuracy (exported labels)',
      ours: 100 * ba,
      peer: 'Bayes optimum − 1 pt',
      theirs: 100 * (optimum - 0.01),
      unit: '%',
      better: 'higher',
    });
  if (blocked !== null)
    rows.push({ figure: 'bad workers blocked', ours: 100 * blocked, peer: 'target', theirs: 95, unit: '%', better: 'higher' });
  if (discarded !== null)
    rows.push({ figure: 'diligent assignments discarded', ours: 100 * discarded, peer: 'target', theirs: 2, unit: '%', better: 'lower' });
  if (recall !== null) rows.push({ figure: 'LLM-assisted recall', ours: recall, peer: 'target', theirs: 0.8, unit: '', better: 'higher' });
  if (precision !== null)
    rows.push({ figure: 'LLM-assisted precision', ours: precision, peer: 'target', theirs: 0.9, unit: '', better: 'higher' });
  if (cost !== null)
    rows.push({
      figure: 'cost per label',
      ours: cost,
      peer: `before issue 16 (${baseline.measured.slice(0, 10)})`,
      theirs: baseline.costPerLabel,
      unit: '$',
      better: 'lower',
    });
  reportRows(rows);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
