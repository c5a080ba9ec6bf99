import { actionModels, auditTimes } from '../db/models/actions.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc, ReviewRecord, WorkerDecisionDoc } from '../db/models/index.js';
import { llmAssistedAction } from '../hits/index.js';
import type { LlmAssistedVerdict } from '../quality/llm-assisted.js';
import { workerSequences } from '../quality/drift.js';
import { flagStopsTheWorker } from '../quality/llm-flags.js';
import {
  answerOutcomes,
  assignmentSpeeds,
  batchVerdicts,
  DEFAULT_VERDICT_POLICY,
  detectDrift,
  driftPolicy,
  liftedStops,
  recounts,
  withinSpread,
  type BatchVerdicts,
  type Drift,
  type DriftPolicy,
  type DriftSegment,
  type Reference,
  type ScoredAssignment,
  type WorkerStanding,
  type WorkerVerdict,
} from '../quality/index.js';
import { BLOCKED_QUALIFICATION, blockedQualifications, ensureBlockedQualification } from './blocked-qualification.js';
import { bulkWriteSliced } from './bulk.js';
import type { PipelineContext } from './context.js';
import { roundLlmVerdicts } from './round-llm-verdicts.js';
import { roundDriftTested } from './round-drift.js';
import { roundVerdicts } from './round-verdicts.js';
import { recentByScores } from './derived-records.js';
import { scoreStored } from './votes.js';

/**
 * Worker-level decisions of a collection round (the imperative shell around
 * quality/worker-evidence.ts and quality/worker-verdict.ts). Each round, every worker's
 * evidence across the batch (checks of both polarities, agreement with the other workers'
 * majority, time per item) gives P(not doing the task); a worker for whom it reaches the
 * policy's confidence is stopped:
 * 1. the decision is recorded (worker_decisions, `decided`) with its reason and evidence,
 *    and the batch's audit log gets an entry (`soft-block`, by `qrelay:review`);
 * 2. the worker is given the target's `qrelay-blocked` qualification, which every HIT of
 *    qrelay's batches requires not to exist (src/pipeline/blocked-qualification.ts), and
 *    the decision becomes `sent` (a crash in between repeats the call, which is repeat-safe);
 * 3. the review that follows discards (or rejects, per the batch's policy) their work not
 *    reviewed yet; their work approved in earlier rounds stays paid but its votes stop
 *    counting (no money moves); the follow-up collects those items again from other workers.
 * Under a preset with `llmAssisted: block` (the default), a worker flagged `llm-assisted`
 * (pipeline/llm-flags.ts) is stopped the same way, with `cause: 'llm-assisted'` and the flag's
 * evidence as the reason, once the flag rests on the worker's own conduct (flagStopsTheWorker:
 * not on errors shared with other LLM-like workers alone); under `flag` the flag only lists them.
 * Decisions are revisited every round (quality/revisit.ts): a stop for not doing the task
 * that later evidence clears, or for LLM-assisted answers that the recomputed flag clears
 * (not flagged, P(LLM-assisted) under ½), is lifted (the qualification revoked, the worker told, the
 * decision deleted, an `unblock` audit entry with the evidence), and a cleared worker's
 * discarded assignments count again (a `recount` audit entry each). A person also lifts a
 * block with `qrelay worker qualify WORKER --qualification qrelay-blocked --revoke`.
 */

export const REVIEW_ACTOR = 'qrelay:review';

const auditId = (d: Pick<WorkerDecisionDoc, 'batch' | 'workerId' | 'decidedAt'>) =>
  `${d.batch}|${new Date(d.decidedAt).getTime()}|soft-block-${d.workerId}`;

/** The batch's stopped workers, by worker id. */
export async function workerDecisions(ctx: PipelineContext, batch: string): Promise<Map<string, WorkerDecisionDoc>> {
  const docs = await ctx.models.workerDecisions.find({ batch }).lean<WorkerDecisionDoc[]>();
  return new Map(docs.map((d) => [d.workerId, d]));
}

