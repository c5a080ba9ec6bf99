/**
 * A bench's own qrelay: a private data directory, free ports for its dev database, API and
 * marketplace (or its own database on MONGODB_URI), and the CLI run from the sources.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isListening } from '../../src/db/devdb.js';
import { paths } from '../../src/paths.js';

async function freePort(from: number): Promise<number> {
  for (let port = from + Math.floor(Math.random() * 500); ; port++) if (!(await isListening('127.0.0.1', port))) return port;
}

/** `ports`: where to start looking for the database's, the API's and the marketplace's port. */
export async function isolatedQrelay(
  name: string,
  ports: { db: number; api: number; marketplace: number },
): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  const dir = mkdtempSync(join(tmpdir(), `qrelay-bench-${name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    QRELAY_DATA_DIR: dir,
    QRELAY_DEVDB_ADDRESS: `127.0.0.1:${await freePort(ports.db)}`,
    PORT: String(await freePort(ports.api)),
    MARKETPLACE_URL: `http://127.0.0.1:${await freePort(ports.marketplace)}`,
    ...(process.env.MONGODB_URI && {
      MONGODB_URI: `${process.env.MONGODB_URI.replace(/\/[^/?]*(\?.*)?$/, '/')}bench_${name}_${Date.now()}`,
    }),
  };
  return { dir, env };
}

/** Runs `qrelay args...` from the sources; stderr passes through. */
export function runQrelay(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stdout: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', join(paths.root, 'src', 'cli.ts'), ...args], {
    cwd: paths.root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, seconds: (performance.now() - started) / 1000 })));
}

/**
 * The sample's cases, repeated under new query ids (`-r1`, `-r2`, ...) until there are
 * `cases` of them, written to `dir/cases.jsonl` with their true labels in `dir/truth.jsonl`.
 */
export function writeSampleCases(dir: string, cases: number): { cases: string; truth: string } {
  const sample = readFileSync(join(paths.samples, 'escalations.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const lines: string[] = [];
  const truth: string[] = [];
  for (let i = 0; lines.length < cases; i++) {
    const c = JSON.parse(sample[i % sample.length]!) as { query_id: string; chunk_id: string; hidden_label: string };
    const copy = { ...c, query_id: `${c.query_id}-r${Math.floor(i / sample.length)}` };
    lines.push(JSON.stringify(copy));
    truth.push(JSON.stringify({ query_id: copy.query_id, chunk_id: copy.chunk_id, label: copy.hidden_label }));
  }
  writeFileSync(join(dir, 'cases.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'truth.jsonl'), `${truth.join('\n')}\n`);
  return { cases: join(dir, 'cases.jsonl'), truth: join(dir, 'truth.jsonl') };
}

/** Imports `cases` (escalations) and the sample's gold pool into `batch`. */
export async function importSampleBatch(env: NodeJS.ProcessEnv, batch: string, cases: string): Promise<void> {
  for (const [file, kind] of [
    [cases, 'escalations'],
    [join(paths.samples, 'gold.jsonl'), 'gold'],
  ] as const) {
    const r = await runQrelay(env, ['import', file, '--batch', batch, '--kind', kind]);
    if (r.code !== 0) throw new Error(`qrelay import exited with ${r.code}: ${r.stdout}`);
  }
}
