import { AsyncLocalStorage } from 'node:async_hooks';
import { stat } from 'node:fs/promises';
import type { Binary } from 'mongodb';
import type { RequestHandler, Response } from 'express';
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
import {
  renderedAnswer,
  snapshotTicket,
  SnapshotCache,
  wantsFresh,
  type Fingerprint,
  type RenderedAnswer,
  type SnapshotStore,
} from './snapshot.js';

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

/** `f` of a value known at once, at once; of one being read, once it is. */
function then<A, B>(value: A | Promise<A>, f: (a: A) => B): B | Promise<B> {
  return value instanceof Promise ? value.then(f) : f(value);
}

/** Larger answers are not stored (a MongoDB document holds 16 MiB); they stay per process. */
const MAX_STORED_BYTES = 8 * 1024 * 1024;

const bytes = (b: Binary | Buffer): Buffer => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer));

function answerStore(ctx: PipelineContext): SnapshotStore<RenderedAnswer> {
  const collection = requireDb(ctx.models.batches.db).collection<StoredAnswer>(collections.answerSnapshots);
  return {
    async load(key, fingerprint) {
      // only a snapshot of this fingerprint brings its megabytes back
      const doc = await collection.findOne({ _id: key, fingerprint });
      if (!doc) return null;
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
 * How old the fingerprint behind an answer may be. This process's own writes are seen at
 * the next request; another process's (a second `qrelay serve`, a `qrelay review` in a
 * terminal) within `maxStaleMs`: the fingerprint comes from a read of the batch that
 * started at most 1 s before the request arrived. A batch asked for steadily is re-read
 * about every 250 ms in the background.
 *
 * An answer seen to be out of date is computed anew once, in the background, while the
 * requests meanwhile get the answer from before (stale-while-revalidate: no request waits
 * for a rebuild; the ETag changes when the rebuild completes). This holds for changes made
 * by jobs (a collection round) and by other processes. A change made through the API or the
 * console is seen by the requests that arrive after its answer (`acknowledged`: they wait
 * for a rebuild if one is needed); a manual label through the API (`writing`) rebuilds its
 * batch's answers before it answers, so that no one waits for them. A request with
 * `Cache-Control: no-cache` waits for the answer of the batch as it is (docs/deployment.md).
 */
export const ANSWER_STALENESS = { refreshAfterMs: 250, maxStaleMs: 1000 } as const;

export interface AnswerOptions {
  /** Wait for the answer of the batch as it is now, not the last one while it is rebuilt (default: `Cache-Control: no-cache` on the request: answerRequests). */
  fresh?: boolean;
}

export interface BatchAnswers {
  status(batch: string, options?: AnswerOptions): Promise<RenderedAnswer>;
  report(batch: string, format: ReportFormat, table?: CsvTable, options?: AnswerOptions): Promise<RenderedAnswer>;
  /**
   * Runs `write`, an action of this process on `batch` (a manual label through the API),
   * and settles once the batch's answers asked for lately are computed anew, so that the
   * writer's next request finds them ready. Until then, requests for that batch are
   * answered at once with the answers from before the write (it is not acknowledged yet),
   * while nothing else writes in this process; no request starts a rebuild of a half-done write.
   */
  writing<T>(batch: string, write: () => Promise<T>): Promise<T>;
  /**
   * A request that may have changed batches is being answered (any API or console request
   * but a read): the answers from before now are checked against their batch before they
   * are served again, so that the client's next request sees what it changed (it waits for
   * a rebuild if one is needed). Changes made by jobs and other processes do not call it.
   */
  acknowledged(): void;
}

/** Batches whose answers a write computes anew before it settles: the most recently asked for. */
const MAX_HELD_BATCHES = 64;

export interface BatchAnswersOptions {
  /** The clock of the fingerprints' staleness (ANSWER_STALENESS; tests move it by hand). */
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
  // batches being written by `writing`; the writes made within it carry its batch
  const held = new Map<string, object>();
  const writer = new AsyncLocalStorage<string>();
  // the last write acknowledged to a client (a snapshotTicket): no answer from before it is served unchecked
  let acknowledgedAt = 0;
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
  // known at once when recent (no promise: the request path can tell it need not wait)
  const batchFingerprints = (batch: string) => fresh.readNow(`batch|${batch}`, () => readBatchFingerprint(ctx, batch));
  const statusFingerprint = (batch: string) => then(batchFingerprints(batch), (own) => own.batch);
  // the report reads the batch and its last export (the base its holes are counted against)
  const reportInputs = <R>(batch: string, f: (own: BatchFingerprints, exported: string) => R): R | Promise<R> => {
    const own = batchFingerprints(batch);
    const exported = exports.readNow(`export|${batch}`, () => exportFingerprint(ctx, batch));
    if (!(own instanceof Promise) && !(exported instanceof Promise)) return f(own, exported);
    return Promise.all([own, exported]).then(([o, e]) => f(o, e));
  };
  const reportFingerprint = (batch: string) => reportInputs(batch, (own, exported) => `${own.batch}|${own.manual}|${exported}`);
  const crowdFingerprint = (batch: string) =>
    // after an export, the holes found follow the decisions taken by hand too
    reportInputs(batch, (own, exported) => (exported === 'none' ? `${own.batch}|none` : `${own.batch}|${own.manual}|${exported}`));
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
  const answer = (
    batch: string,
    key: string,
    cache: SnapshotCache<RenderedAnswer>,
    fingerprint: Fingerprint,
    compute: () => Promise<RenderedAnswer>,
    options: AnswerOptions = {},
  ) => {
    const get = () => cache.get(key, fingerprint, compute);
    const fresh = options.fresh ?? freshReads.getStore() === true;
    // while this process writes the batch (not acknowledged yet): the answer from before, and no rebuild of a half-done write
    const before = !fresh && held.has(batch) ? cache.peek(key) : undefined;
    if (before) return Promise.resolve(before);
    return (fresh ? get() : cache.getStale(key, fingerprint, compute, acknowledgedAt)).then((value) => {
      remember(batch, key, get);
      return value;
    });
  };
  return {
    status: (batch, options) =>
      answer(
        batch,
        `status|${batch}`,
        statuses,
        () => statusFingerprint(batch),
        async () => renderedAnswer(JSON.stringify(await batchStatus(ctx, batch)), 'application/json'),
        options,
      ),
    report: (batch, format, table, options) =>
      answer(
        batch,
        `report|${batch}|${format}|${table ?? ''}`,
        reports,
        () => reportFingerprint(batch),
        async () =>
          renderedAnswer(
            // JSON on one line, for programs: indentation adds about two thirds to a large report's bytes
            renderReport(await model(batch), format, { compact: true, ...(table && { table }) }),
            REPORT_MEDIA_TYPES[format],
          ),
        options,
      ),
    acknowledged: () => {
      acknowledgedAt = snapshotTicket();
    },
    writing: async (batch, write) => {
      const hold = {};
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

/** The reads that asked for `Cache-Control: no-cache` (answerRequests), while they run. */
const freshReads = new AsyncLocalStorage<true>();

/**
 * Middleware, before the routers. A read with `Cache-Control: no-cache` gets the answer of
 * the batch as it is now (AnswerOptions.fresh). Any other request tells the answers, as it
 * is answered, that it may have changed batches (BatchAnswers.acknowledged), so that the
 * client's next read sees it.
 */
export function answerRequests(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (wantsFresh(req)) freshReads.run(true, next);
      else next();
      return;
    }
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    // before the first byte leaves: the client cannot ask again before this runs
    res.end = ((...args: unknown[]) => {
      perApp.get(ctx)?.acknowledged(); // no answers yet: none to check
      return end(...args);
    }) as Response['end'];
    next();
  };
}

/** Computes (or loads from answer_snapshots) the status and JSON report of these batches, one after another. */
export async function warmAnswers(ctx: AppContext, batches: readonly string[]): Promise<void> {
  const answers = answersOf(ctx);
  for (const batch of batches) {
    await answers.status(batch);
    await answers.report(batch, 'json');
  }
}
