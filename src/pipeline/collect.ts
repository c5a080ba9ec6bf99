import { extraAssignmentsToken } from '../crowd/request-tokens.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc } from '../db/models/index.js';
import { describeShortfall, goldShortfall, goldUses, type HitPlan } from '../hits/index.js';
import { caseKey } from '../ingest/index.js';
import type { StuckItem } from '../quality/index.js';
import { aggregateBatch } from './aggregate.js';
import { alongside } from './alongside.js';
import { committedCents, extensionCents, withinBudget } from './budget.js';
import { bulkWriteSliced } from './bulk.js';
import type { PipelineContext } from './context.js';
import { BatchStateError } from './errors.js';
import { collectTargets, voteTargets } from './redundancy.js';
import { planFollowUp, type FollowUp, type HitProgress } from './follow-up.js';
import { itemId } from './names.js';
import { hitDocs, planWith, storeHits } from './plan.js';
import { priceTerms } from './budget.js';
import { publishPending } from './hit-service.js';
import { reconcileBatch, type ReconcileResult } from './reconcile.js';
import { goldItems, itemCases, visibleRecords } from './records.js';
import { reviewBatch, type ReviewResult } from './review.js';
import { describeHolder, formatHolder, goneHolder, processAlive, thisHolder } from './round-holder.js';
import { aggregateStored } from './votes.js';
import { decideWorkers } from './worker-decisions.js';
import { batchStamp, changedOnlyByRound, RoundMemories, type RoundMemory } from './round-memory.js';
import { updateBatchReputation } from './reputation.js';
import { roundReputationDue } from './round-reputation.js';
import { moveAudiences } from './adaptive-rounds.js';
import { updateExperience } from './experience-qualification.js';
import { loadBatchData, loadBatchHits, type BatchAggregation, type BatchData, requireBatch } from '../batches/index.js';

/**
 * One collection round of a published batch: create HITs not created yet, reconcile,
 * review, follow up (extra assignments, new HITs for stuck items, stop finished HITs),
 * aggregate. `qrelay review` runs one round; the server's per-batch job runs it
 * repeatedly while the batch is collecting. Every step is idempotent, so a round can be
 * cut off anywhere and the next one carries on.
 */

/** Rounds of new HITs for stuck items before the batch gives up on them. */
export const MAX_REPOSTS = 5;

export interface FollowUpResult {
  extended: number;
  extraAssignments: number;
  overBudget: number;
  stopped: number;
  done: number;
  reposted: number;
  stuck: number;
  complete: boolean;
}

export interface CollectResult {
  batch: string;
  state: BatchDoc['state'];
  reconcile: ReconcileResult;
  review: ReviewResult;
  followUp: FollowUpResult;
  aggregation: BatchAggregation;
}

const latest = (dates: Array<Date | string | null | undefined>) => Math.max(0, ...dates.map((d) => (d ? new Date(d).getTime() : 0)));

export function progressOf(hits: readonly HitDoc[], assignments: readonly AssignmentDoc[]): HitProgress[] {
  const stored = new Map<string, number>();
  const unreviewed = new Map<string, number>();
  for (const a of assignments) {
    stored.set(a.hit, (stored.get(a.hit) ?? 0) + 1);
    if (a.reviewState !== 'done') unreviewed.set(a.hit, (unreviewed.get(a.hit) ?? 0) + 1);
  }
  return hits.map((hit) => ({ hit, stored: stored.get(hit._id) ?? 0, unreviewed: unreviewed.get(hit._id) ?? 0 }));
}

export function followUpOf(doc: BatchDoc, data: BatchData, now: Date): FollowUp {
  const settings = doc.settings as BatchSettings;
  const { validCounts, valid } = aggregateStored(data.hits, data.assignments, settings);
  // the platform's clock may run ahead of ours (a simulated marketplace): take the latest time it told us
  const platformNow = Math.max(now.getTime(), latest(data.assignments.flatMap((a) => [a.acceptedAt, a.submittedAt])));
  return planFollowUp({
    hits: progressOf(data.hits, data.assignments),
    validVotes: validCounts,
    ...voteTargets(settings, valid),
    collect: collectTargets(settings, valid),
    platformNow,
  });
}

