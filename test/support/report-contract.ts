import { z } from 'zod';

/**
 * The JSON report contract of docs/interfaces.md: `qrelay report
 * --format json` prints one object with at least these fields, of these types. Money is
 * whole cents, durations are seconds in fields named `...Seconds`.
 */
const cents = z.number().int().min(0);
const seconds = z.number().min(0).nullable();

export const ReportContract = z.looseObject({
  batch: z.string().min(1),
  items: z.number().int().min(0),
  hits: z.number().int().min(0),
  assignments: z.number().int().min(0),
  votes: z.number().int().min(0),
  labels: z.number().int().min(0),
  fleissKappa: z.number().nullable(),
  krippendorffAlpha: z.number().nullable(),
  cost: z.looseObject({ rewards: cents, fees: cents, bonuses: cents, total: cents, perLabel: cents.nullable(), currency: z.literal('USD') }),
  latency: z.looseObject({
    publishToFirstAcceptSeconds: seconds,
    publishToLastValidVoteSeconds: seconds,
    timeToTarget: z.looseObject({ p50Seconds: seconds, p90Seconds: seconds, p99Seconds: seconds, maxSeconds: seconds }),
    workerTimePerItem: z.looseObject({ p50Seconds: seconds, p90Seconds: seconds }),
  }),
  workers: z.array(z.looseObject({ worker: z.string().min(1), assignments: z.looseObject({}), votes: z.number().int().min(0) })).min(1),
});
export type ReportContract = z.infer<typeof ReportContract>;

/** Parses `value` against the contract; the error lists every field that does not match. */
export function checkReportContract(value: unknown): ReportContract {
  const parsed = ReportContract.safeParse(value);
  if (!parsed.success) throw new Error(`the report breaks its JSON contract:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
