/**
 * The API under load: `GET /api/v1/batches/{batch}` (status) and `.../report` at a fixed
 * request rate against `qrelay serve` (a child process, as deployed) on a private dev
 * database holding one published, fully worked batch; then checks that the service and
 * the database still answer and that no cursor or lock is left. Prints figures against
 * the p99 targets (25 ms with nothing changing, 50 ms while work arrives); asserts nothing.
 *   node --import tsx bench/api-load.ts [--cases n] [--rate 500] [--seconds s] [--identity | --gzip]
 *     [--writes-every 250] [--formats json,md,html,csv]
 * Four phases on one server, each `--seconds` long: clients that accept gzip, then clients
 * that do not (the report's whole JSON on every answer; `--identity` / `--gzip`: only one),
 * each with nothing changing and then with a manual label decided through the API every
 * `--writes-every` ms (0: no such phase), alternating items and labels, so every write
 * changes the report. `--formats`: the report's formats asked for, in turn (default json).
 * Each row with writes names the figure of the same route and encoding with no writes beside it.
 * Defaults: 300 cases for 5 s a phase; at `--scale paper` (QRELAY_BENCH_SCALE=paper) 4,056 cases for 20 s.
 * QRELAY_BENCH_CLI: the compiled `qrelay` to serve (default dist/src/cli.js), to compare two builds.
 */
import { spawn } from 'node:child_process';
import { Agent, get } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/connection.js';
import { startDevdb } from '../src/db/devdb.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { createPipelineContext } from '../src/pipeline/context.js';
import { migrateDatabase } from '../src/db/migrate-database.js';
import { freePort } from '../test/support/free-port.js';
import { buildSyntheticBatch } from './support/synthetic-batch.js';
import { quantile, reportRows, type BenchRow } from './support/table.js';