async function extend(ctx: PipelineContext, doc: BatchDoc, hit: HitDoc, targetMax: number): Promise<void> {
  const settings = doc.settings as BatchSettings;
  const pending = hit.pendingExtension ?? {
    round: hit.extensions,
    targetMax,
    token: extraAssignmentsToken(hit.hitId as string, hit.extensions),
  };
  // by `_id` alone (the dev database scans the collection for any other filter); the round lease keeps other rounds out
  if (!hit.pendingExtension) await ctx.models.hits.updateOne({ _id: hit._id }, { $set: { pendingExtension: pending } });
  await ctx.backend(settings.target).extendAssignments(hit.hitId as string, pending.targetMax, pending.token);
  const fields = { maxAssignments: pending.targetMax, extensions: pending.round + 1, pendingExtension: null };
  await ctx.models.hits.updateOne({ _id: hit._id }, { $set: fields, $unset: { platform: '' } });
  // the round's copy as the database now holds it (its next reconcile polls the HIT again)
  Object.assign(hit, fields);
  delete (hit as Partial<HitDoc>).platform;
}

/** New HITs for items no assignment of their HITs can serve; returns how many were planned. */
async function repost(ctx: PipelineContext, doc: BatchDoc, hits: readonly HitDoc[], stuck: readonly StuckItem[]): Promise<number> {
  const settings = doc.settings as BatchSettings;
  const round = doc.reposts + 1;
  const missing = new Map(stuck.map((s) => [s.item, s.missing]));
  const cases = await itemCases(
    ctx,
    stuck.map((s) => ({ _id: s.item })),
  );
  const gold = await goldItems(ctx, await visibleRecords(ctx, 'gold', doc._id));
  // the gold of the batch's HITs so far is drawn last: a worker never meets a check twice (hits/check-uniqueness.ts)
  // (with adaptive checks the items go to regular HITs: the starter pool was sized at publish, adaptive-rounds.ts tops it up)
  const plan: HitPlan = planWith(
    doc._id,
    { cases, gold, priorGoldUses: goldUses(hits), audience: 'regular' },
    settings,
    `${settings.seed}|repost-${round}`,
  );
  const firstIndex = Math.max(-1, ...hits.map((h) => h.index)) + 1;
  const docs = hitDocs(doc._id, plan, {
    firstIndex,
    origin: 'repost',
    // as many workers as its neediest item lacks (at most the vote target)
    maxAssignments: (i) =>
      Math.max(
        1,
        ...plan.hits[i]!.items.filter((x) => x.kind === 'real').map(
          (x) => missing.get(itemId(doc._id, caseKey(x.queryId, x.chunkId))) ?? 1,
        ),
      ),
  });
  await storeHits(ctx, docs, plan, firstIndex);
  const repeats = describeShortfall(goldShortfall([...hits, ...plan.hits], gold));
  if (repeats) ctx.progress(`batch ${doc._id}: ${repeats}`);
  await ctx.models.batches.updateOne({ _id: doc._id, reposts: doc.reposts }, { $set: { reposts: round, updatedAt: ctx.now() } });
  ctx.progress(
    `batch ${doc._id}: ${stuck.length} items need votes their HITs cannot bring: ${docs.length} new HIT${docs.length === 1 ? '' : 's'} (round ${round})`,
  );
  return docs.length;
}

/**
 * `confirm`: a round that reconciled only some HITs polls the rest before it declares the
 * batch complete, and answers whether that changed nothing (else the next round carries on).
 */
