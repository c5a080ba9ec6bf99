import { AsyncLocalStorage } from 'node:async_hooks';
import { stat } from 'node:fs/promises';
import type { Binary } from 'mongodb';
import { collections } from '../db/collections.js';
import { requireDb } from '../db/connection.js';
import { batchReport, qrelsExportModel, withCurrentManualLabels, type BatchReport } from '../export/index.js';
import { createPipelineContext, type PipelineContext } from '../pipeline/context.js';
import { readBatchFingerprint, type BatchFingerprints } from '../pipeline/revision.js';
import { batchStatus } from '../pipeline/status.js';
import { renderReport, REPORT_MEDIA_TYPES, type CsvTable, type Report, type ReportFormat } from '../reports/index.js';
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
  /**
   * Runs `write`, an action of this process on `batch` (a manual label through the API),
   * and settles once the batch's answers asked for lately are computed anew, so that the
   * writer's next request finds them ready. Until then, requests for that batch are
   * answered at once with the answers from before the write (it is not acknowledged yet),
   * for at most `refreshAfterMs`, and only while nothing else writes in this process.
   */
  writing<T>(batch: string, write: () => Promise<T>): Promise<T>;
}

/** Batches whose answers a write computes anew before it settles: the most recently asked for. */
const MAX_HELD_BATCHES = 64;

export interface BatchAnswersOptions {
  /** The clock that bounds a write's hold on the answers before it (tests move it by hand). */
  now?: () => number;
}

export function batchAnswers(ctx: PipelineContext, options: BatchAnswersOptions = {}): BatchAnswers {
  const now = options.now ?? (() => performance.now());
  const store = answerStore(ctx);
  const statuses = new SnapshotCache<RenderedAnswer>(64, store);
  const reports = new SnapshotCache<RenderedAnswer>(64, store);
  // the report once per change, whatever the formats asked for; its crowd's part (every
  // section but the decisions taken by hand) once per change of what the crowd did
  const models = new SnapshotCache<Report>(16);
  const crowdReports = new SnapshotCache<BatchReport>(16);
  // batches being written by `writing`, and since when; the writes made within it carry its batch
  const held = new Map<string, { since: number }>();
  const writer = new AsyncLocalStorage<string>();
  // no database read per request: fingerprints from memory, re-read in the background
  // (ANSWER_STALENESS), forgotten at once when this process writes a batch or an export
  const fresh = new RecentReads<BatchFingerprints>({ ...ANSWER_STALENESS, now });
  const exports = new RecentReads<string>({ ...ANSWER_STALENESS, now });
  onWrites(ctx.models.batches.db, () => {
    fresh.invalidate();
    exports.invalidate();
    // a write from elsewhere in this process: no answer from before it is served after it
    if (writer.getStore() === undefined) held.clear();
  });
  const batchFingerprints = (batch: string) => fresh.read(`batch|${batch}`, () => readBatchFingerprint(ctx, batch));
  // the report reads the batch and its last export (the base its holes are counted against)
  const reportInputs = (batch: string) =>
    Promise.all([batchFingerprints(batch), exports.read(`export|${batch}`, () => exportFingerprint(ctx, batch))]);
  const reportFingerprint = async (batch: string) => {
    const [own, exported] = await reportInputs(batch);
    return `${own.batch}|${own.manual}|${exported}`;
  };
  const crowdFingerprint = async (batch: string) => {
    const [own, exported] = await reportInputs(batch);
    // after an export, the holes found follow the decisions taken by hand too
    return exported === 'none' ? `${own.batch}|none` : `${own.batch}|${own.manual}|${exported}`;
  };
  const model = (batch: string) =>
    models.get(
      `model|${batch}`,
      () => reportFingerprint(batch),
      async () => {
        const crowd = await crowdReports.get(
          `crowd|${batch}`,
          () => crowdFingerprint(batch),
          () => batchReport(ctx, batch),
        );
        return withCurrentManualLabels(ctx, batch, crowd.report);
      },
    );
  // the answers asked for lately, by batch (those of batches that exist): what a write computes anew before it settles
  const asked = new Map<string, Map<string, () => Promise<RenderedAnswer>>>();
  const remember = (batch: string, key: string, get: () => Promise<RenderedAnswer>) => {
    const keys = asked.get(batch) ?? new Map<string, () => Promise<RenderedAnswer>>();
    asked.delete(batch); // most recently asked last
    asked.set(batch, keys.set(key, get));
    if (asked.size > MAX_HELD_BATCHES) asked.delete(asked.keys().next().value as string);
  };
  const answer = (batch: string, key: string, cache: SnapshotCache<RenderedAnswer>, get: () => Promise<RenderedAnswer>) => {
    const hold = held.get(batch);
    const before = hold && now() - hold.since <= ANSWER_STALENESS.refreshAfterMs ? cache.peek(key) : undefined;
    if (before) return Promise.resolve(before);
    return get().then((value) => {
      remember(batch, key, get);
      return value;
    });
  };
  return {
    status: (batch) => {
      const key = `status|${batch}`;
      return answer(batch, key, statuses, () =>
        statuses.get(
          key,
          async () => (await batchFingerprints(batch)).batch,
          async () => renderedAnswer(JSON.stringify(await batchStatus(ctx, batch)), 'application/json'),
        ),
      );
    },
    report: (batch, format, table) => {
      const key = `report|${batch}|${format}|${table ?? ''}`;
      return answer(batch, key, reports, () =>
        reports.get(
          key,
          () => reportFingerprint(batch),
          async () =>
            renderedAnswer(
              // JSON on one line, for programs: indentation adds about two thirds to a large report's bytes
              renderReport(await model(batch), format, { compact: true, ...(table && { table }) }),
              REPORT_MEDIA_TYPES[format],
            ),
        ),
      );
    },
    writing: async (batch, write) => {
      const hold = { since: now() };
      held.set(batch, hold);
      try {
        const result = await writer.run(batch, write);
        // computed anew from fingerprints read after the write; a failure shows at the next request
        await Promise.all([...(asked.get(batch)?.values() ?? [])].map((get) => get().catch(() => undefined)));
        return result;
      } finally {
        if (held.get(batch) === hold) held.delete(batch);
      }
    },
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
