import type { BatchSettings, HitDoc, RecordDoc } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { planHits, requiresMasters, type HitPlan, type PlanInput } from '../hits/index.js';
import { feePlatform } from './budget.js';
import { insertMissing, WRITES_IN_FLIGHT } from './bulk.js';
import type { PipelineContext } from './context.js';
import { hitDocId } from './names.js';
import { goldItems, itemCases, visibleRecords } from './records.js';

/**
 * The plan of a batch's visible cases with its settings (pure apart from reading them).
 * `given`: those cases and gold items, when the caller holds them already (a simulation
 * that has just written its copy), instead of reading them back.
 */
export async function computePlan(ctx: PipelineContext, batch: string, settings: BatchSettings, given?: PlanInput): Promise<HitPlan> {
  const input = given ?? (await readPlanInput(ctx, batch));
  if (input.cases.length === 0)
    throw new UserError(`batch ${batch} has no escalated cases: import them first (qrelay import <file> --batch ${batch})`);
  return planWith(batch, input, settings, settings.seed);
}

async function readPlanInput(ctx: PipelineContext, batch: string): Promise<PlanInput> {
  const rows = await visibleRecords(ctx, 'escalations', batch);
  if (rows.length === 0) return { cases: [], gold: [] };
  const goldRows = await visibleRecords(ctx, 'gold', batch);
  return { cases: await itemCases(ctx, rows), gold: await goldItems(ctx, goldRows), caseOrigins: await recordOrigins(ctx, batch, rows) };
}

/** Each record's input line and file ("line 18 of cases.jsonl"), as a plan names a case it cannot publish. */
async function recordOrigins(ctx: PipelineContext, batch: string, rows: readonly Pick<RecordDoc, 'order'>[]): Promise<string[]> {
  const imports = await ctx.models.imports.find({ batch, kind: 'escalations' }, { file: 1, startedAt: 1 }).lean();
  const fileAt = new Map(imports.map((i) => [new Date(i.startedAt).getTime(), i.file]));
  return rows.map((r) => {
    const [startedAt, line] = r.order;
    const file = startedAt === undefined ? undefined : fileAt.get(startedAt);
    return `line ${line ?? '?'}${file ? ` of ${file}` : ''}`;
  });
}

export function planWith(batch: string, input: PlanInput, settings: BatchSettings, seed: string): HitPlan {
  if (settings.layout.checksPerHit !== 0 && input.gold.length === 0) {
    throw new UserError(
      `batch ${batch} has no gold items for attention checks: import a gold pool (qrelay import <file> --batch ${batch} --kind gold) or publish with no checks`,
    );
  }
  try {
    return planHits(input, {
      seed,
      layout: settings.layout,
      ...(settings.experiment === 'debate' && { withoutDebate: true }),
      pricing: {
        reward: settings.preset.reward,
        assignmentsPerHit: settings.voteTarget,
        masters: requiresMasters(settings.preset),
        platform: feePlatform(settings.target),
      },
    });
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`batch ${batch}: ${err.message}`, { cause: err });
    throw err;
  }
}

/** The HIT documents of a plan, numbered from `firstIndex`. */
export function hitDocs(
  batch: string,
  plan: HitPlan,
  opts: { firstIndex: number; origin: HitDoc['origin']; maxAssignments: (i: number) => number },
): HitDoc[] {
  return plan.hits.map((hit, i) => {
    const index = opts.firstIndex + hit.index;
    return {
      _id: hitDocId(batch, index),
      batch,
      index,
      origin: opts.origin,
      items: hit.items,
      realItems: hit.realItems,
      checks: hit.checks,
      bytes: hit.bytes,
      questionSha256: hit.questionSha256,
      maxAssignments: opts.maxAssignments(i),
      state: 'planned',
      attempt: 0,
      requestToken: null,
      tokenRecordedAt: null,
      hitId: null,
      hitTypeId: null,
      publishedAt: null,
      extensions: 0,
      pendingExtension: null,
      platform: null,
      lastError: null,
      ...(hit.audience && { audience: hit.audience }),
    };
  });
}

/**
 * The question XML of each HIT of a plan numbered from `firstIndex`, by HIT document id,
 * with its SHA-256 (the HIT document's `questionSha256`): what publishing sends when it
 * has just stored the plan, instead of reading every question back. Publishing takes each
 * out once its HIT is created (publishPending), so the pages (some 80 KB of memory a HIT)
 * are let go as the HITs go out, not all held until the last one: a 40,560-case batch's
 * are hundreds of MB.
 */
export function planQuestions(batch: string, plan: HitPlan, firstIndex: number): PlannedQuestions {
  const sha = new Map(plan.hits.map((h) => [h.index, h.questionSha256]));
  return new Map(plan.questions.map((q) => [hitDocId(batch, firstIndex + q.index), { xml: q.xml, sha256: sha.get(q.index) ?? '' }]));
}

export type PlannedQuestions = Map<string, { xml: string; sha256: string }>;

/**
 * Stores HITs and their questions without ever changing a stored one, so storing a plan
 * again after a crash keeps what a platform may already hold: inserted, a document whose
 * `_id` is stored left as it is (an insert costs the dev database a fraction of the upsert
 * it replaces, which queried first; a question is 40 KB). The HITs as the model casts them.
 */
export async function storeHits(ctx: PipelineContext, docs: readonly HitDoc[], plan: HitPlan, firstIndex: number): Promise<void> {
  if (docs.length === 0) return;
  await insertMissing(
    ctx.models.hitQuestions,
    plan.questions.map((q) => ({
      _id: hitDocId(docs[0]!.batch, firstIndex + q.index),
      xml: q.xml,
      ...(q.withoutDebateXml !== undefined && { withoutDebateXml: q.withoutDebateXml }),
    })),
    // a few chunks of 40 KB questions at once
    { concurrency: WRITES_IN_FLIGHT },
  );
  await insertMissing(
    ctx.models.hits,
    docs.map((d) => new ctx.models.hits(d).toObject({ versionKey: false }) as HitDoc),
  );
}