async function record(ctx: PipelineContext, doc: BatchDoc, decision: WorkerDecisionDoc): Promise<WorkerDecisionDoc> {
  await ctx.models.workerDecisions.updateOne({ _id: decision._id }, { $setOnInsert: decision }, { upsert: true });
  const stored = (await ctx.models.workerDecisions.findById(decision._id).lean<WorkerDecisionDoc>()) as WorkerDecisionDoc;
  const audit = actionModels(ctx.models.batches.db).audit;
  await audit.updateOne(
    { _id: auditId(stored) },
    {
      $setOnInsert: {
        batch: doc._id,
        ...auditTimes(ctx),
        who: REVIEW_ACTOR,
        action: 'soft-block',
        subject: stored.workerId,
        reason: stored.reason,
        details: {
          cause: stored.cause ?? 'not-working',
          probabilityNotWorking: stored.probabilityNotWorking,
          evidence: stored.evidence,
          target: stored.target,
        },
        outcome: 'decided',
      },
    },
    { upsert: true },
  );
  ctx.progress(`batch ${doc._id}: worker ${stored.workerId} stopped: ${stored.reason}`);
  return stored;
}

async function send(ctx: PipelineContext, decision: WorkerDecisionDoc): Promise<void> {
  const backend = ctx.backend(decision.target);
  let id: string;
  if (backend.qualifications) {
    id = await ensureBlockedQualification(ctx, decision.target, backend);
    await blockedQualifications(backend).setQualificationScore(id, decision.workerId, 1);
  } else {
    // a platform without qualification types (Prolific): its block list, which every study excludes
    await backend.blockWorker(decision.workerId, decision.reason);
    id = 'blocklist';
  }
  const sent = { state: 'sent' as const, sentAt: ctx.now() };
  await ctx.models.workerDecisions.updateOne({ _id: decision._id }, { $set: sent });
  // the round's copy as stored (the reputation takes the decisions from the round)
  Object.assign(decision, sent);
  await actionModels(ctx.models.batches.db).audit.updateOne(
    { _id: auditId(decision) },
    { $set: { outcome: 'done', 'details.qualificationTypeId': id } },
  );
}

/**
 * A stopped worker's votes stop counting, also those of work approved before they were
 * stopped (it stays paid). A HIT already done whose votes are withdrawn is open again for the
 * follow-up (extended while it is open, else its items posted anew): without that, its items
 * would stay short of votes in a batch called complete.
 */
async function retractCounted(
  ctx: PipelineContext,
  data: { hits: readonly HitDoc[]; assignments: readonly AssignmentDoc[] },
  decided: ReadonlyMap<string, WorkerDecisionDoc>,
  condemned: ReadonlySet<string>,
): Promise<void> {
  const reopen = new Set<string>();
  const withdrawn: { a: AssignmentDoc; review: ReviewRecord }[] = [];
  for (const a of data.assignments) {
    const decision = decided.get(a.workerId);
    if (!decision || a.reviewState !== 'done' || a.outcome === 'rejected' || a.override || a.review?.countsVotes !== true) continue;
    // a worker who turned careless keeps the work from before the change, unless their whole
    // record now says they do not do the task (a random clicker whose first answers were lucky)
    if (decision.cause === 'drift' && !condemned.has(a.workerId) && !driftedWork(decision).has(a._id)) continue;
    const reason = `${a.review.reason}; its votes were withdrawn when the worker was stopped for the batch: ${decision.reason}`;
    withdrawn.push({ a, review: { ...a.review, countsVotes: false, reason } });
  }
  // by `_id` alone (the dev database scans the collection for any other filter:
  // docs/dev-database.md); the round lease keeps other rounds out, and an override made meanwhile wins
  // over the review anyway
  await bulkWriteSliced(
    ctx.models.assignments,
    withdrawn.map(({ a, review }) => ({
      updateOne: { filter: { _id: a._id }, update: { $set: { 'review.countsVotes': false, 'review.reason': review.reason } } },
    })),
  );
  for (const { a, review } of withdrawn) {
    // the round's copy of the batch (pipeline/collect.ts) as the database now holds it
    a.review = review;
    reopen.add(a.hit);
  }
  for (const hit of data.hits)
    if (hit.state === 'done' && reopen.has(hit._id)) {
      await ctx.models.hits.updateOne({ _id: hit._id }, { $set: { state: 'published' } });
      hit.state = 'published';
    }
}

