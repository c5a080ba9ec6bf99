import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IngestKind } from '../../ingest/index.js';
import { importFile } from '../../pipeline/import.js';
import { publishBatch } from '../../pipeline/publish.js';
import { checkAborted, type DemoEnv } from '../env.js';
import { escalationsFile, sampleFiles } from '../sample.js';
import { requireBatch } from '../../batches/index.js';

/** Stages 1 and 2: the sample into the batch (cases, gold pool, consensus labels), then its HITs on the marketplace. */

export const DEMO_PRESET = 'dream';

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

/** Publishing is resumable: HITs already created are found again by their request tokens, never created twice. */
export async function publishStage(env: DemoEnv, batch: string): Promise<void> {
  checkAborted(env.signal);
  const doc = await requireBatch(env.ctx, batch);
  const unsent = await env.ctx.models.hits.countDocuments({ batch, state: { $in: ['planned', 'creating'] } });
  if (doc.settings && doc.state !== 'publishing' && unsent === 0) return env.progress.line(`publish    already done (batch ${batch} is ${doc.state})`);
  const bar = env.progress.stage('publish', { total: 0, unit: 'HITs created' });
  const count = async () => {
    const hits = await env.ctx.models.hits.find({ batch }, { state: 1 }).lean();
    bar.update(hits.filter((h) => h.state !== 'planned' && h.state !== 'creating').length, hits.length, `preset ${DEMO_PRESET}, target local`);
  };
  const timer = setInterval(() => void count().catch(() => undefined), 250);
  try {
    const result = await publishBatch(env.ctx, batch, doc.settings ? undefined : { preset: DEMO_PRESET, target: 'local', concurrency: 8, yes: false }, 'local');
    bar.update(result.hits, result.hits);
    bar.finish(`${result.created} created now, ${result.reused + result.alreadyPublished} already there; quote $${(result.quoteCents / 100).toFixed(2)}`);
  } finally {
    clearInterval(timer);
  }
}
