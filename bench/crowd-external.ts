/**
 * `bars/crowd-external` as a bench (issue 35): an independent crowd of bots works a batch
 * through the bundled marketplace's worker site, as people's browsers do (log in, take the
 * qualification test, accept, read the form, fill it, post it), while
 * `qrelay review BATCH --until-complete` runs as a user runs it; then the bar's figures
 * from `qrelay export-qrels`, `qrelay workers BATCH --json`, `qrelay audit BATCH --json`
 * and the marketplace's records, each beside its threshold. It measures, asserts nothing.
 *
 * The bots (bench/crowd-external/) are written from the issue's description and the worker
 * site's HTML/HTTP contract, not from qrelay's simulator. Their behaviour is fixed by the
 * seed; arrival and interleaving are real time, so figures vary a little between runs of
 * one seed. Human time is divided by the marketplace's clock speed (the marketplace's
 * accept and submit times stay a person's), so a run takes minutes.
 *   node --import tsx bench/crowd-external.ts [seeds=2] [cases=270] [clock-speed=30] [first-seed=1]
 * QRELAY_BENCH_KEEP=1 keeps each run's data directory (its run.json holds everything read).
 * Other crowds than the default: QRELAY_BENCH_CROWD_MIX="llm=6,diligent=24" changes the counts
 * of the kinds it names; QRELAY_BENCH_CROWD_LLM_SEEN=0.5 lets the page see only that share of
 * the LLM users (the others ask on a second device: no copy, no time away).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDevdb } from '../src/db/devdb.js';
import { simKey as keyOf } from '../src/hits/keys.js';
import { paths } from '../src/paths.js';
import type { Judgment } from './crowd-external/behaviour.js';
import { runBot, type BotRecord } from './crowd-external/bot.js';
import { batchOracle, drawCrowd, parseMix } from './crowd-external/crowd.js';
import { computeFigures, type AuditView, type Figures, type LedgerView, type WorkerRowView } from './crowd-external/figures.js';
import { importSampleBatch, isolatedQrelay, runQrelay, writeSampleCases } from './support/qrelay-process.js';
import { reportRows } from './support/table.js';

const seeds = Number(process.argv[2] ?? '2');
const cases = Number(process.argv[3] ?? '270');
const clockSpeed = Number(process.argv[4] ?? '30');
const firstSeed = Number(process.argv[5] ?? '1');
const mix = parseMix(process.env.QRELAY_BENCH_CROWD_MIX ?? '');
const llmSeen = Number(process.env.QRELAY_BENCH_CROWD_LLM_SEEN ?? '1');
if (!(llmSeen >= 0 && llmSeen <= 1))
  throw new Error(`QRELAY_BENCH_CROWD_LLM_SEEN: "${process.env.QRELAY_BENCH_CROWD_LLM_SEEN}" is not a share between 0 and 1`);
const PRESET = 'lab';
const REVIEW_INTERVAL = '30'; // the CLI's default: what a user runs
const MAX_MINUTES = 25;
const BATCH = 'ext';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The qualification test's answer key: question id -> the selection that scores. */
function examKey(): { key: Map<string, string>; passScore: number } {
  const dir = join(paths.root, 'hits', 'qualification');
  const xml = readFileSync(join(dir, 'dream-exam.answerkey.xml'), 'utf8');
  const key = new Map<string, string>();
  for (const q of xml.matchAll(/<Question>([\s\S]*?)<\/Question>/g)) {
    const id = /<QuestionIdentifier>\s*([^<\s]+)\s*<\/QuestionIdentifier>/.exec(q[1]!)?.[1];
    const right = [...q[1]!.matchAll(/<SelectionIdentifier>\s*([^<\s]+)\s*<\/SelectionIdentifier>\s*<AnswerScore>\s*(\d+)/g)].find(
      (m) => Number(m[2]) > 0,
    )?.[1];
    if (id && right) key.set(id, right);
  }
  const { passScore } = JSON.parse(readFileSync(join(dir, 'dream-exam.json'), 'utf8')) as { passScore: number };
  return { key, passScore };
}

async function must(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const r = await runQrelay(env, args);
  if (r.code !== 0) throw new Error(`bench crowd-external: qrelay ${args.join(' ')} exited with ${r.code}: ${r.stdout.slice(0, 400)}`);
  return r.stdout;
}