const LIFTED_SUBJECT = 'Your work in this batch counts again';
const LIFTED_TEXT =
  'Earlier our automatic quality checks stopped you from taking more HITs of this batch. The evidence of the batch as a whole now speaks for your work: the stop is lifted, you may take its HITs again, and your answers count.';

/** Lifts the stops later evidence clears: audit first, then the qualification, the message, the decision. */
async function liftStops(
  ctx: PipelineContext,
  doc: BatchDoc,
  decided: Map<string, WorkerDecisionDoc>,
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  llm: ReadonlyMap<string, LlmAssistedVerdict>,
): Promise<void> {
  // a stop for LLM-assisted answers is lifted when the recomputed LLM verdict clears the worker
  const lifts = liftedStops([...decided.values()], verdicts, DEFAULT_VERDICT_POLICY, llm);
  if (lifts.length === 0) return;
  const target = (doc.settings as BatchSettings).target;
  const backend = ctx.backend(target);
  const known = await ctx.models.targetQualifications.findById(`${target}|${BLOCKED_QUALIFICATION}`).lean();
  const holders = known ? await blockedQualifications(backend).qualificationScores(known.qualificationTypeId) : new Map<string, number>();
  const audit = actionModels(ctx.models.batches.db).audit;
  for (const { workerId, reason, verdict } of lifts) {
    const decision = decided.get(workerId) as WorkerDecisionDoc;
    const _id = `${doc._id}|${new Date(decision.decidedAt).getTime()}|unblock-${workerId}`;
    const entry = {
      batch: doc._id,
      ...auditTimes(ctx),
      who: REVIEW_ACTOR,
      action: 'unblock',
      subject: workerId,
      reason,
      details: { probabilityNotWorking: verdict.probabilityNotWorking, evidence: verdict.evidence, stoppedFor: decision.reason, target },
      outcome: 'decided',
    };
    await audit.updateOne({ _id }, { $setOnInsert: entry }, { upsert: true });
    // repeat-safe: revoked only while held, the decision deleted last (a crash before it lifts again)
    // a platform without qualification types (Prolific) holds the stop on its block list
    if (!backend.qualifications) await backend.unblockWorker(workerId, reason);
    else if (known && holders.has(workerId))
      await blockedQualifications(backend).revokeQualification(known.qualificationTypeId, workerId, reason);
    const unreached = await backend.notifyWorkers([workerId], LIFTED_SUBJECT, LIFTED_TEXT);
    await ctx.models.workerDecisions.deleteOne({ _id: decision._id });
    await audit.updateOne({ _id }, { $set: { outcome: 'done', 'details.notified': unreached.length === 0 } });
    decided.delete(workerId);
    ctx.progress(`batch ${doc._id}: worker ${workerId} ${reason}`);
  }
}

