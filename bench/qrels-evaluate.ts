/**
 * `qrelay evaluate` against its peer, ir_measures, on the same synthetic data: peak
 * memory (max RSS, from /usr/bin/time) and wall time of each whole process, printed as
 * figure, peer, ratio (qrelay / peer: below 1 is better). Asserts nothing.
 *   node --import tsx bench/qrels-evaluate.ts                 # 10 runs × 1,000 queries × 100 documents
 *   node --import tsx bench/qrels-evaluate.ts --scale paper   # 25 runs × 4,000 queries × 100 documents (or QRELAY_BENCH_SCALE=paper)
 *   node --import tsx bench/qrels-evaluate.ts 3657 1000 25    # queries, documents per query, runs
 * The peer runs bench/peers/ir_measures_evaluate.py with $QRELAY_PYTHON, else .venv/bin/python,
 * else python3 (bench/peers/requirements.txt lists what it needs); without ir_measures the peer
 * columns say so. qrelay runs its build (dist/, compiled first), as `npm start` runs it; its
 * figure includes the whole CLI's start (≈110 MiB for every command's modules). Significance
 * is timed apart (no peer computes it), and so is `--posterior` (the labels' doubt, issue 37),
 * beside it: rows for the table give `--posterior`'s wall time and memory as ratios to the
 * same evaluation without it, and its wall time to ir_measures', all from this run. Issue 37
 * asks for 25 runs × 4,000 queries: that is `--scale paper` (several minutes on a shared
 * 2-core machine); the default sizes stay quick.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { paths } from '../src/paths.js';
import { measureProcess as measure } from './support/measure.js';
import { reportRows, type BenchRow } from './support/table.js';

const args = process.argv.slice(2);
const paper = process.env.QRELAY_BENCH_SCALE === 'paper' || (args.includes('--scale') && args[args.indexOf('--scale') + 1] === 'paper');
const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
const [queries, perQuery, systems] = (numbers.length === 3 ? numbers : paper ? [4000, 100, 25] : [1000, 100, 10]) as [
  number,
  number,
  number,
];
const MEASURES = 'nDCG@10 R@100 Success@10 Judged@10 AP P@10 RR';
const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-evaluate-'));

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = (n: number) => Math.floor(random() * n);

async function write(name: string, lines: (emit: (line: string) => void) => void): Promise<string> {
  const path = join(dir, name);
  const out = createWriteStream(path);
  let buffer: string[] = [];
  lines((l) => {
    buffer.push(l);
    if (buffer.length >= 50_000) {
      out.write(`${buffer.join('\n')}\n`);
      buffer = [];
    }
  });
  out.end(buffer.length ? `${buffer.join('\n')}\n` : '');
  await once(out, 'finish');
  return path;
}

const GRADES = [-1, 0, 0, 1, 2];
const base = await write('base.qrels', (emit) => {
  for (let q = 0; q < queries; q++) for (let j = 0; j < 30; j++) emit(`q${q} 0 doc${q * 50 + j} ${GRADES[pick(GRADES.length)]}`);
});
const next = await write('new.qrels', (emit) => {
  for (let q = 0; q < queries; q++)
    for (let j = 0; j < 35; j++) emit(`q${q} 0 doc${q * 50 + j} ${j >= 30 ? 1 : GRADES[pick(GRADES.length)]}`);
});
// the new qrels' crowd-labelled pairs (j >= 30) in doubt, as export-qrels --posterior writes them (pairs left out are certain)
const POSTERIORS = [0.6, 0.75, 0.85, 0.95];
const posterior = await write('posterior.jsonl', (emit) => {
  for (let q = 0; q < queries; q++)
    for (let j = 30; j < 35; j++) emit(JSON.stringify({ query_id: `q${q}`, doc_id: `doc${q * 50 + j}`, p_relevant: POSTERIORS[pick(4)] }));
});
const runs: string[] = [];
for (let s = 0; s < systems; s++) {
  runs.push(
    await write(`sys${s}.run`, (emit) => {
      for (let q = 0; q < queries; q++) {
        // judged documents now and then, long document ids as real collections have, ties in the scores
        for (let r = 0; r < perQuery; r++)
          emit(
            `q${q} Q0 ${r % 3 === 0 && r < 120 ? `doc${q * 50 + r / 3}` : `collection-doc-${q}-${r}-${pick(1000)}`} ${r + 1} ${(pick(1000) / 100).toFixed(2)} sys${s}`,
          );
      }
    }),
  );
}

function python(): string | undefined {
  const candidates = [process.env.QRELAY_PYTHON, join(paths.root, '.venv', 'bin', 'python'), 'python3'].filter(
    (p): p is string => !!p && (!p.includes('/') || existsSync(p)),
  );
  return candidates.find((p) => spawnSync(p, ['-c', 'import ir_measures'], { stdio: 'ignore' }).status === 0);
}

const build = spawnSync(process.execPath, [join(paths.root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  cwd: paths.root,
  stdio: 'inherit',
});
if (build.status !== 0) throw new Error('tsc -p tsconfig.build.json failed');
const cli = [join(paths.root, 'dist', 'src', 'cli.js'), 'evaluate', '--qrels', base, '--qrels', next, ...runs, '--measures', MEASURES];
const py = python();
const qrelay = measure(process.execPath, [...cli, '--no-significance']);
const peer = py
  ? measure(py, [join(paths.root, 'bench', 'peers', 'ir_measures_evaluate.py'), MEASURES, base, next, ...runs])
  : 'no Python with ir_measures (pip install -r bench/peers/requirements.txt)';
// few trials: the randomization test costs trials × queries per pair, and the paper scale has 300 pairs per measure
const withSignificance = measure(process.execPath, [...cli, '--randomization-trials', '100', '--bootstrap-samples', '200']);
// the same with the labels' doubt (issue 37): its cost beside today's evaluation, as a ratio
const withPosterior = measure(process.execPath, [
  ...cli,
  '--randomization-trials',
  '100',
  '--bootstrap-samples',
  '200',
  '--posterior',
  posterior,
]);

const row = (label: string, figure: string, peerFigure: string, ratio: string) =>
  console.log(`${label.padEnd(44)} ${figure.padStart(12)} ${peerFigure.padStart(14)} ${ratio.padStart(7)}`);
console.log(`${systems} runs × ${queries} queries × ${perQuery} documents, measures ${MEASURES}, base and new qrels`);
row('', 'qrelay', 'ir_measures', 'ratio');
for (const [label, key, unit] of [
  ['evaluate peak memory (max RSS)', 'peakMiB', 'MiB'],
  ['evaluate wall time', 'seconds', 's'],
] as const) {
  const mine = typeof qrelay === 'string' ? null : qrelay[key];
  const theirs = typeof peer === 'string' ? null : peer[key];
  row(
    label,
    mine === null ? 'failed' : `${mine.toFixed(key === 'seconds' ? 1 : 0)} ${unit}`,
    theirs === null ? 'n/a' : `${theirs.toFixed(key === 'seconds' ? 1 : 0)} ${unit}`,
    mine !== null && theirs !== null ? (mine / theirs).toFixed(2) : '–',
  );
}
// the run's table (bench/run-all.ts): both figures against ir_measures from this run, and
// evaluate --posterior (issue 37) against today's evaluation (the same significance, without
// --posterior) and against ir_measures, all measured in this run
const figure = `evaluate ${systems} runs × ${queries} queries`;
const rows: BenchRow[] = [];
if (typeof qrelay !== 'string' && typeof peer !== 'string') {
  rows.push(
    { figure: `${figure}: peak memory`, ours: qrelay.peakMiB, peer: 'ir_measures', theirs: peer.peakMiB, unit: 'MiB', better: 'lower' },
    { figure: `${figure}: wall time`, ours: qrelay.seconds, peer: 'ir_measures', theirs: peer.seconds, unit: 's', better: 'lower' },
  );
}
if (typeof withPosterior !== 'string') {
  const posteriorFigure = `${figure} --posterior (100 trials, 200 samples)`;
  if (typeof withSignificance !== 'string')
    rows.push(
      {
        figure: `${posteriorFigure}: wall time`,
        ours: withPosterior.seconds,
        peer: 'evaluate without --posterior',
        theirs: withSignificance.seconds,
        unit: 's',
        better: 'lower',
      },
      {
        figure: `${posteriorFigure}: peak memory`,
        ours: withPosterior.peakMiB,
        peer: 'evaluate without --posterior',
        theirs: withSignificance.peakMiB,
        unit: 'MiB',
        better: 'lower',
      },
    );
  if (typeof peer !== 'string')
    rows.push({
      figure: `${posteriorFigure}: wall time`,
      ours: withPosterior.seconds,
      peer: 'ir_measures',
      theirs: peer.seconds,
      unit: 's',
      better: 'lower',
    });
}
if (rows.length > 0) reportRows(rows);
if (typeof qrelay === 'string') console.log(`qrelay: ${qrelay}`);
if (typeof peer === 'string') console.log(`peer: ${peer}`);
if (typeof withSignificance === 'string') console.log(`with significance: ${withSignificance}`);
else row('with significance (100 trials, 200 samples)', `${withSignificance.seconds.toFixed(1)} s`, '', '');
if (typeof withSignificance !== 'string') row('  its peak memory', `${withSignificance.peakMiB.toFixed(0)} MiB`, '', '');
if (typeof withPosterior === 'string') console.log(`with --posterior: ${withPosterior}`);
else {
  const ratio = (mine: number, today: number | undefined) => (today === undefined ? '–' : (mine / today).toFixed(2));
  const today = typeof withSignificance === 'string' ? undefined : withSignificance;
  row(
    '  and --posterior (ratio: to significance)',
    `${withPosterior.seconds.toFixed(1)} s`,
    '',
    ratio(withPosterior.seconds, today?.seconds),
  );
  row('  its peak memory', `${withPosterior.peakMiB.toFixed(0)} MiB`, '', ratio(withPosterior.peakMiB, today?.peakMiB));
}
rmSync(dir, { recursive: true, force: true });
