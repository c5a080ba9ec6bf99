import { z } from 'zod';
import { AGGREGATOR_IDS } from '../../aggregate/index.js';
import { HIT_STATES, BATCH_STATES } from '../../db/models/index.js';
import { Judgment } from '../../domain/cases.js';
import { INGEST_KINDS } from '../../ingest/index.js';
import { BatchName } from '../../pipeline/names.js';
import { ExperimentSummarySchema } from '../../experiment/schema.js';
import { PublishRequest } from '../../pipeline/settings.js';
import { ProblemSchema, registry } from '../openapi.js';

/** The pipeline routes' shapes: these validate requests and describe responses in /openapi.json. */

const date = z.string().openapi({ format: 'date-time' });
const cents = z.number().int().openapi({ description: 'whole US cents' });

export const BatchParam = z.object({ batch: BatchName.openapi({ param: { name: 'batch', in: 'path' }, example: 'trial-1' }) });

export const ImportQuery = z.object({
  batch: BatchName.openapi({ description: 'batch to import into (created if new)' }),
  kind: z.enum(INGEST_KINDS).optional().openapi({
    description: 'default: from the first record; a BRIDGE debate file is split per row (consensus false: escalations, true: consensus)',
  }),
  maxErrors: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** A refused file's answer: the one Problem shape, its `errors` the file's (line, field, reason). */
export const ImportProblemSchema = ProblemSchema;

const OneImport = z.object({
  importId: z.string(),
  batch: z.string(),
  kind: z.enum(INGEST_KINDS),
  file: z.string(),
  format: z.string().nullable(),
  counts: z.object({
    lines: z.number().int(),
    records: z.number().int(),
    inserted: z.number().int(),
    existing: z.number().int(),
    duplicates: z.number().int(),
    skipped: z.number().int(),
  }),
});

export const ImportResultSchema = registry.register(
  'ImportResult',
  OneImport.extend({
    imports: z.array(OneImport).openapi({
      description:
        'every import the file made: one, or two for a BRIDGE file split per row (escalations, then consensus); the first is also given at the top',
    }),
    ignoredFields: z
      .array(z.object({ field: z.string(), lines: z.number().int(), firstLine: z.number().int() }))
      .openapi({ description: 'fields of the file that qrelay does not read, e.g. `debate[].confidence`: ignored, listed here' }),
  }),
);

export const PublishBody = registry.register(
  'PublishRequest',
  PublishRequest.extend({ dryRun: z.boolean().default(false).openapi({ description: 'plan and quote only; nothing is written or sent' }) }),
);

export const QuoteSchema = registry.register(
  'CostQuote',
  z.object({
    currency: z.literal('USD'),
    unit: z.literal('cents'),
    hits: z.number().int(),
    assignmentsPerHit: z.number().int(),
    assignments: z.number().int(),
    realItems: z.number().int(),
    checkItems: z.number().int(),
    rewardPerAssignment: cents,
    feePerAssignment: cents,
    feePercent: z.number(),
    masters: z.boolean(),
    rewards: cents,
    fees: cents,
    total: cents,
    checkOverhead: cents,
    checkShare: z.number(),
    perLabel: cents,
  }),
);

export const DryRunSchema = registry.register(
  'PublishDryRun',
  z.object({
    batch: z.string(),
    dryRun: z.literal(true),
    hits: z.number().int(),
    checks: z.object({ total: z.number().int(), yes: z.number().int(), no: z.number().int() }),
    splits: z.number().int(),
    quote: QuoteSchema,
    text: z.string(),
  }),
);

export const QueuedSchema = registry.register('QueuedJob', z.object({ batch: z.string(), job: z.string(), id: z.string() }));

const agreement = z.object({ value: z.number().nullable(), reason: z.string().nullable() });
const interval = z.object({
  measure: z.enum(['fleissKappa', 'krippendorffAlpha']),
  level: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  replicates: z.number().int(),
  undefinedReplicates: z.number().int(),
});

export const BatchStatusSchema = registry.register(
  'BatchStatus',
  z.object({
    batch: z.string(),
    state: z.enum(BATCH_STATES),
    target: z.string().nullable(),
    preset: z.string().nullable(),
    createdAt: date,
    publishedAt: date.nullable(),
    completedAt: date.nullable(),
    voteTarget: z.number().int().nullable(),
    items: z.object({
      total: z.number().int(),
      decided: z.number().int().describe('items with the votes the batch asks of them: the count the console and the report show'),
      complete: z.number().int().describe('the older name of `decided`, the same number'),
      withVotes: z.number().int(),
      labelled: z.number().int(),
      unresolved: z.number().int(),
    }),
    hits: z.object({
      total: z.number().int(),
      byState: z.record(z.enum(HIT_STATES), z.number().int()),
      extraAssignments: z.number().int(),
      reposts: z.number().int(),
    }),
    assignments: z.object({
      total: z.number().int(),
      awaitingReview: z.number().int(),
      approved: z.number().int(),
      discarded: z.number().int(),
      rejected: z.number().int(),
      autoApproved: z.number().int(),
    }),
    validVotes: z.number().int(),
    fleissKappa: agreement,
    krippendorffAlpha: agreement,
    agreementIntervals: z
      .object({ fleissKappa: interval, krippendorffAlpha: interval })
      .nullable()
      .describe("95% percentile-bootstrap intervals of κ and α, as in the report's quality.agreementIntervals; null before publishing"),
    accuracy: z.object({ value: z.number().nullable(), compared: z.number().int() }).nullable(),
    cost: z.object({
      currency: z.literal('USD'),
      unit: z.literal('cents'),
      spent: cents,
      rewards: cents,
      fees: cents,
      committed: cents,
      quote: QuoteSchema.nullable(),
      budget: cents.nullable(),
    }),
    experiment: ExperimentSummarySchema.optional(),
  }),
);

export const BatchSummarySchema = registry.register(
  'BatchListEntry',
  z.object({
    batch: z.string(),
    state: z.enum(BATCH_STATES),
    target: z.string().nullable(),
    createdAt: date,
    items: z.number().int().nullable(),
    itemsComplete: z.number().int().nullable(),
  }),
);

export const HitSchema = registry.register(
  'Hit',
  z.object({
    index: z.number().int(),
    origin: z.enum(['plan', 'repost']),
    hitId: z.string().nullable(),
    state: z.enum(HIT_STATES),
    maxAssignments: z.number().int(),
    realItems: z.number().int(),
    checks: z.number().int(),
    extensions: z.number().int(),
    publishedAt: date.nullable(),
    items: z.array(
      z.object({
        position: z.number().int(),
        kind: z.enum(['real', 'check']),
        queryId: z.string(),
        chunkId: z.string(),
        dataset: z.string(),
        expected: Judgment.optional(),
      }),
    ),
  }),
);

export const VoteSchema = registry.register(
  'Vote',
  z.object({
    assignmentId: z.string(),
    hitId: z.string(),
    worker: z.string(),
    queryId: z.string(),
    chunkId: z.string(),
    label: Judgment,
    counts: z.boolean().openapi({ description: 'a valid vote: its assignment passed every check and was not rejected or discarded' }),
    difficult: z.boolean(),
    comment: z.string(),
    ms: z.number().nullable(),
    submittedAt: date.nullable(),
  }),
);

export const LabelSchema = registry.register(
  'Label',
  z.object({
    queryId: z.string(),
    chunkId: z.string(),
    label: Judgment.nullable(),
    method: z.enum(AGGREGATOR_IDS),
    decidedBy: z.string(),
    votes: z.object({ yes: z.number().int(), no: z.number().int() }),
    validVotes: z.number().int(),
    workers: z.array(z.string()),
    probabilities: z.object({ yes: z.number(), no: z.number() }).nullable(),
    complete: z.boolean(),
  }),
);

const passRate = z.object({ total: z.number().int(), passed: z.number().int(), passRate: z.number().nullable() });

export const WorkerSchema = registry.register(
  'WorkerStats',
  z.object({
    worker: z.string(),
    assignments: z.object({
      submitted: z.number().int(),
      pendingReview: z.number().int(),
      approved: z.number().int(),
      discarded: z.number().int(),
      rejected: z.number().int(),
      counted: z.number().int(),
    }),
    answers: z.object({ total: z.number().int(), yes: z.number().int(), no: z.number().int() }),
    checks: passRate.extend({ byPolarity: z.object({ yes: passRate, no: passRate }) }),
    agreement: z.object({
      compared: z.number().int(),
      agreed: z.number().int(),
      rate: z.number().nullable(),
      skippedTies: z.number().int(),
      skippedNoOthers: z.number().int(),
    }),
    medianMsPerItem: z.number().nullable(),
    flags: z.array(z.enum(['always-same-answer', 'fast', 'low-agreement', 'low-check-pass-rate', 'llm-assisted'])),
  }),
);

export const ExpireResultSchema = registry.register(
  'ExpireResult',
  z.object({ batch: z.string(), expired: z.number().int(), dropped: z.number().int(), state: z.enum(BATCH_STATES) }),
);

export const CleanupResultSchema = registry.register(
  'CleanupResult',
  z.object({
    batch: z.string(),
    deleted: z.number().int(),
    remaining: z.array(z.object({ hit: z.string(), reason: z.string() })),
    closed: z.boolean(),
  }),
);

export const NotificationBody = registry.register(
  'MTurkNotification',
  z
    .object({
      EventDocId: z.string().optional(),
      Events: z
        .array(
          z
            .object({
              EventType: z.string(),
              HITId: z.string().optional(),
              AssignmentId: z.string().optional(),
              HITTypeId: z.string().optional(),
            })
            .passthrough(),
        )
        .max(1000),
    })
    .passthrough(),
);
