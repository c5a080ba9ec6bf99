import { Schema } from 'mongoose';
import type { AggregatorId } from '../../aggregate/index.js';
import type { CheckSummary, HitPreset, PlanLayout } from '../../hits/index.js';
import type { CostQuote } from '../../hits/quote.js';
import type { ReviewPolicy } from '../../quality/index.js';
import { collections } from '../collections.js';
import { announceWrites } from '../write-notices.js';

/**
 * `draft`: importing; `publishing`: plan stored, HITs being created; `collecting`: all
 * planned HITs exist, votes are coming in; `complete`: every item has its valid votes and
 * no assignment is outstanding; `expired`: stopped early (expireBatch); `closed`: HITs
 * deleted on the platform (cleanupBatch).
 */
export const BATCH_STATES = ['draft', 'publishing', 'collecting', 'complete', 'expired', 'closed'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export type TieChoice = 'unresolved' | 'yes' | 'no';

/** What a batch was published with; fixed once the plan is stored. */
export interface BatchSettings {
  /** The target's name: `local`, `sandbox`, `production` or the endpoint URL. */
  target: string;
  /** The preset's name or file, and its content at publishing time. */
  presetName: string;
  preset: HitPreset;
  seed: string;
  layout: PlanLayout;
  /** Valid votes every item needs (3). */
  voteTarget: number;
  review: ReviewPolicy;
  aggregator: AggregatorId;
  /**
   * `fixed`: every HIT asks `voteTarget` workers; `adaptive`: two first, the third only where
   * the first two votes of an item disagree (quality/adaptive-redundancy.ts). Absent: fixed.
   */
  redundancy?: 'fixed' | 'adaptive';
  /**
   * Lost votes (discarded work) collected again: `when-undecided`, only for items whose
   * remaining valid votes do not decide their majority (quality/decided-majority.ts);
   * `always`, every one. Absent (batches published before the setting): always.
   */
  recollect?: 'when-undecided' | 'always';
  /** What a tie among the valid votes of an item ends in (`unresolved`: no label). */
  tie: TieChoice;
  /** Spend limit in cents, when one was given. */
  budgetCents: number | null;
  /** HITs created at once. */
  concurrency: number;
  /** The debate experiment: each worker sees pages with or without the debate (docs/experiment.md); absent: none. */
  experiment?: 'debate';
}

export interface BatchPlanSummary {
  plannedAt: Date;
  hits: number;
  realItems: number;
  checks: CheckSummary;
  splits: number;
  quote: CostQuote;
}

export interface BatchSummary {
  at: Date;
  items: number;
  itemsComplete: number;
  labels: number;
  unresolved: number;
  validVotes: number;
  fleissKappa: number | null;
  fleissKappaReason: string | null;
  krippendorffAlpha: number | null;
  krippendorffAlphaReason: string | null;
  /** Items κ and α are both computed over (2 or more valid votes used); absent in summaries written before it existed. */
  agreementItems?: number;
}

export interface BatchDoc {
  /** The batch name. */
  _id: string;
  state: BatchState;
  createdAt: Date;
  updatedAt: Date;
  settings: BatchSettings | null;
  plan: BatchPlanSummary | null;
  hitTypeId: string | null;
  /** Adaptive checks: the HIT type of the starter HITs (`hitTypeId` is the regular HITs'; pipeline/experience-qualification.ts). */
  starterHitTypeId?: string | null;
  /** Custom qualification type ids on the batch's target, by test name. */
  qualificationIds: Record<string, string>;
  publishStartedAt: Date | null;
  publishedAt: Date | null;
  completedAt: Date | null;
  expiredAt: Date | null;
  closedAt: Date | null;
  /** Rounds of new HITs posted for items their HITs could not serve. */
  reposts: number;
  summary: BatchSummary | null;
  /** A collection round holds the batch until then (one round at a time). */
  roundLeaseUntil: Date | null;
  roundOwner: string | null;
  /** Bumped by changes the batch document does not show otherwise (src/pipeline/revision.ts); absent: 0. */
  revision?: number;
  /** Bumped by every decision taken by hand (src/pipeline/revision.ts): only the report lists them; absent: 0. */
  manualRevision?: number;
  /** A copy made by `qrelay simulate` and worked by a simulated crowd: never real labels. */
  simulated?: boolean;
}

export const batchSchema = new Schema<BatchDoc>(
  {
    _id: { type: String, required: true },
    state: { type: String, enum: BATCH_STATES, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    settings: { type: Schema.Types.Mixed, default: null },
    plan: { type: Schema.Types.Mixed, default: null },
    hitTypeId: { type: String, default: null },
    starterHitTypeId: { type: String, default: null },
    qualificationIds: { type: Schema.Types.Mixed, default: {} },
    publishStartedAt: { type: Date, default: null },
    publishedAt: { type: Date, default: null },
    completedAt: { type: Date, default: null },
    expiredAt: { type: Date, default: null },
    closedAt: { type: Date, default: null },
    reposts: { type: Number, default: 0 },
    summary: { type: Schema.Types.Mixed, default: null },
    roundLeaseUntil: { type: Date, default: null },
    roundOwner: { type: String, default: null },
    revision: { type: Number, default: 0 },
    manualRevision: { type: Number, default: 0 },
    simulated: { type: Boolean },
  },
  { collection: collections.batches, versionKey: false, minimize: false },
);
// the API keeps batch fingerprints in memory (src/api/answers.ts): this process's writes reach it at once
announceWrites(batchSchema, collections.batches);
