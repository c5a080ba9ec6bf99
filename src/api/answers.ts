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
import { FreshReads, renderedAnswer, SnapshotCache, type RenderedAnswer, type SnapshotStore } from './snapshot.js';

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

export interface BatchAnswers {
  status(batch: string): Promise<RenderedAnswer>;
  report(batch: string, format: ReportFormat, table?: CsvTable): Promise<RenderedAnswer>;
}

export function batchAnswers(ctx: PipelineContext): BatchAnswers {
  const store = answerStore(ctx);
  const statuses = new SnapshotCache<RenderedAnswer>(64, store);
  const reports = new SnapshotCache<RenderedAnswer>(64, store);
  // every answer of a batch shares one lookup per wave of requests
  const fresh = new FreshReads<string>();
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
          renderedAnswer(renderReport((await batchReport(ctx, batch)).report, format, table ? { table } : {}), REPORT_MEDIA_TYPES[format]),
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

/** Computes (or loads) the status and JSON report of every finished batch, one after another. */
export async function warmAnswers(ctx: AppContext): Promise<number> {
  const answers = answersOf(ctx);
  const pipeline = createPipelineContext({ connection: ctx.connection, config: ctx.config, logger: ctx.logger });
  const finished = await pipeline.models.batches.find({ state: { $in: ['complete', 'expired', 'closed'] } }, { _id: 1 }).lean();
  for (const { _id } of finished) {
    await answers.status(_id);
    await answers.report(_id, 'json');
  }
  return finished.length;
}
