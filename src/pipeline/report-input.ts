import { actionModels } from '../db/models/actions.js';
import { parseUsd } from '@qrelay/marketplace/fees';
import type { BatchSettings, HitDoc } from '../db/models/index.js';
import type { EscalatedCase } from '../domain/cases.js';
import { reportItemFromCase, type ManualDecisionRow, type ReportInput, type ReportOptions } from '../reports/index.js';
import type { PipelineContext } from './context.js';
import { BatchStateError } from './errors.js';
import { priceTerms } from './budget.js';
import { isAdaptive, recollectOf } from './redundancy.js';
import { itemCases } from './records.js';
import { assignmentRecord, hitRecord, tiePolicyOf } from './votes.js';
import { loadBatchData, plannedItems, requireBatch, type BatchData } from '../batches/index.js';
import { armsByWorker } from '../experiment/store.js';

/** The cases of these items: from `known` when it holds every one (the simulation's copy), else read. */
function casesOf(
  ctx: PipelineContext,
  ids: readonly string[],
  known: ReadonlyMap<string, EscalatedCase> | undefined,
): Promise<EscalatedCase[]> {
  if (known && ids.every((id) => known.has(id))) return Promise.resolve(ids.map((id) => known.get(id)!));
  return itemCases(
    ctx,
    ids.map((_id) => ({ _id })),
  );
}

/** The batch's decisions taken by hand (src/actions/manual-labels.ts), as the report's input lists them. */
export async function reportManualLabels(ctx: PipelineContext, batch: string): Promise<Array<Omit<ManualDecisionRow, 'crowdLabel'>>> {
  const manual = await actionModels(ctx.models.batches.db).manualLabels.find({ batch }).lean();
  return manual.map((m) => ({
    item: m._id,
    queryId: m.queryId,
    chunkId: m.chunkId,
    label: m.label,
    note: m.note,
    who: m.who,
    at: new Date(m.at).toISOString(),
  }));
}

/** A report is generated in real time, whatever clock its batch's times were taken by. */
export const reportGeneratedAt = (ctx: PipelineContext): string => (ctx.simulatedClock ? new Date() : ctx.now()).toISOString();

/**
 * The report's input (src/reports/input.ts) from the database, with the options that make
 * the report decide labels as the batch does (vote target, aggregator, tie policy). HITs
 * are named by the platform's HITId; a HIT never created is left out (it had no work).
 * `known`: cases the caller holds already, by item id (see casesOf).
 */
export async function reportInputFor(
  ctx: PipelineContext,
  batch: string,
  known?: ReadonlyMap<string, EscalatedCase>,
  /** The batch's HITs and assignments as the caller holds them (the last round's: collect.ts lastRoundData), in place of a read. */
  given?: BatchData,
): Promise<{ input: ReportInput; options: ReportOptions }> {
  const doc = await requireBatch(ctx, batch);
  if (!doc.settings) throw new BatchStateError(`batch ${batch} is not published: there is nothing to report yet`);
  const settings: BatchSettings = doc.settings;
  const data = given ?? (await loadBatchData(ctx, batch));
  const ids = [...plannedItems(data.hits).keys()];
  const cases = await casesOf(ctx, ids, known);
  const terms = priceTerms(settings);
  const created = data.hits.filter((h): h is HitDoc & { hitId: string } => typeof h.hitId === 'string' && h.hitId !== '');
  const platformId = new Map(created.map((h) => [h._id, h.hitId]));
  const actions = actionModels(ctx.models.batches.db);
  const input: ReportInput = {
    batch,
    publishedAt: doc.publishStartedAt ? new Date(doc.publishStartedAt).toISOString() : null,
    quote: doc.plan?.quote ?? null,
    items: ids.map((id, i) => reportItemFromCase(id, cases[i]!)),
    hits: created.map((h) => {
      const record = hitRecord(h);
      return {
        hitId: h.hitId,
        items: [...record.items],
        checks: record.checks.map((c) => ({ ...c })),
        rewardCents: parseUsd(terms.reward),
        maxAssignments: h.maxAssignments,
        masters: terms.masters,
      };
    }),
    assignments: data.assignments.flatMap((a) => {
      const hitId = platformId.get(a.hit);
      if (!hitId || !a.submittedAt) return [];
      const r = assignmentRecord(a);
      return [
        {
          assignmentId: a._id,
          hitId,
          worker: a.workerId,
          status: r.status,
          discarded: r.discarded === true,
          ...(r.kept && { kept: true }),
          ...(r.overridden && { overridden: r.overridden }),
          answers: r.answers.map((x) => ({ ...x })),
          ...(a.acceptedAt && { acceptedAt: new Date(a.acceptedAt).toISOString() }),
          submittedAt: new Date(a.submittedAt).toISOString(),
        },
      ];
    }),
    platform: terms.platform ?? 'mturk',
    // bonuses paid with qrelay worker bonus (src/actions/bonus.ts)
    bonuses: (await actions.bonuses.find({ batch, state: 'paid' }).lean()).map((b) => ({
      worker: b.workerId,
      assignmentId: b.assignmentId,
      amountCents: b.amountCents,
    })),
    manualLabels: await reportManualLabels(ctx, batch),
  };
  const options: ReportOptions = {
    voteTarget: settings.voteTarget,
    aggregator: settings.aggregator,
    tiePolicy: tiePolicyOf(settings.tie),
    redundancy: isAdaptive(settings) ? 'adaptive' : 'fixed',
    recollect: recollectOf(settings),
    generatedAt: reportGeneratedAt(ctx),
    ...(ctx.simulatedClock && { simulatedClock: true }),
    ...(settings.experiment === 'debate' && {
      experiment: { arms: await armsByWorker(ctx.models.batches.db, batch), seed: settings.seed },
    }),
  };
  return { input, options };
}