export async function followUpBatch(
  ctx: PipelineContext,
  doc: BatchDoc,
  data: BatchData,
  confirm?: () => Promise<boolean>,
): Promise<FollowUpResult> {
  const settings = doc.settings as BatchSettings;
  const backend = ctx.backend(settings.target);
  const result: FollowUpResult = {
    extended: 0,
    extraAssignments: 0,
    overBudget: 0,
    stopped: 0,
    done: 0,
    reposted: 0,
    stuck: 0,
    complete: false,
  };

  // an extension a crash cut short is finished first (it repeats the same token and target)
  for (const hit of data.hits.filter((h) => h.pendingExtension)) await extend(ctx, doc, hit, hit.pendingExtension!.targetMax);

  const plan = followUpOf(doc, data, ctx.now());
  // only a collecting batch asks for more work; an expired or complete one just takes in what comes
  const asking = doc.state === 'collecting';
  if (!asking) plan.extensions = [];
  const terms = priceTerms(settings);
  let committed = committedCents(data.hits, terms);
  const byId = new Map(data.hits.map((h) => [h._id, h]));
  for (const request of plan.extensions) {
    const hit = byId.get(request.hitId)!;
    const cost = extensionCents(terms, hit.maxAssignments, request.newMaxAssignments);
    if (!withinBudget(settings.budgetCents, committed, cost)) {
      result.overBudget++;
      continue;
    }
    committed += cost;
    await extend(ctx, doc, hit, request.newMaxAssignments);
    result.extended++;
    result.extraAssignments += request.extra;
  }
  for (const id of plan.stop) {
    await backend.expireHit(byId.get(id)!.hitId as string);
    result.stopped++;
  }
  if (plan.done.length > 0) {
    // the states as this round read them (its lease keeps other rounds out), written in bulk by `_id` alone
    const finished = plan.done.filter((id) => ['published', 'expired'].includes(byId.get(id)?.state ?? ''));
    await bulkWriteSliced(
      ctx.models.hits,
      finished.map((id) => ({ updateOne: { filter: { _id: id }, update: { $set: { state: 'done' as const } } } })),
    );
    for (const id of finished) byId.get(id)!.state = 'done';
    result.done = plan.done.length;
  }
  result.stuck = plan.stuck.length;
  const canRepost = asking && doc.reposts < MAX_REPOSTS;
  if (plan.stuck.length > 0 && !plan.unsent && canRepost) result.reposted = await repost(ctx, doc, data.hits, plan.stuck);
  if (result.extended > 0 || result.overBudget > 0) {
    ctx.progress(
      `batch ${doc._id}: ${result.extraAssignments} extra assignments on ${result.extended} HITs${result.overBudget ? `; ${result.overBudget} HITs left short: the budget is spent` : ''}`,
    );
  }
  // nothing more can come in: every HIT idle, nothing extended or posted this round, and
  // either every item has its votes or no new HIT may be posted for the rest
  const quiet = !plan.unsent && result.extended === 0 && result.reposted === 0 && plan.idle.length === plan.active;
  if (quiet && (plan.stuck.length === 0 || !canRepost) && (!confirm || (await confirm()))) {
    result.complete = true;
    if (doc.state === 'collecting') {
      await ctx.models.batches.updateOne(
        { _id: doc._id, state: 'collecting' },
        { $set: { state: 'complete', completedAt: ctx.now(), updatedAt: ctx.now() } },
      );
      ctx.progress(
        `batch ${doc._id}: complete${plan.itemsComplete ? ', every item has its votes' : `; ${plan.stuck.length} items without all their votes`}`,
      );
    }
  }
  return result;
}

/** A round longer than this is taken to have died, and its lease is taken over. */
export const ROUND_LEASE_MS = 10 * 60_000;

/** Another round of the batch holds its lease (a job, or another terminal). */
export class RoundBusy extends BatchStateError {
  constructor(batch: string, holder = 'another process') {
    super(`another collection round of batch ${batch} is running (${holder}): try again when it is done`);
    this.name = 'RoundBusy';
  }
}

/**
 * Runs `fn` holding the batch's round lease, so that two rounds (the repeated job, a
 * notification, a terminal) never follow up the same batch at once. The lease names its
 * holder (process id and host, round-holder.ts): a holder on this host whose process is
 * gone (a killed `qrelay review`) is taken over at once, with a progress line saying so;
 * any other dead holder's lease runs out after ROUND_LEASE_MS.
 */
/** What one round leaves for the next of the same batch in this process (round-memory.ts). */
const memories = new RoundMemories();

function memoryKey(ctx: PipelineContext, batch: string): string {
  const db = ctx.models.batches.db;
  return `${db.host}:${db.port}/${db.name}|${batch}`;
}

type Stamp = { createdAt: Date; publishedAt?: Date | null; revision?: number | null };

/**
 * The batch's HITs and assignments as this process's last round of it left them, if nothing
 * changed the batch since (its stamp): what a reader that comes right after the rounds (the
 * simulation's report) may take instead of reading the whole batch again. Kept for the next round.
 */
