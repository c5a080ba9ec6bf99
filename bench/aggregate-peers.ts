/**
 * qrelay's aggregation and agreement against their Python peers, on the same votes in the
 * same run: crowd-kit's MajorityVote and DawidSkene, statsmodels' fleiss_kappa, the
 * krippendorff package's alpha (bench/peers/aggregate_peers.py). Each side is timed as the
 * best of a few repeats, in process (the interpreters' start and imports excluded), from
 * the vote list to the result. Prints figure, peer's figure, ratio (bench/support/table.ts)
 * and each side's values; asserts nothing.
 *   node --import tsx bench/aggregate-peers.ts [cases=4056] [workers=200]
 * The votes: `cases` items of the paper's batch, 3 votes each from a seeded population (one
 * worker in ten always says yes, the rest right 70-95% of the time). The peers run from the
 * project's .venv, which this bench creates or completes when it lacks
 * bench/peers/requirements.txt (test/support/python-venv.ts, as the tests' setup does).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dawidSkene, fleissKappa, krippendorffAlpha, majorityVote, type Vote } from '../src/aggregate/index.js';
import type { Judgment } from '../src/domain/cases.js';
import { paths } from '../src/paths.js';
import { BENCH_REQUIREMENTS, ensureVenv, TEST_REQUIREMENTS, VENV_PYTHON } from '../test/support/python-venv.js';
import { reportRows, type BenchRow } from './support/table.js';

const [cases = 4056, workerCount = 200] = process.argv
  .slice(2)
  .filter((a) => /^\d+$/.test(a))
  .map(Number);
const REPEATS = 5;
/** EM iterations on both sides, run in full (tolerance 0): the same work whatever the convergence. */
const DS_ITERATIONS = 100;

let seed = 11;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const workers = Array.from({ length: workerCount }, (_, w) => ({ id: `W${w}`, alwaysYes: w % 10 === 0, accuracy: 0.7 + 0.25 * random() }));
const votes: Vote<Judgment>[] = [];
for (let i = 0; i < cases; i++) {
  const truth: Judgment = random() < 0.4 ? 'yes' : 'no';
  const taken = new Set<number>();
  while (taken.size < 3) taken.add(Math.floor(random() * workerCount));
  for (const w of taken) {
    const worker = workers[w]!;
    const right = random() < worker.accuracy;
    const label: Judgment = worker.alwaysYes ? 'yes' : right ? truth : truth === 'yes' ? 'no' : 'yes';
    votes.push({ item: `q${i}:d${i}`, worker: worker.id, label });
  }
}
const yn = ['yes', 'no'] as const;

function bestOf<T>(f: () => T): { seconds: number; result: T } {
  let best = Infinity;
  let result: T | undefined;
  for (let r = 0; r < REPEATS; r++) {
    const t = performance.now();
    result = f();
    best = Math.min(best, (performance.now() - t) / 1000);
  }
  return { seconds: best, result: result as T };
}

const yes = (items: readonly { label: Judgment | null }[]) => items.filter((i) => i.label === 'yes').length;
const ours = {
  majorityVote: bestOf(() => majorityVote<Judgment>().fit(votes, yn)),
  dawidSkene: bestOf(() => dawidSkene<Judgment>({ maxIterations: DS_ITERATIONS, tolerance: 0 }).fit(votes, yn)),
  fleissKappa: bestOf(() => fleissKappa.compute(votes, yn)),
  krippendorffAlpha: bestOf(() => krippendorffAlpha.compute(votes, yn)),
};

interface PeerOutput {
  votes: number;
  seconds: Record<keyof typeof ours, number>;
  values: { majorityVoteYes: number; dawidSkeneYes: number; dawidSkeneIterations: number; fleissKappa: number; krippendorffAlpha: number };
  versions: Record<string, string>;
}

function runPeer(): PeerOutput | string {
  try {
    ensureVenv((line) => process.stdout.write(`${line}\n`), [TEST_REQUIREMENTS, BENCH_REQUIREMENTS]);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-aggregate-peers-'));
  try {
    const file = join(dir, 'votes.jsonl');
    writeFileSync(file, votes.map((v) => JSON.stringify({ worker: v.worker, task: v.item, label: v.label })).join('\n') + '\n');
    const res = spawnSync(
      VENV_PYTHON,
      [join(paths.root, 'bench', 'peers', 'aggregate_peers.py'), file, String(REPEATS), String(DS_ITERATIONS)],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    );
    if (res.status !== 0) return `the peer exited with ${res.status}: ${res.stderr.trim().split('\n').slice(-3).join(' / ')}`;
    return JSON.parse(res.stdout) as PeerOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const peer = runPeer();
console.log(`${cases} items x 3 votes (${votes.length} votes), ${workerCount} workers; best of ${REPEATS} runs each, in process`);
const mine = {
  majorityVoteYes: yes(ours.majorityVote.result.items),
  dawidSkeneYes: yes(ours.dawidSkene.result.items),
  dawidSkeneIterations: ours.dawidSkene.result.iterations,
  fleissKappa: ours.fleissKappa.result.value,
  krippendorffAlpha: ours.krippendorffAlpha.result.value,
};
console.log(`qrelay values: ${JSON.stringify(mine)}`);
if (typeof peer === 'string') {
  console.log(`peer: ${peer}`);
  process.exit(1);
}
console.log(`peer values:   ${JSON.stringify(peer.values)}`);
console.log(
  `peer versions: ${Object.entries(peer.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
const figures: [keyof typeof ours, string, string][] = [
  ['majorityVote', 'majority vote', 'crowd-kit MajorityVote'],
  ['dawidSkene', `Dawid–Skene (${DS_ITERATIONS} iterations)`, 'crowd-kit DawidSkene'],
  ['fleissKappa', 'Fleiss κ', 'statsmodels fleiss_kappa'],
  ['krippendorffAlpha', 'Krippendorff α (nominal)', 'krippendorff.alpha'],
];
const rows: BenchRow[] = figures.map(([key, figure, name]) => ({
  figure: `${figure}, ${cases} items x 3 votes`,
  ours: ours[key].seconds * 1000,
  peer: name,
  theirs: peer.seconds[key] * 1000,
  unit: 'ms',
  better: 'lower',
}));
reportRows(rows);
