import type { AnyBulkWriteOperation } from 'mongodb';
import { requireCapability, type CrowdPlatform, type QualificationRequirementSpec } from '../crowd/platform.js';
import { formatUsd } from '@qrelay/marketplace/fees';
import { hitRequestToken } from '../crowd/request-tokens.js';
import { CrowdCallError } from '../crowd/call-error.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc } from '../db/models/index.js';
import { UserError } from '../errors.js';
import {
  estimatedHitSeconds,
  loadQualificationTest,
  prolificEligibility,
  resolveQualificationRequirements,
  type HitAudience,
} from '../hits/index.js';
import { committedCents, hitCommitment, outstandingCents, priceTerms, withinBudget } from './budget.js';
import type { PipelineContext } from './context.js';
import { hitAnnotation } from './names.js';
import type { PlannedQuestions } from './plan.js';
import { mapPool } from './pool.js';
import { BULK_SLICE, bulkWriteSliced } from './bulk.js';
import { touchBatch } from './revision.js';
import { BLOCKED_QUALIFICATION, blockedQualifications, ensureBlockedQualification, notBlocked } from './blocked-qualification.js';
import { addReputationRequirement } from './reputation.js';
import { withExperienceRequirement } from './experience-qualification.js';

/**
 * Creating a batch's HITs on its crowd target: the qualification types and the HIT type,
 * then one CreateHIT per planned HIT (the plan's and the reposts of collection rounds).
 * Used by publish and collect.
 *
 * Crash safety: each HIT's UniqueRequestToken (batch, HIT, attempt) is recorded before its
 * CreateHIT call, so a publisher killed at any moment repeats the same token on restart and
 * the platform answers HitAlreadyExists with the HIT it made (taken as success). MTurk
 * remembers a token for 24 hours: a HIT whose token is older than that is looked up by its
 * RequesterAnnotation before it is sent again.
 */

const TOKEN_MEMORY_MS = 23 * 3600_000;

const usd = (cents: number) => `$${formatUsd(cents)}`;

export interface CreationResult {
  batch: string;
  hits: number;
  created: number;
  reused: number;
  alreadyPublished: number;
}

async function ensureHitType(
  ctx: PipelineContext,
  doc: BatchDoc,
  backend: CrowdPlatform,
  audience: HitAudience = 'regular',
): Promise<string> {
  // adaptive checks: starter HITs have a HIT type of their own (experience-qualification.ts)
  const field = audience === 'starter' ? 'starterHitTypeId' : 'hitTypeId';
  const known = doc[field];
  if (known) return known;
  const settings = doc.settings as BatchSettings;
  if (!backend.qualifications) return ensureWorkType(ctx, doc, backend, field);
  const customIds: Record<string, string> = {};
  for (const q of settings.preset.qualificationRequirements) {
    if (!q.custom || customIds[q.custom]) continue;
    const test = loadQualificationTest(q.custom);
    const qualifications = requireCapability(backend, 'qualifications', `preset ${settings.presetName}'s qualification test ${q.custom}`);
    const { id, created } = await qualifications.ensureQualificationType({
      name: test.name,
      description: test.description,
      keywords: test.keywords,
      test: test.test,
      answerKey: test.answerKey,
      testDurationSeconds: test.testDurationSeconds,
      ...(test.retryDelaySeconds !== undefined && { retryDelaySeconds: test.retryDelaySeconds }),
    });
    customIds[q.custom] = id;
    await ctx.models.targetQualifications.updateOne(
      { _id: `${settings.target}|${q.custom}` },
      { $set: { target: settings.target, name: q.custom, qualificationTypeId: id, recordedAt: ctx.now() } },
      { upsert: true },
    );
    ctx.progress(`qualification ${q.custom} on ${settings.target}: ${id}${created ? ' (created)' : ''}`);
  }
  const requirements: QualificationRequirementSpec[] = resolveQualificationRequirements(settings.preset, {
    target: backend.target.kind === 'production' ? 'production' : backend.target.name,
    customIds,
  }).map((r) => ({
    qualificationTypeId: r.QualificationTypeId as string,
    comparator: r.Comparator as QualificationRequirementSpec['comparator'],
    ...(r.IntegerValues && { integerValues: r.IntegerValues }),
    ...(r.LocaleValues && {
      localeValues: r.LocaleValues.map((l) => ({ country: l.Country as string, ...(l.Subdivision && { subdivision: l.Subdivision }) })),
    }),
    ...(r.ActionsGuarded && { actionsGuarded: r.ActionsGuarded }),
  }));
  // a preset's minReputation: the target's qrelay-reputation qualification (src/pipeline/reputation.ts)
  await addReputationRequirement(ctx, settings, backend, requirements, customIds);
  // workers soft-blocked by an earlier round or batch on this target cannot take the HITs
  // (MTurk takes at most 10 requirements: a preset that uses them all goes without)
  if (requirements.length < 10) {
    const blockedId = await ensureBlockedQualification(ctx, settings.target, backend);
    customIds[BLOCKED_QUALIFICATION] = blockedId;
    requirements.push(notBlocked(blockedId));
  }
  const p = settings.preset;
  const hitTypeId = await backend.createHitType({
    ...workTerms(p),
    qualificationRequirements: await withExperienceRequirement(ctx, settings, backend, requirements, audience),
  });
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { [field]: hitTypeId, qualificationIds: customIds, updatedAt: ctx.now() } });
  return hitTypeId;
}