export async function lastRoundData(ctx: PipelineContext, batch: string): Promise<BatchData | undefined> {
  const doc = await ctx.models.batches.findById(batch, { createdAt: 1, publishedAt: 1, revision: 1 }).lean<Stamp>();
  return doc ? memories.peek(memoryKey(ctx, batch), batchStamp(doc))?.data : undefined;
}

async function withRoundLease<T>(
  ctx: PipelineContext,
  batch: string,
  fn: (recalled: RoundMemory | undefined) => Promise<{ value: T; memory?: RoundMemory }>,
): Promise<T> {
  const me = thisHolder();
  const owner = formatHolder(me);
  const now = ctx.now();
  const lease = { $set: { roundLeaseUntil: new Date(now.getTime() + ROUND_LEASE_MS), roundOwner: owner } };
  // the batch as claimed (before the lease's own write): its stamp says whether the last round's memory still holds
  let claimed = await ctx.models.batches
    .findOneAndUpdate({ _id: batch, $or: [{ roundLeaseUntil: null }, { roundLeaseUntil: { $lt: now } }] }, lease)
    .lean<Stamp>();
  if (!claimed) {
    const held = await ctx.models.batches.findById(batch, { roundOwner: 1 }).lean();
    const gone = goneHolder(held?.roundOwner, me.host, processAlive);
    // conditional on the same owner: of two processes taking over, one wins
    if (gone) claimed = await ctx.models.batches.findOneAndUpdate({ _id: batch, roundOwner: held!.roundOwner }, lease).lean<Stamp>();
    if (!claimed) throw new RoundBusy(batch, describeHolder(held?.roundOwner));
    ctx.progress(
      `batch ${batch}: took over the collection round lock of process ${gone!.pid} on ${gone!.host}, which is no longer running`,
    );
  }
  const key = memoryKey(ctx, batch);
  let outcome: { value: T; memory?: RoundMemory } | undefined;
  try {
    outcome = await fn(memories.take(key, batchStamp(claimed)));
    return outcome.value;
  } finally {
    const released = await ctx.models.batches
      .findOneAndUpdate(
        { _id: batch, roundOwner: owner },
        { $set: { roundLeaseUntil: null, roundOwner: null }, $inc: { revision: 1 } },
        { returnDocument: 'after' },
      )
      .lean<Stamp>();
    // kept only if nobody else changed the batch meanwhile (a failed round leaves nothing)
    if (outcome?.memory && released && changedOnlyByRound(claimed, released)) memories.keep(key, batchStamp(released), outcome.memory);
  }
}

/**
 * `hitIds`: a notification's HITs (each one's assignments listed); `poll`: the HITs a round
 * was told changed (round-poll.ts), polled as a full round polls them. Either way, the
 * round polls every other collecting HIT before it declares the batch complete.
 */
export interface CollectOptions {
  hitIds?: readonly string[];
  poll?: readonly string[];
}

export async function collectBatch(ctx: PipelineContext, batch: string, opts: CollectOptions = {}): Promise<CollectResult> {
  requireCollectable(await requireBatch(ctx, batch));
  return withRoundLease(ctx, batch, (recalled) => round(ctx, batch, opts, recalled));
}

/** A BatchStateError when no round of the batch can run (not published, or closed): what a request to queue one is told at once. */
export function requireCollectable(doc: Pick<BatchDoc, '_id' | 'settings' | 'state'>): void {
  const batch = doc._id;
  if (!doc.settings)
    throw new BatchStateError(`batch ${batch} is not published yet: publish it first (qrelay publish ${batch} --target <target>)`);
  if (doc.state === 'closed')
    throw new BatchStateError(`batch ${batch} is closed (its HITs were deleted): there is nothing left to collect`);
}

/** Reconciles the collecting HITs a partial round did not poll (adding to its `result`); answers whether nothing changed. */
async function pollTheRest(
  ctx: PipelineContext,
  doc: BatchDoc,
  data: BatchData,
  polled: readonly string[],
  result: ReconcileResult,
): Promise<boolean> {
  const seen = new Set(polled);
  const rest = data.hits.flatMap((h) => (h.hitId && !seen.has(h.hitId) ? [h.hitId] : []));
  const more = await reconcileBatch(ctx, doc, { poll: rest }, data);
  result.hitsPolled += more.hitsPolled;
  result.listed += more.listed;
  result.newAssignments += more.newAssignments;
  result.statusChanges += more.statusChanges;
  result.viewChanges += more.viewChanges;
  return more.newAssignments === 0 && more.statusChanges === 0 && more.viewChanges === 0;
}