function startQrelay(env: NodeJS.ProcessEnv, args: string[], log: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
    cwd: paths.root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  }).on('spawn', () => process.stderr.write(`bench crowd-external: started qrelay ${args.join(' ')} (output in ${log})\n`));
}

async function waitFor(url: string, seconds: number): Promise<void> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end)
      throw new Error(`bench crowd-external: nothing answered at ${url} within ${seconds} s; see the marketplace's log`);
    await sleep(1000);
  }
}

interface RunResult {
  seed: string;
  llmAccuracy: number;
  minutes: number;
  reviewExit: number | null | 'timeout' | 'stalled';
  figures: Figures;
  bots: BotRecord[];
}

async function oneRun(seed: string): Promise<RunResult> {
  const { dir, env } = await isolatedQrelay('crowd-external', { db: 28_100, api: 18_300, marketplace: 18_900 });
  const devdb = process.env.MONGODB_URI ? undefined : await startDevdb({ address: env.QRELAY_DEVDB_ADDRESS!, dataDir: join(dir, 'devdb') });
  const children: ChildProcess[] = [];
  const logOf = (child: ChildProcess, file: string) => {
    const log = createWriteStream(file);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  };
  try {
    const files = writeSampleCases(dir, cases);
    await importSampleBatch(env, BATCH, files.cases);
    const base = env.MARKETPLACE_URL!;
    const port = new URL(base).port;
    const mp = startQrelay(env, ['marketplace', '--port', port, '--clock-speed', String(clockSpeed)], join(dir, 'marketplace.log'));
    children.push(mp);
    logOf(mp, join(dir, 'marketplace.log'));
    await waitFor(`${base}/worker/login`, 180);
    const token = (await must(env, ['marketplace', 'admin-token'])).trim();
    const admin = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${base}/admin${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      if (!res.ok)
        throw new Error(`bench crowd-external: ${method} /admin${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      return (await res.json()) as unknown;
    };

    // the truth by the page's item key: the cases' and the gold pool's
    const caseTruth = new Map<string, Judgment>();
    for (const t of readJsonl<{ query_id: string; chunk_id: string; label: Judgment }>(files.truth))
      caseTruth.set(keyOf(t.query_id, t.chunk_id), t.label);
    const allTruth = new Map(caseTruth);
    for (const g of readJsonl<{ query_id: string; chunk_id: string; label: Judgment }>(join(paths.samples, 'gold.jsonl')))
      allTruth.set(keyOf(g.query_id, g.chunk_id), g.label);
    const oracle = batchOracle(seed, allTruth);
    const bots = drawCrowd(seed, oracle, mix, 90, { llmSeen });
    const records = new Map<string, string>();
    for (const b of bots) {
      const made = (await admin('POST', '/workers', {
        displayName: b.name,
        password: b.password,
        profile: { adult: true, locale: { Country: 'US' } },
      })) as { workerId: string };
      records.set(b.name, made.workerId);
    }
    await must(env, ['publish', BATCH, '--target', 'local', '--preset', PRESET, '--budget', '1000']);

    const exam = examKey();
    let stop = false;
    const started = Date.now();
    let lastSubmit = Date.now();
    const run = {
      base,
      clockSpeed,
      examKey: exam.key,
      passScore: exam.passScore,
      stopped: () => stop,
      submitted: () => (lastSubmit = Date.now()),
    };
    const working = Promise.all(bots.map((b) => runBot(b, run)));
    const review = startQrelay(env, ['review', BATCH, '--until-complete', '--interval', REVIEW_INTERVAL], join(dir, 'review.log'));
    children.push(review);
    logOf(review, join(dir, 'review.log'));
    // the review ends by itself when every item has its votes; it cannot when every worker is stopped, so a
    // batch where no bot submitted anything for a while (or that runs MAX_MINUTES) is ended here
    const stallMinutes = 3 * Math.max(1, 30 / clockSpeed);
    let watchdog: NodeJS.Timeout | undefined;
    const reviewExit = await Promise.race([
      new Promise<number | null>((r) => review.on('exit', (code) => r(code))),
      new Promise<'timeout' | 'stalled'>((r) => {
        watchdog = setInterval(() => {
          if (Date.now() - started > MAX_MINUTES * 60_000) r('timeout');
          else if (Date.now() - lastSubmit > stallMinutes * 60_000) r('stalled');
        }, 5000);
      }),
    ]);
    clearInterval(watchdog);
    if (reviewExit === 'timeout' || reviewExit === 'stalled') review.kill('SIGTERM');
    stop = true;
    const botRecords = (await working).map((r) => ({ ...r, workerId: records.get(r.name)! }));
    const minutes = (Date.now() - started) / 60_000;

    const workers = (JSON.parse(await must(env, ['workers', BATCH, '--json'])) as { workers: WorkerRowView[] }).workers;
    const audit = JSON.parse(await must(env, ['audit', BATCH, '--json'])) as AuditView[];
    const qrelsFile = join(dir, 'merged.jsonl');
    // export-qrels merges into base qrels: one pair of a query outside the batch, left out below
    const baseFile = join(dir, 'base.trec');
    writeFileSync(baseFile, 'bench-base 0 bench-doc 0\n');
    await must(env, ['export-qrels', BATCH, '--base', baseFile, '--out', qrelsFile, '--format', 'jsonl']);
    const labels = new Map<string, Judgment>();
    for (const e of readJsonl<{ query_id: string; doc_id: string; rel: number }>(qrelsFile))
      labels.set(keyOf(e.query_id, e.doc_id), e.rel > 0 ? 'yes' : 'no');
    const mpRecords = (await admin('GET', '/records')) as {
      ledger: LedgerView[];
      hits: { assignments: { id: string; status: string }[] }[];
    };
    const assignmentStatus = new Map(mpRecords.hits.flatMap((h) => h.assignments.map((a) => [a.id, a.status] as const)));
    const accuracyOf = new Map(bots.map((b) => [b.name, b.behaviour.accuracy]));
    const figures = computeFigures({
      bots: botRecords.map((r) => ({ ...r, accuracy: accuracyOf.get(r.name) ?? null })),
      workers,
      audit,
      labels,
      truth: caseTruth,
      ledger: mpRecords.ledger,
      assignmentStatus,
    });
    writeFileSync(
      join(dir, 'run.json'),
      JSON.stringify({ seed, llmAccuracy: oracle.llmAccuracy, figures, bots: botRecords, workers, audit }, null, 1),
    );
    return { seed, llmAccuracy: oracle.llmAccuracy, minutes, reviewExit, figures, bots: botRecords };
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await sleep(2000);
    await devdb?.stop();
    if (process.env.QRELAY_BENCH_KEEP) process.stderr.write(`bench crowd-external: kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

function describeBot(b: Figures['perBot'][number]): string {
  const r = b.row;
  const params = Object.entries(b.params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  if (!r) return `  ${b.kind.padEnd(10)} ${b.workerId ?? '?'} ${params}: ${b.submitted} submitted, not in qrelay's workers table`;
  const a = r.assignments;
  const turned = b.kind === 'careless' ? ` (turned after ${String(b.params.k)}; ${b.submittedBeforeStop} submitted before any stop)` : '';
  const stops = b.stops.map((s) => `${s.action}${s.details?.cause ? `(${s.details.cause})` : ''}: ${s.reason.slice(0, 220)}`).join(' | ');
  return [
    `  ${b.kind.padEnd(10)} ${b.workerId ?? '?'} ${params}: ${a.submitted} submitted${turned}, ${a.counted} counted, ${a.discarded} discarded, ${a.rejected} rejected;`,
    `checks ${r.checks.passed}/${r.checks.total}${r.checks.byPolarity ? ` (yes ${r.checks.byPolarity.yes.passed}/${r.checks.byPolarity.yes.total}, no ${r.checks.byPolarity.no.passed}/${r.checks.byPolarity.no.total})` : ''};`,
    `agreement ${r.agreement ? `${r.agreement.agreed}/${r.agreement.compared}` : '?'}; median ${r.medianSecondsPerItem ?? '?'} s/item; flags [${r.flags.join(', ')}];`,
    `blocked ${String(r.blocked)}${r.blockReason ? ` (${r.blockReason.slice(0, 200)})` : ''}${r.llmEvidence ? `; llm evidence: ${r.llmEvidence.join(' / ').slice(0, 300)}` : ''}${stops ? `; audit: ${stops}` : ''}`,
  ].join(' ');
}

/** What qrelay was measured: the commit, and the sources changed in the working tree (others may be editing them). */
function measuredTree(): string {
  const git = (args: string[]) => spawnSync('git', args, { cwd: paths.root, encoding: 'utf8' }).stdout;
  // `git status --short` lines: two status letters, a space, the path
  const dirty = git(['status', '--short', '--', 'src', 'packages/marketplace/src'])
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.slice(3));
  return `commit ${git(['rev-parse', '--short', 'HEAD']).trim()}${dirty.length ? `, with uncommitted changes to ${dirty.join(', ')}` : ''}`;
}

const results: RunResult[] = [];
for (let s = firstSeed; s < firstSeed + seeds; s++) {
  const seed = `ext-seed-${s}`;
  process.stdout.write(
    `\ncrowd-external: seed ${seed}, ${cases} cases, preset ${PRESET}, clock speed ${clockSpeed}, review every ${REVIEW_INTERVAL} s; qrelay at ${measuredTree()}\n` +
      `  crowd: ${Object.entries(mix)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}; LLM users the page sees: ${Math.round(100 * llmSeen)}%\n`,
  );
  const r = await oneRun(seed);
  results.push(r);
  const byKind = new Map<string, number>();
  for (const b of r.bots) byKind.set(b.kind, (byKind.get(b.kind) ?? 0) + b.submissions.length);
  process.stdout.write(
    `  ${r.minutes.toFixed(1)} min, review exit ${String(r.reviewExit)}, LLM right with p=${r.llmAccuracy.toFixed(2)}; assignments submitted by kind: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}\n`,
  );
  const failedExam = r.bots.filter((b) => b.exam === 'failed');
  if (failedExam.length)
    process.stdout.write(
      `  failed the qualification test (never worked): ${failedExam.map((b) => `${b.kind} ${b.workerId ?? ''} (${b.examScore ?? '?'})`).join(', ')}\n`,
    );
  const errors = r.bots.flatMap((b) => b.errors.map((e) => `${b.kind} ${b.workerId ?? ''}: ${e}`));
  if (errors.length) process.stdout.write(`  bot errors (${errors.length}): ${errors.slice(0, 5).join(' || ')}\n`);
  for (const bar of r.figures.bars)
    process.stdout.write(
      `  ${bar.met === null ? '  n/a' : bar.met ? '  met' : 'MISSED'}  ${bar.name.padEnd(42)} ${bar.shown.padEnd(44)} bar ${bar.threshold}\n`,
    );
  process.stdout.write('  every bot, as qrelay saw it:\n');
  for (const b of r.figures.perBot.filter((x) => x.submitted > 0)) process.stdout.write(`${describeBot(b)}\n`);
}
const mean = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? v.reduce((s, x) => s + x, 0) / v.length : null;
};
// the seeds where both are known (a run that labelled nothing has neither)
const scored = results.filter((r) => r.figures.balancedAccuracy !== null && r.figures.optimum !== null);
const ba = mean(scored.map((r) => r.figures.balancedAccuracy));
const optimum = mean(scored.map((r) => r.figures.optimum));
if (ba !== null && optimum !== null)
  reportRows([
    {
      figure: `crowd-external balanced accuracy (${scored.length} of ${results.length} seeds, ${cases} cases)`,
      ours: 100 * ba,
      peer: 'Bayes-optimal, same votes',
      theirs: 100 * optimum,
      unit: '%',
      better: 'higher',
    },
  ]);
if (results.length > 1) {
  process.stdout.write('\ncrowd-external: bars met per seed\n');
  const names = results[0]!.figures.bars.map((b) => b.name);
  for (const name of names)
    process.stdout.write(
      `  ${name.padEnd(42)} ${results
        .map((r) => r.figures.bars.find((b) => b.name === name)!)
        .map((b) => `${b.met === null ? 'n/a' : b.met ? 'met' : 'MISSED'} ${b.shown.split(' (')[0]}`)
        .join(' | ')}\n`,
    );
}
// a bot's or fetch's last timer must not hold a finished bench (npm run bench waits for it)
process.exit(0);
