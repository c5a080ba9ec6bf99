import { BSON } from 'mongodb';
import type { CrowdAssignment, CrowdPlatform } from '../crowd/platform.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc, PlatformHitView } from '../db/models/index.js';
import { handOver } from './alongside.js';
import { readAnswers } from './answers.js';
import type { BatchData } from '../batches/index.js';
import type { PipelineContext } from './context.js';
import { bulkWriteSliced, insertMissing } from './bulk.js';
import { mapPool } from './pool.js';
import { pollHits } from './poll-hits.js';

/**
 * Reconcile: bring submitted assignments from the platform into the database. For each HIT
 * still collecting, its status and slot counts (GetHIT, or ListHITs pages when there are many:
 * poll-hits.ts; kept on the HIT for the follow-up), and
 * ListAssignmentsForHIT when the platform shows submissions we do not hold yet. Assignments
 * are submitted (and must be reviewed) before a HIT becomes Reviewable, so every collecting
 * HIT is looked at, not only those ListReviewableHITs returns. Each assignment is stored
 * once (its AssignmentId is the `_id`), with its Answer XML (kept apart), accept and submit
 * times, and the answer to each planned item with its time on task.
 */

export interface ReconcileResult {
  hitsPolled: number;
  listed: number;
  newAssignments: number;
  statusChanges: number;
  /** HITs whose platform view (status, slot counts, expiration) changed. */
  viewChanges: number;
}

const COLLECTING: ReadonlyArray<HitDoc['state']> = ['published', 'expired'];

function platformView(h: Awaited<ReturnType<CrowdPlatform['getHit']>>, at: Date): PlatformHitView {
  return {
    status: h.status,
    maxAssignments: h.maxAssignments,
    available: h.available,
    pending: h.pending,
    completed: h.completed,
    expiration: h.expiration ?? null,
    checkedAt: at,
  };
}

/** Whether a HIT's platform view changed (its check time aside): unchanged views are not written again. */
function samePlatformView(a: PlatformHitView | null | undefined, b: PlatformHitView): boolean {
  if (!a) return false;
  const time = (d: Date | null | undefined) => (d ? new Date(d).getTime() : null);
  return (
    a.status === b.status &&
    a.maxAssignments === b.maxAssignments &&
    a.available === b.available &&
    a.pending === b.pending &&
    a.completed === b.completed &&
    time(a.expiration) === time(b.expiration)
  );
}

/** A newly listed assignment as stored: its Answer XML (kept apart) and its document. */
function assignmentDocs(ctx: PipelineContext, hit: HitDoc, a: CrowdAssignment): { xml: string; doc: AssignmentDoc } {
  const { answers, parseError } = readAnswers(hit, a.answer);
  if (parseError)
    ctx.logger.warn(
      { assignment: a.assignmentId, hit: hit._id, parseError },
      'an assignment answer could not be read: it fails its checks',
    );
  const doc: AssignmentDoc = {
    _id: a.assignmentId,
    batch: hit.batch,
    hit: hit._id,
    hitId: a.hitId,
    workerId: a.workerId,
    platformStatus: a.status,
    acceptedAt: a.acceptTime ?? null,
    submittedAt: a.submitTime ?? null,
    storedAt: ctx.now(),
    answers,
    parseError,
    review: null,
    reviewState: 'pending',
    outcome: null,
    reviewedAt: null,
  };
  return { xml: a.answer, doc };
}

/**
 * A new assignment as the model casts it (its defaults added), through the driver's BSON:
 * what is inserted, and what a read would give back, so the round keeps it without a read
 * per assignment (one round trip each, 1,374 of them in the paper's batch).
 */
export function asInserted(ctx: PipelineContext, doc: AssignmentDoc): AssignmentDoc {
  const cast = new ctx.models.assignments(doc).toObject({ depopulate: true, versionKey: false });
  return BSON.deserialize(BSON.serialize(cast)) as AssignmentDoc;
}

/**
 * Brings the round's data up to date with what reconcile wrote: the assignments it inserted
 * as inserted, and any other new one (stored by a round cut off earlier) read back by `_id`.
 */
async function refresh(
  ctx: PipelineContext,
  data: BatchData,
  written: {
    fresh: readonly AssignmentDoc[];
    inserted: ReadonlySet<string>;
    statusChanges: readonly { _id: string; status: string }[];
    views: readonly { _id: string; view: PlatformHitView }[];
    /** The new assignments are held for the review to insert, not stored yet. */
    held: boolean;
  },
): Promise<void> {
  const hitById = new Map(data.hits.map((h) => [h._id, h]));
  for (const { _id, view } of written.views) hitById.get(_id)!.platform = view;
  const assignmentById = new Map(data.assignments.map((a) => [a._id, a]));
  for (const { _id, status } of written.statusChanges) assignmentById.get(_id)!.platformStatus = status;
  const added = await mapPool(written.fresh, 4, async (doc) =>
    written.inserted.has(doc._id) || written.held ? doc : ctx.models.assignments.findById(doc._id).lean<AssignmentDoc>(),
  );
  for (const a of added) if (a && !assignmentById.has(a._id)) data.assignments.push(a);
}

