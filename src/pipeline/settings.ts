import { z } from 'zod';
import { AGGREGATOR_IDS, DEFAULT_AGGREGATOR } from '../aggregate/index.js';
import type { BatchSettings } from '../db/models/index.js';
import { UserError } from '../errors.js';
import { HitPreset, loadPreset, PlanLayout, presetPlanOptions, requiresMasters } from '../hits/index.js';
import { parseTargetName } from './context.js';

/**
 * What `qrelay publish` and `POST /api/v1/batches/{batch}/publish` accept. The preset gives
 * the defaults; the other fields override it for this batch. Fixed once the plan is stored.
 */
export const PublishRequest = z
  .object({
    target: z
      .string()
      .trim()
      .min(1)
      .describe('local, sandbox, production, an MTurk-compatible URL, or prolific (default: MTURK_TARGET)')
      .optional(),
    preset: z.string().trim().min(1).default('dream').describe('a preset in hits/ by name, or a JSON file'),
    seed: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('planning seed (default: the batch name); the same seed gives the same plan'),
    itemsPerHit: z.number().int().min(1).max(100).optional(),
    checksPerHit: z.number().int().min(0).max(50).optional(),
    hideDebate: z.boolean().optional(),
    experiment: z
      .enum(['debate'])
      .optional()
      .describe('debate: each worker is assigned at random to pages with or without the debate (docs/experiment.md)'),
    adaptiveChecks: z
      .boolean()
      .optional()
      .describe("starter HITs with more attention checks for new workers, the preset's check share after (default: the preset, off)"),
    expectedWorkers: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe('workers the batch is expected to draw: sizes the starter HITs of adaptive checks (default: the preset)'),
    /** Workers per HIT, and the valid votes every item needs. */
    assignments: z.number().int().min(1).max(9).optional(),
    onFailure: z.enum(['approve-and-discard', 'reject']).default('approve-and-discard'),
    rejectFromFailures: z.number().int().min(1).max(50).optional(),
    workerDecisions: z
      .boolean()
      .default(true)
      .describe(
        'stop workers whose record across the batch shows they do not do the task (false: the checks alone decide, per assignment)',
      ),
    workerStop: z
      .enum(['discard', 'reject'])
      .optional()
      .describe(
        "a stopped worker's work not yet reviewed: discard (paid, not counted) or reject (default: reject with onFailure reject, else the preset's workerStop, discard)",
      ),
    aggregator: z.enum(AGGREGATOR_IDS).default(DEFAULT_AGGREGATOR),
    redundancy: z
      .enum(['fixed', 'adaptive'])
      .optional()
      .describe(
        'fixed: every worker per HIT at once; adaptive: two first, the third only where two votes disagree (default: the preset, fixed)',
      ),
    recollect: z
      .enum(['when-undecided', 'always'])
      .optional()
      .describe(
        'lost votes (discarded work) collected again: when-undecided, only for items whose remaining votes do not decide the majority; always, every one (default: the preset, when-undecided)',
      ),
    tie: z.enum(['unresolved', 'yes', 'no']).default('unresolved'),
    budgetUsd: z.number().positive().max(10_000_000).optional(),
    yes: z.boolean().default(false),
    concurrency: z.number().int().min(1).max(32).default(4),
  })
  .strict();
export type PublishRequest = z.input<typeof PublishRequest>;

export function parsePublishRequest(input: unknown, where = 'publish options'): z.output<typeof PublishRequest> {
  const parsed = PublishRequest.safeParse(input);
  if (!parsed.success) {
    throw new UserError(`${where}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** "50", "50.5", "$50.00" -> cents; a budget must be at least one cent. */
export function parseBudgetUsd(value: string): number {
  const m = /^\$?\s*([0-9]+(?:\.[0-9]{1,2})?)$/.exec(value.trim());
  const usd = m ? Number(m[1]) : NaN;
  if (!Number.isFinite(usd) || usd <= 0)
    throw new UserError(`--budget: expected an amount in US dollars such as 50 or 12.50, got ${JSON.stringify(value)}`);
  return usd;
}

/** The batch's settings: the preset with the request's overrides (checked again, pay included). */
export function resolveSettings(batch: string, input: PublishRequest, defaultTarget: string): BatchSettings {
  const request = parsePublishRequest(input);
  const base = loadPreset(request.preset);
  const merged = {
    ...base,
    ...(request.itemsPerHit !== undefined && { itemsPerHit: request.itemsPerHit }),
    ...(request.checksPerHit !== undefined && { checksPerHit: request.checksPerHit }),
    ...(request.hideDebate !== undefined && { hideDebate: request.hideDebate }),
    ...(request.assignments !== undefined && { assignmentsPerHit: request.assignments }),
    ...((request.adaptiveChecks !== undefined || request.expectedWorkers !== undefined) && {
      adaptiveChecks: {
        ...base.adaptiveChecks,
        ...(request.adaptiveChecks !== undefined && { enabled: request.adaptiveChecks }),
        ...(request.expectedWorkers !== undefined && { expectedWorkers: request.expectedWorkers }),
      },
    }),
  };
  const checked = HitPreset.safeParse(merged);
  if (!checked.success) {
    throw new UserError(
      `preset ${request.preset} with this batch's options: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  const preset = checked.data;
  if (preset.assignmentsPerHit > 9) {
    throw new UserError(
      `preset ${request.preset}: assignmentsPerHit ${preset.assignmentsPerHit}: at most 9, so that extra assignments never cross MTurk's 10-assignment fee step`,
    );
  }
  const seed = request.seed ?? batch;
  const layout = PlanLayout.parse(presetPlanOptions(preset, seed).layout);
  if (request.experiment === 'debate' && layout.hideDebate)
    throw new UserError(`--experiment debate shows the debate to half of the workers: publish batch ${batch} without --hide-debate`);
  return {
    target: parseTargetName(request.target ?? defaultTarget),
    presetName: request.preset,
    preset,
    seed,
    layout,
    voteTarget: preset.assignmentsPerHit,
    review: {
      onFailure: request.onFailure,
      ...(request.rejectFromFailures !== undefined && { rejectFromFailures: request.rejectFromFailures }),
      ...(!request.workerDecisions && { workerDecisions: false }),
      workerStop: request.workerStop ?? (request.onFailure === 'reject' ? 'reject' : preset.workerStop),
    },
    aggregator: request.aggregator,
    redundancy: request.redundancy ?? preset.redundancy,
    recollect: request.recollect ?? preset.recollect,
    tie: request.tie,
    budgetCents: request.budgetUsd === undefined ? null : Math.round(request.budgetUsd * 100),
    concurrency: request.concurrency,
    ...(request.experiment && { experiment: request.experiment }),
  };
}

export const settingsMasters = (settings: BatchSettings): boolean => requiresMasters(settings.preset);
