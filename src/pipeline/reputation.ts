import { Schema, type Model } from 'mongoose';
import { buildLabels, loadBatchData, type BatchAggregation, type BatchData } from '../batches/index.js';
import { requireCapability, type CrowdPlatform, type QualificationRequirementSpec } from '../crowd/platform.js';
import { collections } from '../db/collections.js';
import { model, type BatchDoc, type BatchSettings, type LabelDoc, type WorkerDecisionDoc } from '../db/models/index.js';
import { UserError } from '../errors.js';
import {
  batchReputationRecords,
  NEUTRAL_REPUTATION,
  reputationScore,
  sameRecord,
  sumRecords,
  type FinalLabel,
  type ReputationRecord,
} from '../quality/reputation.js';
import { alongside, handOver } from './alongside.js';
import { BULK_SLICE, bulkWriteSliced } from './bulk.js';
import type { PipelineContext } from './context.js';
import { mapPool } from './pool.js';
import { ensureTargetQualification } from './target-qualification.js';
import { withLlmFlags } from './llm-flags.js';
import { workerDecisions } from './worker-decisions.js';

/**
 * Cross-batch reputation (issue 16, item 4), the imperative shell around
 * src/quality/reputation.ts.
 *
 * The qualification. Per target, a custom qualification type `qrelay-reputation` whose integer
 * value (0–100) is each worker's score. It is AutoGranted with the neutral value 50: MTurk
 * (and the bundled marketplace, which implements it as MTurk does) grants it at once to any
 * worker who asks for it, which the worker site offers on every HIT that requires it. A
 * worker qrelay has never seen, and a lab's own annotator, thus starts at 50 and is never
 * locked out by a minimum at or below 50; a worker who holds a value keeps it (asking again
 * changes nothing). qrelay never revokes it (a revoked worker could ask for 50 again): it
 * only sets values, with AssociateQualificationWithWorker (SendNotification false, repeat-safe).
 *
 * The record. One document per target and worker (`worker_reputation`, `_id`
 * `${target}|${workerId}`) keeps the worker's record in each batch on that target (checks
 * by polarity, agreement with final labels, soft blocks with their reasons, llm-assisted
 * flags), the score of their sum, and the value last set on the platform. A collection round
 * recomputes its batch's records from what it already loaded and touches only the workers
 * whose record changed (their documents read together, by `_id`); a worker whose score moved gets
 * the new value (written here first, pushed, then marked pushed: a crash in between pushes
 * again on the next round or sync). The llm-assisted detection needs the items' texts, so it
 * runs when the batch is complete (and on `qrelay reputation sync`), not every round.
 */

export const REPUTATION_QUALIFICATION = 'qrelay-reputation';
export { NEUTRAL_REPUTATION };

const DESCRIPTION =
  'Your reputation with this requester, 0 to 100, from your earlier work on its HITs (attention checks and agreement with the final labels); new workers start at 50. Ask for it to take HITs that require it: it is granted at once.';

export interface ReputationDoc {
  /** `${target}|${workerId}`. */
  _id: string;
  target: string;
  workerId: string;
  batches: { batch: string; record: ReputationRecord }[];
  score: number;
  reason: string;
  /** The value last set on the platform; null: never. */
  pushed: number | null;
  pushedAt: Date | null;
  updatedAt: Date;
}

const reputationSchema = new Schema<ReputationDoc>(
  {
    _id: { type: String, required: true },
    target: { type: String, required: true },
    workerId: { type: String, required: true },
    batches: { type: Schema.Types.Mixed, default: [] },
    score: { type: Number, required: true },
    reason: { type: String, default: '' },
    pushed: { type: Number, default: null },
    pushedAt: { type: Date, default: null },
    updatedAt: { type: Date, required: true },
  },
  { collection: collections.workerReputation, versionKey: false, minimize: false },
);

export function reputationModel(ctx: PipelineContext): Model<ReputationDoc> {
  return model(ctx.models.batches.db, 'WorkerReputation', reputationSchema);
}

const docId = (target: string, workerId: string) => `${target}|${workerId}`;

/** The target's `qrelay-reputation` type (AutoGranted, 50), created on first use and remembered like the tests' types. */
/** The platform's qualification types, which the reputation's values live in. */
const reputationQualifications = (backend: CrowdPlatform) =>
  requireCapability(backend, 'qualifications', `the worker reputation (${REPUTATION_QUALIFICATION})`);

