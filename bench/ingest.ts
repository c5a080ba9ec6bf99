/**
 * Ingest at scale: writes a ~400 MB escalations file (canonical JSONL) to a temporary
 * directory, validates it, streams it, and prints throughput and peak memory of each
 * pass; then deletes the file.
 *
 *   node --import tsx bench/ingest.ts [megabytes]     (default 400)
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords, validateFile } from '../src/ingest/index.js';
import { debateRecord } from './support/debate-records.js';

const MiB = 1024 * 1024;
const targetBytes = Number(process.argv[2] ?? 400) * MiB;

async function writeFile(path: string): Promise<{ bytes: number; lines: number }> {
  const out = createWriteStream(path);
  let bytes = 0;
  let lines = 0;
  while (bytes < targetBytes) {
    const line = `${debateRecord(lines)}\n`;
    bytes += Buffer.byteLength(line);
    lines += 1;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { bytes, lines };
}

/** Runs `fn` while sampling memory; returns its result with the time and the peaks. */
async function measure<T>(fn: () => Promise<T>) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const start = performance.now();
  const result = await fn();
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  sample();
  return { result, seconds, before, peakRss, peakHeap };
}

const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

const dir = mkdtempSync(join(tmpdir(), 'qrelay-bench-ingest-'));
try {
  const path = join(dir, 'escalations.jsonl');
  const written = await writeFile(path);
  const size = statSync(path).size;
  console.log(`file: ${mb(size)}, ${written.lines} escalated cases (${Math.round(size / written.lines)} bytes per line)`);

  const report = (name: string, m: Awaited<ReturnType<typeof measure>>) =>
    console.log(
      `${name}: ${m.seconds.toFixed(1)} s, ${(size / MiB / m.seconds).toFixed(0)} MiB/s, ${Math.round(written.lines / m.seconds)} records/s; ` +
        `RSS ${mb(m.before.rss)} -> peak ${mb(m.peakRss)}, heap used ${mb(m.before.heapUsed)} -> peak ${mb(m.peakHeap)}`,
    );

  const validation = await measure(() => validateFile(path, 'escalations'));
  if (!validation.result.ok || validation.result.records !== written.lines) {
    throw new Error(`unexpected validation result: ${JSON.stringify(validation.result).slice(0, 500)}`);
  }
  report('validateFile', validation);

  const streaming = await measure(async () => {
    let n = 0;
    for await (const _ of readRecords(path, 'escalations')) n += 1;
    return n;
  });
  if (streaming.result !== written.lines) throw new Error(`streamed ${streaming.result} records, expected ${written.lines}`);
  report('readRecords ', streaming);
  console.log(`process peak RSS (whole run, from the OS): ${mb(process.resourceUsage().maxRSS * 1024)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
