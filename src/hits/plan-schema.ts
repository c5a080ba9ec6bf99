import { z } from 'zod';
import { Judgment } from '../domain/cases.js';
import { HIT_AUDIENCES } from './adaptive-checks.js';

/**
 * The shapes of a HIT plan, as the pipeline stores, reads back and publishes them. The
 * large Question XML lives apart from the small per-HIT metadata (`HitQuestion` vs
 * `PlannedHit`), joined by `index` and checked by `sha256`.
 */

const position = z.number().int().min(1);
const id = z.string().min(1);

export const PlannedRealItem = z.object({
  kind: z.literal('real'),
  position,
  key: z.string().regex(/^[0-9a-f]{16}$/),
  queryId: id,
  chunkId: id,
  dataset: z.string(),
});
export type PlannedRealItem = z.infer<typeof PlannedRealItem>;

export const PlannedCheckItem = PlannedRealItem.extend({
  kind: z.literal('check'),
  /** The gold label: what an attentive worker answers. */
  expected: Judgment,
});
export type PlannedCheckItem = z.infer<typeof PlannedCheckItem>;

export const PlannedItem = z.discriminatedUnion('kind', [PlannedRealItem, PlannedCheckItem]);
export type PlannedItem = z.infer<typeof PlannedItem>;

export const PlannedHit = z.object({
  /** 0-based, in publishing order. */
  index: z.number().int().min(0),
  /** In page order: `items[i].position === i + 1`. */
  items: z.array(PlannedItem).min(1),
  realItems: z.number().int().min(0),
  checks: z.number().int().min(0),
  /** UTF-8 bytes of the HTMLQuestion XML (MTurk allows 65,535). */
  bytes: z.number().int().min(1),
  questionSha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** With adaptive checks: a starter HIT (new workers, more checks) or a regular one (adaptive-checks.ts). */
  audience: z.enum(HIT_AUDIENCES).optional(),
});
export type PlannedHit = z.infer<typeof PlannedHit>;

export const HitQuestion = z.object({
  index: z.number().int().min(0),
  /** The HTMLQuestion XML to pass as CreateHIT's `Question`. */
  xml: z.string().min(1),
  bytes: z.number().int().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The debate experiment's page without the debate (PlanOptions.withoutDebate). */
  withoutDebateXml: z.string().min(1).optional(),
});
export type HitQuestion = z.infer<typeof HitQuestion>;

export const CheckSummary = z.object({
  total: z.number().int().min(0),
  yes: z.number().int().min(0),
  no: z.number().int().min(0),
  /** Check items / all items of the plan. */
  share: z.number().min(0).max(1),
  goldItemsUsed: z.number().int().min(0),
  maxUsesOfOneGoldItem: z.number().int().min(0),
  /** Where the checks' debates come from (check-debate-donor.ts); absent in plans made before it was recorded. */
  debateSources: z
    .object({ gold: z.number().int().min(0), derived: z.number().int().min(0), template: z.number().int().min(0) })
    .optional(),
  /** Checks whose query no real item of the batch has. */
  otherQueries: z.number().int().min(0).optional(),
});
export type CheckSummary = z.infer<typeof CheckSummary>;