export function ensureReputationQualification(ctx: PipelineContext, target: string, backend: CrowdPlatform): Promise<string> {
  return ensureTargetQualification(ctx, target, reputationQualifications(backend), {
    name: REPUTATION_QUALIFICATION,
    description: DESCRIPTION,
    keywords: 'qrelay, reputation',
    autoGranted: true,
    autoGrantedValue: NEUTRAL_REPUTATION,
  });
}

/**
 * The HIT type's requirement of a preset with `minReputation` (none without), added to
 * `requirements` (at most 10: a preset that leaves no room is refused with the reason).
 */
export async function addReputationRequirement(
  ctx: PipelineContext,
  settings: BatchSettings,
  backend: CrowdPlatform,
  requirements: QualificationRequirementSpec[],
  customIds: Record<string, string>,
): Promise<void> {
  const min = settings.preset.minReputation;
  if (min === undefined) return;
  if (requirements.length >= 10)
    throw new UserError(
      `preset ${settings.presetName}: minReputation needs one of MTurk's 10 qualification requirements and the preset uses them all: drop one of its qualificationRequirements`,
    );
  const id = await ensureReputationQualification(ctx, settings.target, backend);
  customIds[REPUTATION_QUALIFICATION] = id;
  requirements.push({ qualificationTypeId: id, comparator: 'GreaterThanOrEqualTo', integerValues: [min] });
}

/** Final labels of a batch by item, as the reputation reads them. */
function finalLabels(labels: readonly LabelDoc[]): Map<string, FinalLabel> {
  const out = new Map<string, FinalLabel>();
  for (const l of labels) if (l.complete && l.label !== null) out.set(l._id, { label: l.label, votes: l.votes, workers: l.workers });
  return out;
}

const FINISHED: readonly BatchDoc['state'][] = ['complete', 'expired', 'closed'];

/** Values set on the platform in flight at once, outside a batch's round (which has its own `concurrency`). */
const PUSHES_IN_FLIGHT = 4;

/** Stored reputation documents asked for in one query. */
const READ_SLICE = 500;

/**
 * The stored documents of these ids, a query per READ_SLICE of them: MongoDB answers `$in` on
 * `_id` from its index; the dev database scans the collection (a document per worker and
 * target) once, where a read per worker cost a round trip each, a thousand of them in a
 * simulation at the paper's scale (docs/decisions/0006).
 */
async function storedReputation(store: Model<ReputationDoc>, ids: readonly string[]): Promise<Map<string, ReputationDoc>> {
  const out = new Map<string, ReputationDoc>();
  for (let i = 0; i < ids.length; i += READ_SLICE)
    for (const d of await store.find({ _id: { $in: ids.slice(i, i + READ_SLICE) } }).lean<ReputationDoc[]>()) out.set(d._id, d);
  return out;
}

export interface ReputationUpdate {
  target: string;
  /** Workers whose record in the batch changed. */
  changed: number;
  /** Workers whose value was set on the platform. */
  pushed: number;
}

/**
 * Brings the target's reputation up to date with one batch: its records, the changed
 * workers' scores, the values on the platform. `llm`: run the llm-assisted detection (default:
 * when the batch is finished).
 */