/** A cleared worker's discarded assignments count again: the labels follow, no extra assignment is bought for them. */
async function recountCleared(
  ctx: PipelineContext,
  doc: BatchDoc,
  data: { assignments: readonly AssignmentDoc[] },
  decided: ReadonlyMap<string, WorkerDecisionDoc>,
  verdicts: ReadonlyMap<string, WorkerVerdict>,
): Promise<void> {
  // only discarded work can count again (recounts): the rest of the batch is not mapped every round
  const discarded = data.assignments.filter((a) => a.review?.countsVotes === false);
  const byId = new Map(discarded.map((a) => [a._id, a]));
  const again = recounts(
    discarded.map((a) => ({
      assignmentId: a._id,
      workerId: a.workerId,
      done: a.reviewState === 'done',
      outcome: a.outcome === 'approved' || a.outcome === 'rejected' || a.outcome === 'auto-approved' ? a.outcome : null,
      countsVotes: a.review?.countsVotes,
      overridden: Boolean(a.override),
      reason: a.review?.reason ?? '',
    })),
    verdicts,
    new Set(decided.keys()),
    DEFAULT_VERDICT_POLICY,
  );
  if (again.length === 0) return;
  await bulkWriteSliced(
    ctx.models.assignments,
    again.map(({ assignmentId, reason }) => ({
      updateOne: { filter: { _id: assignmentId }, update: { $set: { 'review.countsVotes': true, 'review.reason': reason } } },
    })),
  );
  const audit = actionModels(ctx.models.batches.db).audit;
  for (const { assignmentId, reason } of again) {
    const a = byId.get(assignmentId) as AssignmentDoc;
    a.review = { ...(a.review as ReviewRecord), countsVotes: true, reason };
    const verdict = verdicts.get(a.workerId) as WorkerVerdict;
    await audit.updateOne(
      { _id: `${doc._id}|${ctx.now().getTime()}|recount-${assignmentId}` },
      {
        $setOnInsert: {
          batch: doc._id,
          ...auditTimes(ctx),
          who: REVIEW_ACTOR,
          action: 'recount',
          subject: assignmentId,
          reason,
          details: { workerId: a.workerId, probabilityNotWorking: verdict.probabilityNotWorking, evidence: verdict.evidence },
          outcome: 'done',
        },
      },
      { upsert: true },
    );
  }
  ctx.progress(`batch ${doc._id}: ${again.length} discarded assignments of cleared workers count again`);
}

/** Each worker's scored assignments in the batch. */
function assignmentsByWorker(scored: readonly ScoredAssignment[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const { assignment } of scored) out.set(assignment.worker, (out.get(assignment.worker) ?? 0) + 1);
  return out;
}

/** The assignments a drift decision withdraws: those from the change on. */
const driftedWork = (decision: WorkerDecisionDoc): Set<string> =>
  new Set(Array.isArray(decision.evidence.after) ? (decision.evidence.after as unknown[]).map(String) : []);

/** An assignment's outcomes: `fresh`'s, else `known`'s. */
const withKnown =
  (fresh: ReadonlyMap<string, readonly boolean[]>, known: ReadonlyMap<string, readonly boolean[]> | undefined) =>
  (id: string): readonly boolean[] | undefined =>
    fresh.get(id) ?? known?.get(id);

/** Each worker's segments ordered by their documents' submission times (none first): driftsOf's, when some have none. */
function sortedSequences(
  scored: readonly ScoredAssignment[],
  assignments: readonly AssignmentDoc[],
  notReferences: ReadonlySet<string>,
  outcomes: (id: string) => readonly boolean[] | undefined,
  speeds: ReadonlyMap<string, number>,
): [string, DriftSegment[]][] {
  const inBatch = new Set(scored.map((s) => s.assignment.assignmentId));
  const byWorker = new Map<string, AssignmentDoc[]>();
  for (const a of assignments) {
    if (notReferences.has(a.workerId) || !inBatch.has(a._id)) continue;
    const mine = byWorker.get(a.workerId);
    if (mine) mine.push(a);
    else byWorker.set(a.workerId, [a]);
  }
  const time = (a: AssignmentDoc) => (a.submittedAt ? new Date(a.submittedAt).getTime() : 0);
  return [...byWorker].map(([workerId, mine]): [string, DriftSegment[]] => {
    // each time read once, not once per comparison
    const timed = mine.map((a) => ({ a, at: time(a) }));
    timed.sort((x, y) => x.at - y.at || (x.a._id < y.a._id ? -1 : 1));
    return [workerId, timed.map(({ a }) => ({ assignmentId: a._id, outcomes: outcomes(a._id) ?? [], speed: speeds.get(a._id) }))];
  });
}