const option = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const paper = process.env.QRELAY_BENCH_SCALE === 'paper';
const cases = option('cases', paper ? 4056 : 300);
const rate = option('rate', 500);
const seconds = option('seconds', paper ? 20 : 5);
const encodings = process.argv.includes('--identity') ? [false] : process.argv.includes('--gzip') ? [true] : [true, false];
const writesEvery = option('writes-every', 250);
const formatsAt = process.argv.indexOf('--formats');
const formats = formatsAt >= 0 ? process.argv[formatsAt + 1]!.split(',') : ['json'];
/** CPU time (user + system) a process has used, in ms, from /proc (Linux); null elsewhere. */
function serverCpuMs(pid: number | undefined): number | null {
  try {
    // the fields after the command's name, which is in parentheses and may hold spaces
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: the unit of /proc/<pid>/stat's times on Linux. */
const CLOCK_TICKS = 100;
const TARGET_P99_MS = 25;
const TARGET_WRITES_P99_MS = 50;

const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-api-'));
const devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir: join(dir, 'devdb') });
const uri = `${devdb.uri}qrelay`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  MONGODB_URI: uri,
  QRELAY_DATA_DIR: dir,
  QRELAY_API_TOKEN: 'bench-token-0123456789abcdef',
  MTURK_TARGET: 'local',
};
// the report names workers: it asks for the token (src/api/auth.ts)
const AUTH = { Authorization: `Bearer ${env.QRELAY_API_TOKEN}` };
// serve logs at its default level (info: a line per request), as a user runs it
delete env.LOG_LEVEL;
const config = loadConfig({ ...env, LOG_LEVEL: 'warn' });
const logger = createLogger('warn');
const database = await openDatabase(config);
let server: ReturnType<typeof spawn> | undefined;
try {
  await migrateDatabase(database, logger);
  const ctx = createPipelineContext({ connection: database.connection, config, logger });
  let t0 = performance.now();
  const made = await buildSyntheticBatch(ctx, dir, 'bench', cases);
  // the items a person decides while the load runs
  const decided = await ctx.models.items
    .find({ batch: 'bench' }, { queryId: 1, chunkId: 1 })
    .limit(3)
    .lean<Array<{ queryId: string; chunkId: string }>>();
  console.log(
    `batch: ${made.cases} cases, ${made.hits} HITs, ${made.assignments} assignments (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  await database.close();

  const port = await freePort();
  t0 = performance.now();
  server = spawn(
    process.execPath,
    [process.env.QRELAY_BENCH_CLI ?? join(paths.root, 'dist/src/cli.js'), 'serve', '--no-marketplace', '--port', String(port)],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  server.stdout!.resume(); // its request log, read as a supervisor would
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`qrelay serve exited (${server.exitCode})`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(
    `qrelay serve answering after ${((performance.now() - t0) / 1000).toFixed(1)} s (it prepares finished batches' answers first)`,
  );
  const routes = { status: `${base}/api/v1/batches/bench`, report: `${base}/api/v1/batches/bench/report` };
  for (const [name, url] of Object.entries(routes)) {
    t0 = performance.now();
    const res = await fetch(url, { headers: AUTH });
    const body = await res.arrayBuffer();
    console.log(
      `first ${name}: HTTP ${res.status}, ${(body.byteLength / 1024).toFixed(0)} KiB in ${(performance.now() - t0).toFixed(0)} ms (prepared at start)`,
    );
  }

  // open loop: requests leave on schedule whatever the answers do; latency counts from the
  // schedule. A dashboard's client: keep-alive connections (bodies read, not inflated).
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const hit = (url: string, gzip: boolean) =>
    new Promise<number>((resolve, reject) => {
      const req = get(url, { agent, headers: { ...AUTH, 'Accept-Encoding': gzip ? 'gzip' : 'identity' } }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
    });
  // a person deciding items on the console: write k decides item k mod 3, its label flipping each round
  let writes = 0;
  const decide = async () => {
    const item = decided[writes % decided.length]!;
    const label = Math.floor(writes / decided.length) % 2 === 0 ? 'no' : 'yes';
    writes++;
    const res = await fetch(`${base}/api/v1/batches/bench/manual-labels`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ queryId: item.queryId, chunkId: item.chunkId, label, note: `bench write ${writes}` }),
    });
    await res.arrayBuffer();
    return res.status;
  };
  const targets = [['status', routes.status], ...formats.map((f) => [f, `${routes.report}${f === 'json' ? '' : `?format=${f}`}`])] as const;
  const rows: BenchRow[] = [];
  // the p99 of each route and encoding with no writes, printed beside the same with writes
  const quiet = new Map<string, number>();
  // a first phase warms the server and the connections up; its figures are not kept
  const phases = [
    { gzip: encodings[0]!, every: 0, warmUp: true },
    ...encodings.flatMap((gzip) => [0, ...(writesEvery > 0 ? [writesEvery] : [])].map((every) => ({ gzip, every, warmUp: false }))),
  ];
  for (const { gzip, every, warmUp } of phases) {
    const latencies = new Map<string, number[]>(targets.map(([name]) => [name, []]));
    const writeLatencies: number[] = [];
    let errors = 0;
    let writeErrors = 0;
    const total = rate * (warmUp ? Math.min(2, seconds) : seconds);
    const cpuBefore = serverCpuMs(server.pid);
    const dbCpuBefore = serverCpuMs(devdb.process.pid);
    const started = performance.now();
    const pending: Promise<void>[] = [];
    const writer =
      every > 0
        ? setInterval(() => {
            const due = performance.now();
            pending.push(
              decide().then(
                (status) => {
                  if (status !== 200) writeErrors++;
                  writeLatencies.push(performance.now() - due);
                },
                () => void writeErrors++,
              ),
            );
          }, every)
        : undefined;
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const [name, url] = targets[i % targets.length]!;
      pending.push(
        hit(url, gzip).then(
          (status) => {
            if (status !== 200) errors++;
            latencies.get(name)!.push(performance.now() - due);
          },
          () => void errors++,
        ),
      );
    }
    clearInterval(writer);
    await Promise.all(pending);
    if (warmUp) continue;
    const achieved = total / ((performance.now() - started) / 1000);
    const cpuAfter = serverCpuMs(server.pid);
    const dbCpuAfter = serverCpuMs(devdb.process.pid);
    // the server's own work, whatever else the machine runs: CPU per request and the share of one core
    const elapsed = performance.now() - started;
    const cpu =
      cpuBefore !== null && cpuAfter !== null
        ? `; the server used ${((cpuAfter - cpuBefore) / total).toFixed(2)} ms of CPU a request (${(((cpuAfter - cpuBefore) / elapsed) * 100).toFixed(0)}% of a core)` +
          (dbCpuBefore !== null && dbCpuAfter !== null
            ? `, the database ${(((dbCpuAfter - dbCpuBefore) / elapsed) * 100).toFixed(0)}% of a core`
            : '')
        : '';
    const phase = `${gzip ? 'gzip' : 'no gzip'}, ${every > 0 ? `a manual label every ${every} ms` : 'no writes'}`;
    console.log(
      `\n${phase}: ${total} requests in ${seconds} s (${achieved.toFixed(0)}/s achieved), ${errors} errors; machine load ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores${cpu}`,
    );
    for (const [name, l] of latencies)
      console.log(
        `  ${name}: p50 ${quantile(l, 0.5).toFixed(1)} ms, p99 ${quantile(l, 0.99).toFixed(1)} ms, max ${Math.max(...l).toFixed(1)} ms over ${l.length} answers`,
      );
    if (every > 0)
      console.log(
        `  manual labels: ${writeLatencies.length} written, ${writeErrors} errors, p50 ${quantile(writeLatencies, 0.5).toFixed(1)} ms, p99 ${quantile(writeLatencies, 0.99).toFixed(1)} ms`,
      );
    for (const [name, l] of latencies) {
      const p99 = quantile(l, 0.99);
      const calm = quiet.get(`${name}|${gzip}`);
      if (every === 0) quiet.set(`${name}|${gzip}`, p99);
      rows.push({
        figure: `API ${name === 'status' ? 'status' : `report ${name}`} p99 at ${rate} req/s (${cases} cases, ${phase}${calm === undefined ? '' : `; no writes: ${calm.toFixed(1)} ms`}, ${errors} errors)`,
        ours: p99,
        peer: 'target',
        theirs: every > 0 ? TARGET_WRITES_P99_MS : TARGET_P99_MS,
        unit: 'ms',
        better: 'lower' as const,
      });
    }
  }
  agent.destroy();

  const after = await Promise.all(
    [fetch(`${base}/healthz`), fetch(routes.status), fetch(routes.report, { headers: AUTH })].map((p) =>
      p.then(
        (r) => r.status,
        () => 0,
      ),
    ),
  );
  const probe = new MongoClient(devdb.uri, { maxPoolSize: 1 });
  const pool = (await probe.db('admin').command({ devdbStatus: 1 })) as { openCursors: number; writeLocked: boolean; connections: number };
  await probe.close();
  console.log(
    `\nafterwards healthz/status/report answer ${after.join('/')}; database: ${pool.connections} connections, ${pool.openCursors} open cursors, write lock ${pool.writeLocked ? 'held' : 'free'}`,
  );
  reportRows(rows);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await database.close().catch(() => undefined);
  await devdb.stop();
  rmSync(dir, { recursive: true, force: true });
}
