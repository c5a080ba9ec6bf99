import { stat } from 'node:fs/promises';
import type { Binary } from 'mongodb';
import { collections } from '../db/collections.js';
import { requireDb } from '../db/connection.js';
import { batchReport } from '../export/index.js';
import { qrelsExportModel } from '../export/index.js';
import { createPipelineContext, type PipelineContext } from '../pipeline/context.js';
import { readBatchFingerprint } from '../pipeline/revision.js';
import { batchStatus } from '../pipeline/status.js';
import { renderReport, REPORT_MEDIA_TYPES, type CsvTable, type ReportFormat } from '../reports/index.js';
import type { AppContext } from './context.js';
import { onWrites } from '../db/write-notices.js';
import { RecentReads } from './recent-reads.js';
import { renderedAnswer, SnapshotCache, type RenderedAnswer, type SnapshotStore } from './snapshot.js';

/**
 * The API's expensive reads, a batch's status and its report, as snapshots (snapshot.ts):
 * in this process, and in the `answer_snapshots` collection for the other processes on the
 * database and the next start. `qrelay serve` computes those of finished batches at start
 * (`warmAnswers`), so that a dashboard's first requests do not wait for them.
 */

interface StoredAnswer {
  _id: string;
  fingerprint: string;
  body: Binary | Buffer;
  gzip: Binary | Buffer | null;
  etag: string;
  type: string;
  savedAt: Date;
}

/** Larger answers are not stored (a MongoDB document holds 16 MiB); they stay per process. */
const MAX_STORED_BYTES = 8 * 1024 * 1024;

const bytes = (b: Binary | Buffer): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer));

function answerStore(ctx: PipelineContext): SnapshotStore<RenderedAnswer> {
  const collection = requireDb(ctx.models.batches.db).collection<StoredAnswer>(collections.answerSnapshots);
  return {
    async load(key, fingerprint) {
      const doc = await collection.findOne({ _id: key });
      if (!doc || doc.fingerprint !== fingerprint) return null;
      return { body: bytes(doc.body), gzip: doc.gzip ? bytes(doc.gzip) : null, etag: doc.etag, type: doc.type };
    },
    async save(key, fingerprint, value) {
      if (value.body.length > MAX_STORED_BYTES) return;
      const doc = { fingerprint, body: value.body, gzip: value.gzip, etag: value.etag, type: value.type, savedAt: new Date() };
      await collection.updateOne({ _id: key }, { $set: doc }, { upsert: true });
    },
  };
}

/** The batch's last export as the report depends on it: the base qrels file, when, and that file on disk now. */
async function exportFingerprint(ctx: PipelineContext, batch: string): Promise<string> {
  const last = await qrelsExportModel(ctx.models.batches.db).findById(batch, { base: 1, exportedAt: 1 }).lean();
  if (!last) return 'none';
  const file = await stat(last.base).then(
    (s) => `${s.size}@${s.mtimeMs}`,
    () => 'gone',
  );
  return `${last.base}|${new Date(last.exportedAt).getTime()}|${file}`;
}

/**
 * How old the fingerprint behind an answer may be. This process's own writes show at the
 * next request; another process's (a second `qrelay serve`, a `qrelay review` in a
 * terminal) within `maxStaleMs`: an answer reflects a read of the batch that started at
 * most 1 s before the request arrived. A batch asked for steadily is re-read about every
 * 250 ms in the background; requests wait for a read only when the last one is older than
 * 1 s (a batch not asked for lately).
 */
export const ANSWER_STALENESS = { refreshAfterMs: 250, maxStaleMs: 1000 } as const;

export interface BatchAnswers {
  status(batch: string): Promise<RenderedAnswer>;
  report(batch: string, format: ReportFormat, table?: CsvTable): Promise<RenderedAnswer>;
}

export function batchAnswers(ctx: PipelineContext): BatchAnswers {
  const store = answerStore(ctx);
  const statuses = new SnapshotCache<RenderedAnswer>(64, store);
  const reports = new SnapshotCache<RenderedAnswer>(64, store);
  // no database read per request: fingerprints from memory, re-read in the background
  // (ANSWER_STALENESS), forgotten at once when this process writes a batch or an export
  const fresh = new RecentReads<string>(ANSWER_STALENESS);
  onWrites(ctx.models.batches.db, () => fresh.invalidate());
  const batchFingerprint = (batch: string) => fresh.read(`batch|${batch}`, () => readBatchFingerprint(ctx, batch));
  const reportFingerprint = async (batch: string) => {
    // the report reads the batch and its last export (the base its holes are counted against)
    const [own, exported] = await Promise.all([
      batchFingerprint(batch),
      fresh.read(`export|${batch}`, () => exportFingerprint(ctx, batch)),
    ]);
    return `${own}|${exported}`;
  };
  return {
    status: (batch) =>
      statuses.get(
        `status|${batch}`,
        () => batchFingerprint(batch),
        async () => renderedAnswer(JSON.stringify(await batchStatus(ctx, batch)), 'application/json'),
      ),
    report: (batch, format, table) =>
      reports.get(
        `report|${batch}|${format}|${table ?? ''}`,
        () => reportFingerprint(batch),
        async () =>
          renderedAnswer(
            // JSON on one line, for programs: indentation adds about two thirds to a large report's bytes
            renderReport((await batchReport(ctx, batch)).report, format, { compact: true, ...(table && { table }) }),
            REPORT_MEDIA_TYPES[format],
          ),
      ),
  };
}

const perApp = new WeakMap<AppContext, BatchAnswers>();

/** One set of snapshots per app, shared by its routers; built on first use (the connection may not be open before). */
export function answersOf(ctx: AppContext): BatchAnswers {
  let answers = perApp.get(ctx);
  if (!answers) {
    answers = batchAnswers(createPipelineContext({ connection: ctx.connection, config: ctx.config, logger: ctx.logger }));
    perApp.set(ctx, answers);
  }
  return answers;
}

/** Finished batches (complete, expired, closed), the most recently changed first: their answers change seldom. */
export async function finishedBatches(ctx: AppContext): Promise<string[]> {
  const pipeline = createPipelineContext({ connection: ctx.connection, config: ctx.config, logger: ctx.logger });
  const finished = await pipeline.models.batches
    .find({ state: { $in: ['complete', 'expired', 'closed'] } }, { _id: 1, updatedAt: 1 })
    .lean<Array<{ _id: string; updatedAt: Date }>>();
  return finished.sort((a, b) => new Date(b.updatedAt).getTime() - new Date(a.updatedAt).getTime()).map((b) => b._id);
}

/** Computes (or loads from answer_snapshots) the status and JSON report of these batches, one after another. */
export async function warmAnswers(ctx: AppContext, batches: readonly string[]): Promise<void> {
  const answers = answersOf(ctx);
  for (const batch of batches) {
    await answers.status(batch);
    await answers.report(batch, 'json');
  }
}