/** What a work type takes of the preset, whatever the platform. */
const workTerms = (p: BatchSettings['preset']) => ({
  title: p.title,
  description: p.description,
  keywords: p.keywords,
  reward: p.reward,
  assignmentDurationSeconds: p.assignmentDurationSeconds,
  autoApprovalDelaySeconds: p.autoApprovalDelaySeconds,
});

/**
 * The work type on a platform without qualification types (Prolific): the preset's
 * requirements become the platform's filters where one exists, and each that has none is
 * said; workers qrelay blocks are kept out by the platform's block list.
 */
async function ensureWorkType(
  ctx: PipelineContext,
  doc: BatchDoc,
  backend: CrowdPlatform,
  field: 'hitTypeId' | 'starterHitTypeId',
): Promise<string> {
  const settings = doc.settings as BatchSettings;
  // the soft block keeps a stopped worker out: without qualification types it needs a
  // block-list participant group; a platform with neither is refused before anything is posted
  if (!backend.participantGroups) blockedQualifications(backend);
  // adaptive checks tell new workers from experienced ones by a qualification: refused here, before anything is posted
  if (settings.layout.adaptive) requireCapability(backend, 'qualifications', `preset ${settings.presetName}'s adaptive attention checks`);
  const p = settings.preset;
  const { filters, unmapped } = prolificEligibility(p);
  for (const line of unmapped) ctx.progress(`batch ${doc._id} on ${settings.target}: ${line}`);
  if (p.minReputation !== undefined) {
    ctx.progress(
      `batch ${doc._id} on ${settings.target}: minReputation needs qualification types, which ${backend.platform} lacks: left out`,
    );
  }
  const hitTypeId = await backend.createHitType({
    ...workTerms(p),
    qualificationRequirements: [],
    estimatedSeconds: estimatedHitSeconds(p),
    filters,
  });
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { [field]: hitTypeId, qualificationIds: {}, updatedAt: ctx.now() } });
  return hitTypeId;
}

function crowdFailure(err: unknown, hit: HitDoc, target: string): unknown {
  if (!(err instanceof CrowdCallError)) return err;
  if (err.failure.kind === 'request-error') {
    return new UserError(`HIT ${hit.index} of batch ${hit.batch}: ${target} refused it: ${err.message}`, { cause: err });
  }
  return new UserError(
    `HIT ${hit.index} of batch ${hit.batch}: ${err.message}; ${target} keeps failing: run the same command again later to continue (no HIT is created twice)`,
    { cause: err },
  );
}

/** An existing HIT made with this HIT's annotation (for tokens the platform may have forgotten). */
async function findByAnnotation(backend: CrowdPlatform, annotation: string): Promise<string | undefined> {
  for await (const h of backend.listHits()) if (h.requesterAnnotation === annotation) return h.hitId;
  return undefined;
}

/** A HIT whose token is recorded (state `creating`), ready for its CreateHIT call. */
type Claimed = HitDoc & { requestToken: string };

/**
 * Records the UniqueRequestToken of each planned HIT of `hits` before any of them is sent
 * (one bulk write; HITs already `creating` keep the token they were given). The filter is
 * the `_id` alone: the dev database answers it from its index, where `{_id, state}` would
 * scan the whole collection per HIT. The states were read moments ago by this publisher; a
 * second publisher of the same batch at the same time writes the same token (it depends on
 * the batch, the HIT and its attempt only), so the platform still makes each HIT once.
 */