/**
 * Reconciles the batch's collecting HITs (or only `hitIds`, the platform's ids, e.g. from a
 * notification, or only `poll`, those a round was told of: round-poll.ts). Given the round's
 * `data` (its HITs and assignments as read at the start of the round), it reads nothing of the batch again and brings `data` up to date with what it
 * wrote: the HITs' platform views, the assignments' statuses, and the new assignments as the
 * database stored them (read back by `_id`), so that the rest of the round works on one read.
 *
 * `held` (with `data`): the new assignments are added to `data` and to `held`, not inserted;
 * the round's review inserts them with their decision (review.ts), one write each instead of
 * an insert and then an update. A round cut off before that lists them again, as it would
 * an assignment it never saw. Their Answer XML is stored here all the same. `pending` (with
 * `held`): those writes (Answer XML, statuses, HIT views) are started and added there rather
 * than awaited; the caller awaits them before the held assignments are inserted.
 */
export async function reconcileBatch(
  ctx: PipelineContext,
  doc: BatchDoc,
  opts: { hitIds?: readonly string[]; poll?: readonly string[] } = {},
  data?: BatchData,
  held?: AssignmentDoc[],
  pending?: Promise<void>[],
): Promise<ReconcileResult> {
  const settings = doc.settings as BatchSettings;
  const backend = ctx.backend(settings.target);
  // `hitIds` (a notification's) lists each HIT's assignments; `poll` (the round's notified HITs) polls them as a full round would
  const named = opts.hitIds ?? opts.poll;
  const only = named ? new Set(named) : undefined;
  const allHits = data?.hits ?? (await ctx.models.hits.find({ batch: doc._id }).lean<HitDoc[]>());
  const hits = allHits.filter((h) => COLLECTING.includes(h.state) && h.hitId && (!only || only.has(h.hitId)));
  const stored: readonly Pick<AssignmentDoc, '_id' | 'hit' | 'platformStatus'>[] =
    data?.assignments ??
    (await ctx.models.assignments
      .find({ batch: doc._id }, { hit: 1, platformStatus: 1 })
      .lean<Pick<AssignmentDoc, '_id' | 'hit' | 'platformStatus'>[]>());
  const statusOf = new Map(stored.map((a) => [a._id, a.platformStatus]));
  const heldBy = new Map<string, number>();
  for (const a of stored) heldBy.set(a.hit, (heldBy.get(a.hit) ?? 0) + 1);

  const result: ReconcileResult = { hitsPolled: 0, listed: 0, newAssignments: 0, statusChanges: 0, viewChanges: 0 };
  const fresh: { xml: string; doc: AssignmentDoc }[] = [];
  const statusChanges: { _id: string; status: string }[] = [];
  const views: { _id: string; view: PlatformHitView }[] = [];
  const polled = await pollHits(
    backend,
    hits.map((h) => h.hitId as string),
    settings.concurrency,
  );
  await mapPool(hits, settings.concurrency, async (hit) => {
    const view = platformView(polled.get(hit.hitId as string)!, ctx.now());
    result.hitsPolled++;
    const submitted = view.maxAssignments - view.available - view.pending;
    if (submitted > (heldBy.get(hit._id) ?? 0) || opts.hitIds) {
      const listed = await backend.listAssignments(hit.hitId as string);
      result.listed++;
      for (const a of listed) {
        const before = statusOf.get(a.assignmentId);
        if (before === undefined) fresh.push(assignmentDocs(ctx, hit, a));
        else if (before !== a.status) statusChanges.push({ _id: a.assignmentId, status: a.status });
      }
    }
    if (!samePlatformView(hit.platform, view)) views.push({ _id: hit._id, view });
  });
  // written together, in bulk (one round trip per 50 rather than one or two per assignment),
  // new documents inserted, changes filtered by `_id` alone; the Answer XML before the
  // assignment that refers to it. Reconciling is idempotent: a round cut off here lists the
  // same assignments again, and what it inserted already stays as it is.
  const writeAnswers = () =>
    insertMissing(
      ctx.models.assignmentAnswers,
      fresh.map(({ doc, xml }) => ({ _id: doc._id, xml })),
    );
  const writeChanges = async () => {
    await bulkWriteSliced(
      ctx.models.assignments,
      statusChanges.map(({ _id, status }) => ({ updateOne: { filter: { _id }, update: { $set: { platformStatus: status } } } })),
    );
    await bulkWriteSliced(
      ctx.models.hits,
      views.map(({ _id, view }) => ({ updateOne: { filter: { _id }, update: { $set: { platform: view } } } })),
    );
  };
  const cast = fresh.map(({ doc }) => asInserted(ctx, doc));
  const holding = held !== undefined && data !== undefined;
  let inserted = new Set<string>();
  if (holding && pending) {
    // nothing of the round reads these back: written while it decides, awaited before its review inserts the assignments
    handOver(
      pending,
      (async () => {
        await writeAnswers();
        await writeChanges();
      })(),
    );
  } else {
    await writeAnswers();
    if (!holding) inserted = await insertMissing(ctx.models.assignments, cast);
    await writeChanges();
  }
  if (holding) held.push(...cast);
  result.newAssignments = holding ? cast.length : inserted.size;
  result.statusChanges = statusChanges.length;
  result.viewChanges = views.length;
  if (data) await refresh(ctx, data, { fresh: cast, inserted, statusChanges, views, held: holding });
  if (result.newAssignments > 0) ctx.progress(`batch ${doc._id}: ${result.newAssignments} new assignments from ${result.hitsPolled} HITs`);
  return result;
}
