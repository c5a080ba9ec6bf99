/**
 * `qrelay import` at scale, database included: writes an escalations file of the given
 * size (canonical JSONL, ~3.8 KB per case) to a temporary directory and imports it with
 * the `qrelay import` command (the build in dist/, a process of its own, as a user runs
 * it) into a fresh database on the dev database (or MONGODB_URI): wall time and the
 * process's peak RSS (from /usr/bin/time); then imports it again (every case already
 * there) and deletes everything.
 *
 *   node --import tsx bench/pipeline-import.ts [megabytes]     (default 50; 346 at --scale paper)
 *
 * Its peer, in the same run and on the same database: the file read line by line,
 * `JSON.parse`, and raw `insertMany` of the parsed records in chunks of 500 (the limit of
 * any importer that stores each record once).
 *
 * The dev database is started on a free port in a temporary directory when MONGODB_URI
 * is unset.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectMongoose, requireDb } from '../src/db/connection.js';
import { startDevdb, type DevdbHandle } from '../src/db/devdb.js';
import { paths } from '../src/paths.js';
import { measureProcess } from './support/measure.js';
import { reportRows } from './support/table.js';
import { debateRecord } from './support/debate-records.js';

const MiB = 1024 * 1024;
const targetBytes = Number(process.argv[2] ?? (process.env.QRELAY_BENCH_SCALE === 'paper' ? 346 : 50)) * MiB;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-import-'));
let devdb: DevdbHandle | undefined;
try {
  const file = join(dir, 'escalations.jsonl');
  const out = createWriteStream(file);
  let bytes = 0;
  let lines = 0;
  while (bytes < targetBytes) {
    const line = `${debateRecord(lines++)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');

  let base = process.env.MONGODB_URI?.replace(/\/[^/?]*(\?.*)?$/, '/');
  if (!base) {
    devdb = await startDevdb({ address: `127.0.0.1:${await freePort()}`, dataDir: join(dir, 'devdb') });
    base = devdb.uri;
  }
  const uri = `${base}bench_import_${process.pid}`;
  const connection = await connectMongoose(uri);
  await requireDb(connection).dropDatabase();
  const size = statSync(file).size / MiB;
  const cli = [join(paths.root, 'dist', 'src', 'cli.js'), 'import', file, '--batch', 'bench'];
  const env = { ...process.env, MONGODB_URI: uri, QRELAY_DATA_DIR: dir };
  const runs: Array<{ seconds: number; peakMiB: number }> = [];
  for (const pass of ['first import', 'again (all present)']) {
    const run = measureProcess(process.execPath, cli, env);
    if (typeof run === 'string') throw new Error(`qrelay import: ${run}`);
    runs.push(run);
    console.log(
      `${pass}: ${lines} cases from ${size.toFixed(1)} MiB in ${run.seconds.toFixed(1)} s: ${(size / run.seconds).toFixed(1)} MiB/s, ${Math.round(lines / run.seconds)} cases/s; peak RSS ${run.peakMiB.toFixed(0)} MiB`,
    );
    if (process.env.BENCH_VERBOSE) console.log(run.stdout.trim());
  }
  await requireDb(connection).dropDatabase();

  // the peer: JSON.parse + raw insertMany into the same database, one document per record
  const peer = requireDb(connection).collection('peer_records');
  const tPeer = performance.now();
  let chunk: Record<string, unknown>[] = [];
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    chunk.push(JSON.parse(line) as Record<string, unknown>);
    if (chunk.length >= 500) {
      await peer.insertMany(chunk, { ordered: false });
      chunk = [];
    }
  }
  if (chunk.length > 0) await peer.insertMany(chunk, { ordered: false });
  const peerSeconds = (performance.now() - tPeer) / 1000;
  console.log(`peer (JSON.parse + insertMany): ${lines} records in ${peerSeconds.toFixed(1)} s: ${(size / peerSeconds).toFixed(1)} MiB/s`);
  reportRows([
    {
      figure: `import ${size.toFixed(0)} MiB, ${lines} cases`,
      ours: size / runs[0]!.seconds,
      peer: 'JSON.parse + insertMany',
      theirs: size / peerSeconds,
      unit: 'MiB/s',
      better: 'higher',
    },
    {
      figure: `import ${size.toFixed(0)} MiB: peak RSS of qrelay import`,
      ours: Math.max(...runs.map((r) => r.peakMiB)),
      peer: 'target',
      theirs: 250,
      unit: 'MiB',
      better: 'lower',
    },
  ]);
  await requireDb(connection).dropDatabase();
  await connection.close();
} finally {
  await devdb?.stop();
  rmSync(dir, { recursive: true, force: true });
}