/** The round's data after it published HITs: the HITs read again, the assignments as they were (publishing adds none). */
async function reloadHits(ctx: PipelineContext, batch: string, data: BatchData): Promise<BatchData> {
  return { hits: await loadBatchHits(ctx, batch), assignments: data.assignments };
}

/**
 * One round on one read of the batch: its HITs and assignments are read once (and again
 * only after HITs were created), and each stage brings that copy up to date with what it
 * writes (by `_id`, under the round's lease), instead of every stage reading the whole batch
 * again (the dev database scans a collection for any filter but a lone `_id`).
 */
async function round(
  ctx: PipelineContext,
  batch: string,
  opts: CollectOptions,
  recalled: RoundMemory | undefined,
): Promise<{ value: CollectResult; memory: RoundMemory }> {
  let doc = await requireBatch(ctx, batch);
  let data = recalled?.data ?? (await loadBatchData(ctx, batch));
  if (data.hits.some((h) => h.state === 'planned' || h.state === 'creating')) {
    await publishPending(ctx, doc);
    data = await reloadHits(ctx, batch, data);
  }
  // new assignments held for the review, which stores each with its decision (review.ts)
  const held: AssignmentDoc[] = [];
  // reconcile's writes (nothing of the round reads them back) go on while the round decides
  const reconcileWrites: Promise<void>[] = [];
  const reconcile = await reconcileBatch(ctx, doc, opts, data, held, reconcileWrites);
  const partial = opts.hitIds ?? opts.poll;
  const decisions = await alongside(reconcileWrites, async () => {
    // adaptive checks: workers past their starter HITs get qrelay-experience, for the regular HITs
    await updateExperience(ctx, doc, data.assignments);
    // worker-level decisions first (recorded, then sent), so that the review discards a stopped worker's unreviewed work
    return decideWorkers(ctx, doc, data);
  });
  // the review's `done` marks go on while the round plans its follow-up
  const reviewWrites: Promise<void>[] = [];
  const review = await reviewBatch(ctx, doc, decisions.standings, data, held, reviewWrites);
  const followUp = await alongside(reviewWrites, () =>
    followUpBatch(ctx, doc, data, partial ? () => pollTheRest(ctx, doc, data, partial, reconcile) : undefined),
  );
  if (followUp.reposted > 0) {
    await publishPending(ctx, await requireBatch(ctx, batch));
    data = await reloadHits(ctx, batch, data);
  }
  // adaptive checks: when one kind of HIT is all taken, some of the other kind move over (adaptive-rounds.ts)
  if (await moveAudiences(ctx, await requireBatch(ctx, batch), data.hits)) {
    await publishPending(ctx, await requireBatch(ctx, batch));
    data = await reloadHits(ctx, batch, data);
  }
  doc = await requireBatch(ctx, batch);
  const known = { labels: recalled?.labels, built: recalled?.built, last: recalled?.lastLabels };
  // the labels are written while the reputation is computed and set (other collections, and
  // on the dev database the platform's writes go to another database): awaited before the round ends
  const labelWrites: Promise<void>[] = [];
  const aggregation = await aggregateBatch(ctx, doc, data, known, labelWrites);
  // cross-batch reputation: the workers whose record in this batch changed (src/pipeline/reputation.ts);
  // a large simulated batch whose preset requires none updates it as it grows (round-reputation.ts)
  const reputation = { records: recalled?.reputation, qualification: recalled?.reputationQualification };
  const reputationDue = roundReputationDue(ctx, doc, data.assignments.length);
  await alongside(labelWrites, async () => {
    if (reputationDue)
      await updateBatchReputation(ctx, doc, data, aggregation, {
        known: reputation,
        ...(decisions.decided && { decisions: decisions.decided }),
      });
  });
  return {
    value: { batch, state: doc.state, reconcile, review, followUp, aggregation },
    memory: {
      data,
      labels: known.labels!,
      ...(known.built && { built: known.built }),
      ...(known.last && { lastLabels: known.last }),
      ...(reputation.records && { reputation: reputation.records }),
      ...(reputation.qualification && { reputationQualification: reputation.qualification }),
    },
  };
}
