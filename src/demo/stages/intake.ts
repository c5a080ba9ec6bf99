import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestKind } from '../../ingest/index.js';
import { importFile } from '../../pipeline/import.js';
import { checkAborted, type DemoEnv } from '../env.js';
import { escalationsFile, sampleFiles } from '../sample.js';

/** Stage 1: the sample into the batch (cases, gold pool, consensus labels). Publishing and the crowd: stages/simulated-crowd.ts. */

/** Imports are idempotent: a batch that was interrupted half-way is simply imported again. */
export async function importStage(env: DemoEnv, batch: string, cases: number): Promise<void> {
  const existing = await env.ctx.models.batches.findById(batch, { settings: 1 }).lean();
  if (existing?.settings) return env.progress.line(`import     already done (batch ${batch} is published)`);
  const dir = mkdtempSync(join(tmpdir(), 'qrelay-demo-'));
  try {
    const files: Array<[IngestKind, string, number]> = [
      ['escalations', escalationsFile(cases, dir), cases],
      ['gold', sampleFiles.gold, 0],
      ['consensus', sampleFiles.consensus, 0],
    ];
    const bar = env.progress.stage('import', { total: files.length, unit: 'files' });
    let records = 0;
    for (const [i, [kind, file]] of files.entries()) {
      checkAborted(env.signal);
      const r = await importFile(env.ctx, file, { batch, kind });
      records += r.counts.records;
      bar.update(i + 1, files.length, `${records} records (${kind} done)`);
    }
    bar.finish(`${cases} escalated cases, ${records - cases} gold and consensus records`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