export async function updateBatchReputation(
  ctx: PipelineContext,
  doc: BatchDoc,
  data: BatchData,
  aggregation: BatchAggregation,
  opts: {
    llm?: boolean;
    /**
     * What the batch's last round in this process left (round-memory.ts): the records it stored
     * and pushed, and the target's reputation type id it pushed with (read, or created, once:
     * a read of target_qualifications waits behind the round's label writes on the dev database).
     */
    known?: { records?: Map<string, ReputationRecord>; qualification?: { target: string; id: string } };
    /** The batch's worker decisions as its round left them (read from the database without). */
    decisions?: ReadonlyMap<string, Pick<WorkerDecisionDoc, 'reason'>>;
  } = {},
): Promise<ReputationUpdate> {
  const settings = doc.settings as BatchSettings;
  const target = settings.target;
  const decisions = opts.decisions ?? (await workerDecisions(ctx, doc._id));
  const llm = opts.llm ?? FINISHED.includes(doc.state);
  const flagged = llm
    ? new Set(
        (await withLlmFlags(ctx, data, aggregation.aggregate.workers)).filter((s) => s.flags.includes('llm-assisted')).map((s) => s.worker),
      )
    : null;
  const store = reputationModel(ctx);
  const records = batchReputationRecords({
    batch: doc._id,
    scored: aggregation.aggregate.scored,
    labels: finalLabels(aggregation.labels),
    blocks: new Map([...decisions].map(([w, d]) => [w, d.reason])),
    llmFlagged: flagged ?? new Set(),
  });
  const result: ReputationUpdate = { target, changed: 0, pushed: 0 };
  const stale: ReputationDoc[] = [];
  // the batch's records as the last round of it in this process stored them (round-memory.ts)
  const remembered = opts.known?.records;
  const kept = new Map<string, ReputationRecord>();
  // a record this process stored and pushed, unchanged since: nothing to read or write
  const toRead = [...records].filter(([workerId, fresh]) => {
    const mine = remembered?.get(workerId);
    if (mine && sameRecord(mine, flagged === null ? { ...fresh, llmFlags: mine.llmFlags } : fresh)) {
      kept.set(workerId, mine);
      return false;
    }
    return true;
  });
  const storedById = await storedReputation(
    store,
    toRead.map(([workerId]) => docId(target, workerId)),
  );
  const storedDocs = toRead.map(([workerId]) => storedById.get(docId(target, workerId)));
  const writes: Parameters<typeof store.bulkWrite>[0] = [];
  for (const [i, [workerId, fresh]] of toRead.entries()) {
    const stored = storedDocs[i];
    const previous = stored?.batches.find((b) => b.batch === doc._id)?.record;
    // without this round's llm detection, a flag found earlier stays
    const record = flagged === null && previous ? { ...fresh, llmFlags: previous.llmFlags } : fresh;
    kept.set(workerId, record);
    if (previous && sameRecord(previous, record)) {
      if (stored && stored.pushed !== stored.score) stale.push(stored);
      continue;
    }
    result.changed++;
    const batches = [...(stored?.batches ?? []).filter((b) => b.batch !== doc._id), { batch: doc._id, record }];
    const { score, reason } = reputationScore(sumRecords(batches.map((b) => b.record)));
    writes.push({
      updateOne: {
        filter: { _id: docId(target, workerId) },
        // a new document: never set on the platform (explicit: the dev database drops a null $setOnInsert)
        update: {
          $set: { target, workerId, batches, score, reason, updatedAt: ctx.now(), ...(!stored && { pushed: null, pushedAt: null }) },
        },
        upsert: true,
      },
    });
    if (stored?.pushed !== score) stale.push({ ...(stored as ReputationDoc), _id: docId(target, workerId), workerId, score });
  }
  // the records in bulk (filtered by `_id` alone) while the platform's values are set: a crash
  // before both are done leaves values unrecorded as pushed, and the next round or `reputation
  // sync` sets them again (repeat-safe); a value is recorded as pushed only after its record is stored
  const recordsWritten: Promise<void>[] = [];
  handOver(recordsWritten, bulkWriteSliced(store, writes));
  result.pushed = await alongside(recordsWritten, async () => {
    // a platform without qualification types (Prolific) has nowhere to hold the score: qrelay's records keep it
    if (stale.length === 0 || !ctx.backend(target).qualifications) return 0;
    const known = opts.known?.qualification;
    const id = known?.target === target ? known.id : await ensureReputationQualification(ctx, target, ctx.backend(target));
    if (opts.known) opts.known.qualification = { target, id };
    // as many in flight as the batch's other calls to its target
    return push(ctx, target, id, stale, { concurrency: settings.concurrency, stored: recordsWritten });
  });
  if (opts.known) opts.known.records = kept;
  return result;
}

/**
 * Sets the workers' values of the reputation type `id` on the platform and records them as
 * pushed, once `stored` (their records' writes) are done.
 */
async function push(
  ctx: PipelineContext,
  target: string,
  id: string,
  docs: readonly Pick<ReputationDoc, '_id' | 'workerId' | 'score'>[],
  { concurrency = PUSHES_IN_FLIGHT, stored = [] }: { concurrency?: number; stored?: readonly Promise<void>[] } = {},
): Promise<number> {
  const qualifications = reputationQualifications(ctx.backend(target));
  const store = reputationModel(ctx);
  // each value set, then recorded (a crash between the two sets it again: the call is repeat-safe)
  for (let i = 0; i < docs.length; i += BULK_SLICE) {
    const slice = docs.slice(i, i + BULK_SLICE);
    await mapPool(slice, concurrency, (d) => qualifications.setQualificationScore(id, d.workerId, d.score));
    await Promise.all(stored);
    await bulkWriteSliced(
      store,
      slice.map((d) => ({ updateOne: { filter: { _id: d._id }, update: { $set: { pushed: d.score, pushedAt: ctx.now() } } } })),
    );
  }
  return docs.length;
}