async function recordTokens(ctx: PipelineContext, batch: string, hits: readonly HitDoc[]): Promise<Claimed[]> {
  const now = ctx.now();
  const claimed = hits.map((h): Claimed =>
    h.state === 'planned'
      ? { ...h, state: 'creating', requestToken: hitRequestToken(batch, h.index, h.attempt), tokenRecordedAt: now }
      : (h as Claimed),
  );
  await bulkWriteSliced(
    ctx.models.hits,
    claimed
      .filter((h, i) => hits[i]!.state === 'planned')
      .map((h) => ({
        updateOne: {
          filter: { _id: h._id },
          update: { $set: { state: 'creating', requestToken: h.requestToken, tokenRecordedAt: h.tokenRecordedAt } },
        },
      })) as AnyBulkWriteOperation<HitDoc>[],
  );
  return claimed;
}

/** One CreateHIT (or, for a token older than the platform's memory, the HIT found by its annotation). */
async function createOnPlatform(
  ctx: PipelineContext,
  doc: BatchDoc,
  hit: Claimed,
  backend: CrowdPlatform,
  hitTypeId: string,
  questions: PlannedQuestions | undefined,
): Promise<{ hitId: string; reused: boolean }> {
  const settings = doc.settings as BatchSettings;
  const annotation = hitAnnotation(doc._id, hit.index, hit.attempt);
  try {
    if (hit.tokenRecordedAt && ctx.now().getTime() - new Date(hit.tokenRecordedAt).getTime() > TOKEN_MEMORY_MS) {
      const hitId = await findByAnnotation(backend, annotation);
      if (hitId !== undefined) return { hitId, reused: true };
    }
    // the plan's own question when it is the one stored for this HIT (same SHA-256), else the stored one
    const planned = questions?.get(hit._id);
    const question = planned && planned.sha256 === hit.questionSha256 ? planned : await ctx.models.hitQuestions.findById(hit._id).lean();
    if (!question) throw new UserError(`the question of HIT ${hit.index} of batch ${doc._id} is missing from the database`);
    // the debate experiment: qrelay's task page gives each worker the page of their arm (docs/experiment.md)
    const task = { batch: doc._id, index: hit.index };
    const experimentPage = settings.experiment === 'debate' && backend.platform === 'mturk';
    return await backend.createHit({
      hitTypeId,
      question: experimentPage ? await ctx.taskPageQuestion(task, settings.layout.frameHeight) : question.xml,
      maxAssignments: hit.maxAssignments,
      lifetimeSeconds: settings.preset.lifetimeSeconds,
      requesterAnnotation: annotation,
      uniqueRequestToken: hit.requestToken,
      task,
    });
  } catch (err) {
    const failure = crowdFailure(err, hit, settings.target);
    await ctx.models.hits.updateOne(
      { _id: hit._id },
      { $set: { lastError: failure instanceof Error ? failure.message : String(failure) } },
    );
    throw failure;
  }
}

/** The created HITs' ids and states, in bulk (by `_id` alone), then one revision of the batch. */
async function recordCreated(
  ctx: PipelineContext,
  doc: BatchDoc,
  made: readonly { hit: HitDoc; hitId: string; hitTypeId: string }[],
): Promise<void> {
  if (made.length === 0) return;
  const now = ctx.now();
  await bulkWriteSliced(
    ctx.models.hitIds,
    made.map(({ hit, hitId }) => ({
      updateOne: { filter: { _id: hitId }, update: { $set: { hit: hit._id, batch: doc._id } }, upsert: true },
    })),
  );
  await bulkWriteSliced(
    ctx.models.hits,
    made.map(({ hit, hitId, hitTypeId }) => ({
      updateOne: {
        filter: { _id: hit._id },
        update: { $set: { state: 'published', hitId, hitTypeId, publishedAt: now, lastError: null } },
      },
    })) as AnyBulkWriteOperation<HitDoc>[],
  );
  // status and report answers are snapshots of the batch's revision (src/api/answers.ts)
  await touchBatch(ctx, doc._id);
}

/** What the open HITs of the other batches on this target may still be charged. */
async function outstandingElsewhere(ctx: PipelineContext, target: string, except: string): Promise<number> {
  const batches = await ctx.models.batches
    .find({ state: { $in: ['publishing', 'collecting', 'expired'] } }, { settings: 1 })
    .lean<Pick<BatchDoc, '_id' | 'settings'>[]>();
  let owed = 0;
  for (const b of batches) {
    if (b._id === except || !b.settings || b.settings.target !== target) continue;
    const [hits, reviewed] = await Promise.all([
      ctx.models.hits.find({ batch: b._id }, { state: 1, maxAssignments: 1 }).lean<Pick<HitDoc, '_id' | 'state' | 'maxAssignments'>[]>(),
      ctx.models.assignments.find({ batch: b._id, reviewState: 'done' }, { hit: 1 }).lean<Pick<AssignmentDoc, '_id' | 'hit'>[]>(),
    ]);
    const perHit = new Map<string, number>();
    for (const a of reviewed) perHit.set(a.hit, (perHit.get(a.hit) ?? 0) + 1);
    owed += outstandingCents(hits, perHit, priceTerms(b.settings));
  }
  return owed;
}