/**
 * Workers who turned careless mid-batch (quality/drift.ts): each one's answers, in the order of
 * their submissions, right or wrong against the checks and the batch verdicts' references (the
 * fitted worker model's, quality/worker-model.ts: workers stopped, flagged or with P(not working)
 * ½ or more left out). `tested`: the workers tested (pipeline/round-drift.ts; all without it);
 * the spread of a person's pace is measured on everyone's times either way.
 */
function driftsOf(
  scored: readonly ScoredAssignment[],
  assignments: readonly AssignmentDoc[],
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  notReferences: ReadonlySet<string>,
  policy: DriftPolicy,
  references: Reference,
  tested?: ReadonlySet<string>,
  known?: ReadonlyMap<string, readonly boolean[]>,
): Map<string, Drift> {
  const excluded = new Set([...notReferences, ...[...verdicts].filter(([, v]) => v.probabilityNotWorking >= 0.5).map(([w]) => w)]);
  // each assignment's outcomes depend on it and the references alone: only the tested workers' are
  // needed, and those the verdicts found on the same references (`known`) are not looked up again
  const needed = scored.filter((s) => (!tested || tested.has(s.assignment.worker)) && !known?.has(s.assignment.assignmentId));
  const outcomes = withKnown(answerOutcomes(needed, excluded, references), known);
  const speeds = assignmentSpeeds(scored);
  // the scores are in submission order (votes.ts scoreStored), each worker's record too, unless
  // an assignment has no submission time (scoreStored puts it last, the drift test first)
  const sequences = assignments.every((a) => a.submittedAt)
    ? [...workerSequences(scored, notReferences, outcomes, speeds)]
    : sortedSequences(scored, assignments, notReferences, outcomes, speeds);
  // one person's HITs spread around their own pace as this batch's people do (drift.ts withinSpread)
  const measured = {
    ...policy,
    withinSigma: withinSpread(
      sequences.map(([, segments]) => segments),
      policy.withinSigma,
    ),
  };
  const drifts = new Map<string, Drift>();
  for (const [workerId, segments] of sequences) {
    if (tested && !tested.has(workerId)) continue;
    const drift = detectDrift(segments, measured);
    if (drift.drifted) drifts.set(workerId, drift);
  }
  return drifts;
}

/**
 * `batchVerdicts` is a function of the scores and the workers left out of the references
 * alone, and a round in which no assignment came in or changed has the very same scores
 * (derived-records.ts): the fit is not redone. Only the last fit is kept: an older one is
 * never asked for again (the next round's scores differ), and each held megabytes of a
 * large batch (issue 38, item 13).
 */
const recentVerdicts = recentByScores<BatchVerdicts>(1);

/** P(LLM-assisted) from which a worker not flagged yet is no reference for the others' verdicts. */
const LIKELY_LLM = 0.5;

function verdictsOf(scored: readonly ScoredAssignment[], notReferences: ReadonlySet<string>): BatchVerdicts {
  const key = JSON.stringify([...notReferences].sort());
  return recentVerdicts(scored, key, () => batchVerdicts(scored, notReferences, DEFAULT_VERDICT_POLICY));
}

export interface WorkerDecisionRound {
  /** Every worker's standing for the review (stopped or not, with the verdict). */
  standings: Map<string, WorkerStanding>;
  /**
   * The batch's decisions after the round, by worker (what `workerDecisions` would read back:
   * only this function records them, under the round's lease); undefined when the batch
   * makes no worker decisions (nothing was read).
   */
  decided?: ReadonlyMap<string, WorkerDecisionDoc>;
}