/** The stored reputation of these workers on a target (absent: never seen there, neutral). */
export async function reputationOf(
  ctx: PipelineContext,
  target: string,
  workerIds: readonly string[],
): Promise<Map<string, Pick<ReputationDoc, 'score' | 'reason' | 'pushed'>>> {
  const store = reputationModel(ctx);
  const out = new Map<string, Pick<ReputationDoc, 'score' | 'reason' | 'pushed'>>();
  for (const w of workerIds) {
    const d = await store.findById(docId(target, w)).lean<ReputationDoc>();
    if (d) out.set(w, { score: d.score, reason: d.reason, pushed: d.pushed });
  }
  return out;
}

/** Every worker's stored reputation on a target, by worker id. */
export async function targetReputation(ctx: PipelineContext, target: string): Promise<ReputationDoc[]> {
  const docs = await reputationModel(ctx).find({ target }).lean<ReputationDoc[]>();
  return docs.sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0));
}

/** Forgets a target's reputation records (a simulation's private marketplace, whose address a later one may reuse). */
export async function forgetTargetReputation(ctx: PipelineContext, target: string): Promise<void> {
  await reputationModel(ctx).deleteMany({ target });
}

export interface ReputationSync {
  target: string;
  batches: string[];
  changed: number;
  pushed: number;
  workers: ReputationDoc[];
}

/**
 * `qrelay reputation sync`: every published batch on the target recomputed (llm-assisted
 * detection included), then every worker whose value on the platform is not their score
 * set. Repeat-safe: a second run changes and pushes nothing.
 */
export async function syncTargetReputation(ctx: PipelineContext, target: string): Promise<ReputationSync> {
  const docs = (await ctx.models.batches.find({}).lean<BatchDoc[]>())
    .filter((d) => d.settings?.target === target)
    .sort((a, b) => (a._id < b._id ? -1 : 1));
  const out: ReputationSync = { target, batches: [], changed: 0, pushed: 0, workers: [] };
  for (const doc of docs) {
    const data = await loadBatchData(ctx, doc._id);
    const r = await updateBatchReputation(ctx, doc, data, buildLabels(doc, data, ctx.now()), { llm: true });
    out.batches.push(doc._id);
    out.changed += r.changed;
    out.pushed += r.pushed;
  }
  const stale = (await targetReputation(ctx, target)).filter((d) => d.pushed !== d.score);
  if (stale.length > 0) out.pushed += await push(ctx, target, await ensureReputationQualification(ctx, target, ctx.backend(target)), stale);
  out.workers = await targetReputation(ctx, target);
  return out;
}

/** Rows (of a workers table) with each worker's reputation on the target: the stored score, or the neutral one without a record. */
export async function withReputation<T extends { workerId: string }>(
  ctx: PipelineContext,
  target: string,
  rows: readonly T[],
): Promise<(T & { reputation: { score: number; reason: string } })[]> {
  const known = await reputationOf(
    ctx,
    target,
    rows.map((r) => r.workerId),
  );
  return rows.map((r) => {
    const k = known.get(r.workerId);
    return {
      ...r,
      reputation: k ? { score: k.score, reason: k.reason } : { score: NEUTRAL_REPUTATION, reason: 'no record yet: the neutral score' },
    };
  });
}

/**
 * A batch moved to another target (the demo's hand-over from its private marketplace to the
 * bundled one): its workers' records move with it, merged into what the new target holds,
 * marked not set there yet (the next round or `qrelay reputation sync` sets them). Repeat-safe.
 */
export async function moveTargetReputation(ctx: PipelineContext, from: string, to: string): Promise<void> {
  if (from === to) return;
  const store = reputationModel(ctx);
  for (const old of await store.find({ target: from }).lean<ReputationDoc[]>()) {
    const there = await store.findById(docId(to, old.workerId)).lean<ReputationDoc>();
    const moved = new Set(old.batches.map((b) => b.batch));
    const batches = [...(there?.batches ?? []).filter((b) => !moved.has(b.batch)), ...old.batches];
    const { score, reason } = reputationScore(sumRecords(batches.map((b) => b.record)));
    await store.updateOne(
      { _id: docId(to, old.workerId) },
      {
        $set: {
          target: to,
          workerId: old.workerId,
          batches,
          score,
          reason,
          updatedAt: ctx.now(),
          ...(!there && { pushed: null, pushedAt: null }),
        },
      },
      { upsert: true },
    );
    await store.deleteOne({ _id: old._id });
  }
}
