import { requireBatch } from '../batches/index.js';
import type { CrowdPlatform } from '../crowd/platform.js';
import { formatUsd } from '@qrelay/marketplace/fees';
import type { BatchDoc, BatchSettings } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { describeShortfall, type HitPlan, type PlanInput } from '../hits/index.js';
import { firstAssignments } from './redundancy.js';
import type { PipelineContext } from './context.js';
import { describeCheckSources } from '../hits/check-sources.js';
import { describeChecklessHits, describePlan } from './describe.js';
import { BatchStateError } from './errors.js';
import { publishPending, type CreationResult } from './hit-service.js';

export { BatchNotFound } from './errors.js';
import { computePlan, hitDocs, planQuestions, storeHits } from './plan.js';
import { resolveSettings, type PublishRequest } from './settings.js';

/**
 * `qrelay publish`: plan (seeded; stored with its quote), qualification types and the HIT
 * type on the target, then one CreateHIT per planned HIT.
 *
 * Creating the HITs (crash-safe, idempotent) is hit-service.ts's, shared with collection rounds.
 */

const usd = (cents: number) => `$${formatUsd(cents)}`;

export interface DryRun {
  batch: string;
  settings: BatchSettings;
  plan: HitPlan;
  text: string;
}

/** The plan and quote, with no write and no call to the platform. */
export async function dryRunPublish(ctx: PipelineContext, batch: string, request: PublishRequest, defaultTarget: string): Promise<DryRun> {
  const doc = await requireBatch(ctx, batch);
  const settings = doc.settings ?? resolveSettings(batch, request, defaultTarget);
  const plan = await computePlan(ctx, batch, settings);
  return { batch, settings, plan, text: describePlan(batch, settings, plan) };
}

export interface PublishResult extends CreationResult {
  quoteCents: number;
}

function checkMoneyGate(settings: BatchSettings, backend: CrowdPlatform, request: PublishRequest | undefined): void {
  if (!backend.target.realMoney) return;
  const missing = [!request?.yes && '--yes', settings.budgetCents === null && '--budget <usd>'].filter(Boolean);
  if (missing.length > 0) {
    throw new UserError(
      `publishing to ${backend.target.name} spends real money: confirm with ${missing.join(' and ')} (check the quote first with --dry-run)`,
    );
  }
}

/** Stores settings and plan the first time (checks, budget, production gate); afterwards returns the stored batch. */
export async function preparePublish(
  ctx: PipelineContext,
  batch: string,
  request: PublishRequest | undefined,
  defaultTarget: string,
): Promise<BatchDoc> {
  return (await prepareWithPlan(ctx, batch, request, defaultTarget)).doc;
}

/** The stored batch, and the plan when this call made and stored it (its questions need not be read back). */
async function prepareWithPlan(
  ctx: PipelineContext,
  batch: string,
  request: PublishRequest | undefined,
  defaultTarget: string,
  given?: PlanInput,
): Promise<{ doc: BatchDoc; plan?: HitPlan }> {
  let doc = await requireBatch(ctx, batch);
  let stored: HitPlan | undefined;
  if (!doc.settings) {
    if (!request) throw new BatchStateError(`batch ${batch} has not been published yet: publish it with its options first`);
    const settings = resolveSettings(batch, request, defaultTarget);
    checkMoneyGate(settings, ctx.backend(settings.target), request);
    const plan = await computePlan(ctx, batch, settings, given);
    if (settings.budgetCents !== null && plan.quote.total > settings.budgetCents) {
      throw new UserError(
        `the quote for batch ${batch} is ${usd(plan.quote.total)}, over the budget of ${usd(settings.budgetCents)}: raise --budget or publish fewer items (nothing was published)`,
      );
    }
    const now = ctx.now();
    const claimed = await ctx.models.batches.findOneAndUpdate(
      { _id: batch, settings: null },
      { $set: { settings, state: 'publishing', publishStartedAt: now, updatedAt: now } },
      { returnDocument: 'after' },
    );
    doc = await requireBatch(ctx, batch);
    if (claimed) {
      await storePlan(ctx, doc, plan);
      stored = plan;
      // read again with its plan: otherwise the plan would be computed and stored a second time below
      doc = await requireBatch(ctx, batch);
    }
  } else if (request?.target !== undefined && request.target !== doc.settings.target) {
    throw new BatchStateError(`batch ${batch} is published on ${doc.settings.target}, not ${request.target}: a batch lives on one target`);
  }
  if (!doc.plan) {
    // a publisher died between storing the settings and the plan: the same seed gives the same plan
    stored = await computePlan(ctx, batch, doc.settings as BatchSettings, given);
    await storePlan(ctx, doc, stored);
    doc = await requireBatch(ctx, batch);
  }
  return { doc, ...(stored && { plan: stored }) };
}

async function storePlan(ctx: PipelineContext, doc: BatchDoc, plan: HitPlan): Promise<void> {
  const settings = doc.settings as BatchSettings;
  await storeHits(
    ctx,
    hitDocs(doc._id, plan, { firstIndex: 0, origin: 'plan', maxAssignments: () => firstAssignments(settings) }),
    plan,
    0,
  );
  const summary = {
    plannedAt: ctx.now(),
    hits: plan.hits.length,
    realItems: plan.quote.realItems,
    checks: plan.checks,
    splits: plan.splits,
    quote: plan.quote,
  };
  await ctx.models.batches.updateOne({ _id: doc._id }, { $set: { plan: summary, updatedAt: ctx.now() } });
  ctx.progress(`batch ${doc._id}: planned ${plan.hits.length} HITs for ${plan.quote.realItems} items, quote ${usd(plan.quote.total)}`);
  ctx.progress(`batch ${doc._id}: ${describeCheckSources(plan.checks)}`); // issue 16 item 3: where checks' debates and queries come from
  if (plan.checklessHits > 0) ctx.progress(`batch ${doc._id}: ${describeChecklessHits(plan.checklessHits)}`);
  const repeats = describeShortfall(plan.goldNeed);
  if (repeats) ctx.progress(`batch ${doc._id}: ${repeats}`);
}

/**
 * Plans (first time), then creates the HITs not created yet; safe to run again at any point.
 * `planInput`: the batch's visible cases and gold items when the caller holds them (see computePlan).
 */
export async function publishBatch(
  ctx: PipelineContext,
  batch: string,
  request: PublishRequest | undefined,
  defaultTarget: string,
  planInput?: PlanInput,
): Promise<PublishResult> {
  const prepared = await prepareWithPlan(ctx, batch, request, defaultTarget, planInput);
  const { doc } = prepared;
  // the plan's pages in a map that publishing empties as it goes; the plan itself is let go
  const questions = prepared.plan && planQuestions(batch, prepared.plan, 0);
  delete prepared.plan;
  const result = await publishPending(ctx, doc, questions);
  if (doc.state === 'publishing') {
    await ctx.models.batches.updateOne(
      { _id: batch, state: 'publishing' },
      { $set: { state: 'collecting', publishedAt: ctx.now(), updatedAt: ctx.now() } },
    );
  }
  return { ...result, quoteCents: doc.plan?.quote.total ?? 0 };
}