/**
 * Creates every planned HIT of the batch (plan and reposts alike); idempotent. `questions`:
 * the plan just stored, when the caller has it (otherwise each HIT's question is read);
 * each is taken out of it once its HIT is created.
 */
export async function publishPending(ctx: PipelineContext, doc: BatchDoc, questions?: PlannedQuestions): Promise<CreationResult> {
  const settings = doc.settings as BatchSettings;
  const backend = ctx.backend(settings.target);
  const hits = (await ctx.models.hits.find({ batch: doc._id }).lean<HitDoc[]>()).sort((a, b) => a.index - b.index);
  const todo = hits.filter((h) => h.state === 'planned' || h.state === 'creating');
  const result = { batch: doc._id, hits: hits.length, created: 0, reused: 0, alreadyPublished: hits.length - todo.length };
  if (todo.length === 0) return result;

  const terms = priceTerms(settings);
  const need = todo.reduce((sum, h) => sum + hitCommitment(terms, h.maxAssignments).total, 0);
  // MTurk holds the funds of created HITs; a platform that does not (the bundled
  // marketplace) still owes the open slots of our other batches out of the same balance
  const { availableCents, onHoldCents } = await backend.accountBalance();
  const owedElsewhere = Math.max(0, (await outstandingElsewhere(ctx, settings.target, doc._id)) - onHoldCents);
  if (availableCents - owedElsewhere < need) {
    const owed = owedElsewhere > 0 ? `, ${usd(owedElsewhere)} of it owed to open HITs of other batches,` : '';
    throw new UserError(
      `the account on ${settings.target} holds ${usd(availableCents)}${owed} less than the ${usd(need)} the ${todo.length} remaining HITs of batch ${doc._id} may cost: add funds, then run publish again`,
    );
  }
  const hitTypeId = await ensureHitType(ctx, doc, backend);
  const starterTypeId = todo.some((h) => h.audience === 'starter') ? await ensureHitType(ctx, doc, backend, 'starter') : hitTypeId;
  let committed = committedCents(hits, terms);
  let overBudget: HitDoc | undefined;
  // Crash safety holds per HIT (its token recorded before its call, its id after); the
  // writes around the calls go in bulk, a slice of HITs at a time.
  for (let i = 0; i < todo.length && !overBudget; i += BULK_SLICE) {
    const slice: HitDoc[] = [];
    for (const hit of todo.slice(i, i + BULK_SLICE)) {
      if (hit.state === 'planned') {
        const cost = hitCommitment(terms, hit.maxAssignments).total;
        if (!withinBudget(settings.budgetCents, committed, cost)) {
          overBudget = hit;
          break;
        }
        committed += cost;
      }
      slice.push(hit);
    }
    const claimed = await recordTokens(ctx, doc._id, slice);
    const made: { hit: HitDoc; hitId: string; hitTypeId: string }[] = [];
    let failure: { err: unknown } | undefined;
    await mapPool(claimed, settings.concurrency, async (hit) => {
      if (failure) return;
      try {
        // adaptive checks: a starter HIT goes under the starter HIT type (src/hits/adaptive-checks.ts)
        const typeId = hit.audience === 'starter' ? starterTypeId : hitTypeId;
        const { hitId, reused } = await createOnPlatform(ctx, doc, hit, backend, typeId, questions);
        // the HIT is on the platform: its page is not needed again (a retry reads the stored one)
        questions?.delete(hit._id);
        made.push({ hit, hitId, hitTypeId: typeId });
        result[reused ? 'reused' : 'created']++;
        const done = result.created + result.reused + result.alreadyPublished;
        ctx.progress(`batch ${doc._id}: HIT ${hit.index} ${reused ? 'already there' : 'created'} (${done}/${hits.length})`);
      } catch (err) {
        failure ??= { err };
      }
    });
    // what was made is recorded before a failure is reported
    await recordCreated(ctx, doc, made);
    if (failure) throw failure.err;
  }
  if (overBudget) {
    throw new UserError(
      `publishing batch ${doc._id} stopped before HIT ${overBudget.index}: it would take the committed spend past the budget of ${usd(settings.budgetCents ?? 0)}`,
    );
  }
  return result;
}
