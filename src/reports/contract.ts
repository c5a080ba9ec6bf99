import { z } from 'zod';

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

export const ReportContract = z
  .looseObject({
    reportVersion: z.literal(1),
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
    workers: z.array(z.looseObject({ worker: z.string().min(1), assignments: z.looseObject({}), votes: count })),
  })
  .describe('money in whole US cents, durations in seconds (fields named ...Seconds); see src/reports/types.ts for every field');
export type ReportContract = z.infer<typeof ReportContract>;

/** Parses `value` against the contract; the error lists every field that does not match. */
export function checkReportContract(value: unknown): ReportContract {
  const parsed = ReportContract.safeParse(value);
  if (!parsed.success) throw new Error(`the report breaks its JSON contract:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