/** Decides, records and sends this round's worker-level decisions. */
export async function decideWorkers(
  ctx: PipelineContext,
  doc: BatchDoc,
  data: { hits: readonly HitDoc[]; assignments: readonly AssignmentDoc[] },
): Promise<WorkerDecisionRound> {
  const settings = doc.settings as BatchSettings;
  if (settings.review.workerDecisions === false) return { standings: new Map() };
  const decided = await workerDecisions(ctx, doc._id);
  // LLM-assisted answers are one model's, not people's independent judgments: a flagged
  // worker is no reference for the others (a bloc of them would outvote careful people),
  // whatever the preset does with the flag; with `llmAssisted: block` they are also stopped
  const llm = await roundLlmVerdicts(ctx, doc, data);
  const flagged = new Set([...llm].filter(([, v]) => v.flagged).map(([w]) => w));
  const blocksLlm = llmAssistedAction(settings.preset) === 'block';
  // the batch's verdicts under its own fitted working model (quality/batch-verdicts.ts)
  const scored = scoreStored(data.hits, data.assignments);
  // nor is a worker more likely than not giving one model's verdicts, flagged or not yet (as the
  // batch verdicts leave out of the references a worker more likely not working than working):
  // one such vote on an item of two or three others decides its reference against a careful person
  const likelyLlm = [...llm].filter(([, v]) => (v.posterior?.probability ?? 0) >= LIKELY_LLM).map(([w]) => w);
  const notReferences = new Set([...decided.keys(), ...flagged, ...likelyLlm]);
  const counts = assignmentsByWorker(scored);
  // a simulated batch keeps its fit between growths and re-judges the workers with new work (round-verdicts.ts)
  const { verdicts, fit, references, outcomes } = roundVerdicts(ctx, doc, scored, notReferences, counts, () =>
    verdictsOf(scored, notReferences),
  );
  await liftStops(ctx, doc, decided, verdicts, llm);
  // drift is measured against the batch's careful workers (the fixed prior until the batch has enough of them)
  const drifts = driftsOf(
    scored,
    data.assignments,
    verdicts,
    new Set([...decided.keys(), ...flagged]),
    driftPolicy(fit.policy.agreement, fit.policy.speed),
    references,
    roundDriftTested(ctx, doc, counts),
    outcomes,
  );
  const standings = new Map<string, WorkerStanding>();
  for (const [workerId, verdict] of [...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    let decision = decided.get(workerId);
    const llmVerdict = llm.get(workerId);
    const blocked = blocksLlm && llmVerdict !== undefined && flagStopsTheWorker(llmVerdict);
    const drift = drifts.get(workerId);
    if (!decision && (verdict.stop || blocked || drift)) {
      const cause = verdict.stop ? 'not-working' : blocked ? 'llm-assisted' : 'drift';
      decision = await record(ctx, doc, {
        _id: `${doc._id}|${workerId}`,
        batch: doc._id,
        workerId,
        target: settings.target,
        action: 'soft-block',
        state: 'decided',
        reason:
          cause === 'not-working'
            ? verdict.reason
            : cause === 'llm-assisted'
              ? `llm-assisted: ${llm.get(workerId)?.evidence.join('; ')}`
              : (drift as Drift).reason,
        cause,
        probabilityNotWorking: verdict.probabilityNotWorking,
        evidence: { ...verdict.evidence, ...(cause === 'drift' && { after: [...(drift as Drift).after] }) },
        decidedAt: ctx.now(),
        sentAt: null,
      });
      decided.set(workerId, decision);
    }
    standings.set(workerId, {
      verdict,
      stoppedReason: decision?.reason ?? null,
      ...(decision?.cause === 'llm-assisted' && { stoppedCause: 'llm-assisted' as const }),
    });
  }
  for (const decision of decided.values()) if (decision.state === 'decided') await send(ctx, decision);
  await retractCounted(ctx, data, decided, new Set([...verdicts].filter(([, v]) => v.stop).map(([w]) => w)));
  await recountCleared(ctx, doc, data, decided, verdicts);
  return { standings, decided };
}
