import type { CrowdBackend, QualificationRequirementSpec } from '../crowd/backend.js';
import { formatUsd } from '@qrelay/marketplace/fees';
import { hitRequestToken } from '../crowd/mturk/request-tokens.js';
import { CrowdCallError } from '../crowd/mturk/retry.js';
import type { AssignmentDoc, BatchDoc, BatchSettings, HitDoc } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { loadQualificationTest, resolveQualificationRequirements, type HitAudience } from '../hits/index.js';
import { committedCents, hitCommitment, outstandingCents, priceTerms, withinBudget } from './budget.js';
import type { PipelineContext } from './context.js';
import { hitAnnotation } from './names.js';
import { mapPool } from './pool.js';
import { touchBatch } from './revision.js';
import { BLOCKED_QUALIFICATION, ensureBlockedQualification, notBlocked } from './blocked-qualification.js';
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
  backend: CrowdBackend,
  audience: HitAudience = 'regular',
): Promise<string> {
  // adaptive checks: starter HITs have a HIT type of their own (experience-qualification.ts)
  const field = audience === 'starter' ? 'starterHitTypeId' : 'hitTypeId';
  const known = doc[field];
  if (known) return known;
  const settings = doc.settings as BatchSettings;
  const customIds: Record<string, string> = {};
  for (const q of settings.preset.qualificationRequirements) {
    if (!q.custom || customIds[q.custom]) continue;
    const test = loadQualificationTest(q.custom);
    const { id, created } = await backend.ensureQualificationType({
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
  // workers soft-blocked by an earlier round or batch on this target cannot take the HITs
  // (MTurk takes at most 10 requirements: a preset that uses them all goes without)
  if (requirements.length < 10) {
    const blockedId = await ensureBlockedQualification(ctx, settings.target, backend);
    customIds[BLOCKED_QUALIFICATION] = blockedId;
    requirements.push(notBlocked(blockedId));
  }
  const p = settings.preset;
  const hitTypeId = await backend.createHitType({
    title: p.title,
    description: p.description,
    keywords: p.keywords,
    reward: p.reward,
    assignmentDurationSeconds: p.assignmentDurationSeconds,
    autoApprovalDelaySeconds: p.autoApprovalDelaySeconds,
    qualificationRequirements: await withExperienceRequirement(ctx, settings, backend, requirements, audience),
  });
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { [field]: hitTypeId, qualificationIds: customIds, updatedAt: ctx.now() } });
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
async function findByAnnotation(backend: CrowdBackend, annotation: string): Promise<string | undefined> {
  for await (const h of backend.listHits()) if (h.requesterAnnotation === annotation) return h.hitId;
  return undefined;
}

async function createOne(
  ctx: PipelineContext,
  doc: BatchDoc,
  hit: HitDoc,
  backend: CrowdBackend,
  hitTypeId: string,
): Promise<'created' | 'reused'> {
  const settings = doc.settings as BatchSettings;
  let current = hit;
  if (current.state === 'planned') {
    const token = hitRequestToken(doc._id, current.index, current.attempt);
    await ctx.models.hits.updateOne(
      { _id: current._id, state: 'planned' },
      { $set: { state: 'creating', requestToken: token, tokenRecordedAt: ctx.now() } },
    );
    current = (await ctx.models.hits.findById(current._id).lean<HitDoc>()) as HitDoc;
    if (current.state !== 'creating') return 'reused';
  }
  const annotation = hitAnnotation(doc._id, current.index, current.attempt);
  const token = current.requestToken as string;
  let hitId: string | undefined;
  let reused = false;
  try {
    if (current.tokenRecordedAt && ctx.now().getTime() - new Date(current.tokenRecordedAt).getTime() > TOKEN_MEMORY_MS) {
      hitId = await findByAnnotation(backend, annotation);
      reused = hitId !== undefined;
    }
    if (!hitId) {
      const question = await ctx.models.hitQuestions.findById(current._id).lean();
      if (!question) throw new UserError(`the question of HIT ${current.index} of batch ${doc._id} is missing from the database`);
      const made = await backend.createHit({
        hitTypeId,
        question: question.xml,
        maxAssignments: current.maxAssignments,
        lifetimeSeconds: settings.preset.lifetimeSeconds,
        requesterAnnotation: annotation,
        uniqueRequestToken: token,
      });
      hitId = made.hitId;
      reused = made.reused;
    }
  } catch (err) {
    const failure = crowdFailure(err, current, settings.target);
    await ctx.models.hits.updateOne(
      { _id: current._id },
      { $set: { lastError: failure instanceof Error ? failure.message : String(failure) } },
    );
    throw failure;
  }
  await ctx.models.hitIds.updateOne({ _id: hitId }, { $set: { hit: current._id, batch: doc._id } }, { upsert: true });
  await ctx.models.hits.updateOne(
    { _id: current._id },
    { $set: { state: 'published', hitId, hitTypeId, publishedAt: ctx.now(), lastError: null } },
  );
  // status and report answers are snapshots of the batch's revision (src/api/answers.ts)
  await touchBatch(ctx, doc._id);
  return reused ? 'reused' : 'created';
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

/** Creates every planned HIT of the batch (plan and reposts alike); idempotent. */
export async function publishPending(ctx: PipelineContext, doc: BatchDoc): Promise<CreationResult> {
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
  await mapPool(todo, settings.concurrency, async (hit) => {
    if (overBudget) return;
    if (hit.state === 'planned') {
      const cost = hitCommitment(terms, hit.maxAssignments).total;
      if (!withinBudget(settings.budgetCents, committed, cost)) {
        overBudget ??= hit;
        return;
      }
      committed += cost;
    }
    const outcome = await createOne(ctx, doc, hit, backend, hit.audience === 'starter' ? starterTypeId : hitTypeId);
    result[outcome]++;
    const done = result.created + result.reused + result.alreadyPublished;
    ctx.progress(`batch ${doc._id}: HIT ${hit.index} ${outcome === 'created' ? 'created' : 'already there'} (${done}/${hits.length})`);
  });
  if (overBudget) {
    throw new UserError(
      `publishing batch ${doc._id} stopped before HIT ${overBudget.index}: it would take the committed spend past the budget of ${usd(settings.budgetCents ?? 0)}`,
    );
  }
  return result;
}
