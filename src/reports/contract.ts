import { z } from 'zod';
import { AGGREGATOR_IDS } from '../aggregate/index.js';

/**
 * The JSON report contract (docs/interfaces.md): `qrelay report
 * --format json` and GET /api/v1/batches/{batch}/report print one object with at least
 * these fields, of these types (types.ts has every field). Money is whole cents
 * (`cost.unit: "cents"`), durations are seconds in fields named `...Seconds`. The one
 * copy: the OpenAPI document registers it, and the tests check reports against it.
 */
const count = z.number().int().min(0);
const cents = z.number().int().min(0).describe('whole US cents');
const seconds = z.number().min(0).nullable().describe('seconds; null when undefined for the data');
const share = z.number().min(0).max(1).nullable();
const interval = z.looseObject({
  measure: z.enum(['fleissKappa', 'krippendorffAlpha']),
  level: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  replicates: count,
  undefinedReplicates: count,
});
/** counts[reference][answer]. */
const confusionTable = z.looseObject({
  yes: z.object({ yes: count, no: count }),
  no: z.object({ yes: count, no: count }),
});
const tableAccuracy = { answers: count, correct: count, accuracy: share, balancedAccuracy: share };
const aggregateSummary = { labels: count, unresolved: count, accuracy: share, balancedAccuracy: share };
const judgmentOrNull = z.enum(['yes', 'no']).nullable();

/** The quality fields a reviewer reads (issue 16 item 8); the rest of `quality` is in types.ts. */
const QualityContract = z.looseObject({
  agreementItems: count.describe('the items κ and α are both computed over (2 or more valid votes used)'),
  agreementIntervals: z.looseObject({ fleissKappa: interval, krippendorffAlpha: interval }).describe('95% bootstrap intervals'),
  gold: z
    .looseObject({ ...tableAccuracy, table: confusionTable })
    .describe("every answer to an attention check against its known answer; balancedAccuracy: mean of the two polarities' pass rates"),
  aggregation: z
    .looseObject({
      protocol: z.literal('majority'),
      used: z.enum(AGGREGATOR_IDS),
      majority: z.looseObject(aggregateSummary),
      dawidSkene: z.looseObject({ ...aggregateSummary, iterations: count, converged: z.boolean(), goldItems: count, answersUsed: count }),
      differences: z.array(
        z.looseObject({
          item: z.string(),
          queryId: z.string(),
          chunkId: z.string(),
          majority: judgmentOrNull,
          dawidSkene: judgmentOrNull,
          probabilityYes: share,
        }),
      ),
    })
    .describe(
      "the protocol's majority of 3 next to Dawid–Skene (checks as gold, worker priors from the evidence), and the items on which they differ",
    ),
});
const WorkerConfusionContract = z.looseObject({
  vsGold: confusionTable.extend({ summary: z.looseObject(tableAccuracy) }),
  vsFinal: confusionTable.extend({ summary: z.looseObject(tableAccuracy) }),
});

export const ReportContract = z
  .looseObject({
    reportVersion: z.literal(2),
    batch: z.string().min(1),
    items: count,
    hits: count,
    assignments: count,
    votes: count,
    labels: count,
    fleissKappa: z.number().nullable(),
    krippendorffAlpha: z.number().nullable(),
    cost: z.looseObject({
      currency: z.literal('USD'),
      unit: z.literal('cents'),
      rewards: cents,
      fees: cents,
      bonuses: cents,
      total: cents,
      perLabel: cents.nullable(),
      holesFound: count.nullable(),
      perHole: cents.nullable(),
    }),
    latency: z.looseObject({
      publishToFirstAcceptSeconds: seconds,
      publishToLastValidVoteSeconds: seconds,
      timeToTarget: z.looseObject({
        voteTarget: count,
        p50Seconds: seconds,
        p90Seconds: seconds,
        p99Seconds: seconds,
        maxSeconds: seconds,
      }),
      workerTimePerItem: z.looseObject({ p50Seconds: seconds, p90Seconds: seconds }),
    }),
    quality: QualityContract,
    workers: z.array(
      z.looseObject({
        worker: z.string().min(1),
        assignments: z.looseObject({}),
        votes: count,
        confusion: WorkerConfusionContract.describe(
          'rows: the known answer (vsGold) or the final label (vsFinal); columns: the worker’s answer',
        ),
      }),
    ),
  })
  .describe('money in whole US cents, durations in seconds (fields named ...Seconds); see src/reports/types.ts for every field');
export type ReportContract = z.infer<typeof ReportContract>;

/** Parses `value` against the contract; the error lists every field that does not match. */
export function checkReportContract(value: unknown): ReportContract {
  const parsed = ReportContract.safeParse(value);
  if (!parsed.success) throw new Error(`the report breaks its JSON contract:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
