import { z } from 'zod';

/** The debate experiment's summary (compare.ts's ExperimentSummary) as a schema: what status and report answer, for the OpenAPI document. */
const estimate = z.object({
  value: z.number().nullable(),
  low: z.number().nullable().describe('95% interval: percentile bootstrap over workers; null when too few replicates are defined'),
  high: z.number().nullable(),
});
const difference = estimate.extend({
  p: z.number().nullable().describe('two-sided permutation test over workers'),
  test: z.string(),
});
const arm = z.object({
  arm: z.enum(['debate', 'no-debate']),
  workers: z.number().int(),
  items: z.number().int(),
  balancedAccuracy: estimate.describe('balanced accuracy on the attention checks'),
  kappa: estimate.describe("Fleiss' κ over every answer of the arm's workers to the real items, counted or not"),
  secondsPerItem: estimate,
});

export const ExperimentSummarySchema = z
  .object({
    factor: z.literal('debate'),
    design: z.literal('between-subjects'),
    arms: z.array(arm).describe("both arms, 'debate' first"),
    difference: z
      .object({ balancedAccuracy: difference, kappa: difference, secondsPerItem: difference })
      .describe('debate minus no-debate'),
  })
  .describe('the debate experiment per arm (docs/experiment.md); present when the batch runs it');
