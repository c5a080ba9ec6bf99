import type { FleissKappaResult, KrippendorffAlphaResult, Resolution } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import type { CostQuote } from '../hits/quote.js';
import type { HolesMattered } from '../qrels/holes-matter.js';
import type { ExperimentSummary } from '../experiment/compare.js';
import type { AccuracyResult, BalancedAccuracyResult, PassRate, WorkerFlag, WorkerStats } from '../quality/index.js';
import type { AgreementIntervals, AggregationComparison, GoldAccuracy, WorkerConfusion } from './trust.js';

/**
 * The report: what `qrelay report --format json` prints and `GET /api/v1/batches/:id/report`
 * returns. Plain data only, so that `JSON.stringify` is the JSON rendering.
 *
 * Units, everywhere in this object:
 * - money in **whole US cents** (integers; `cost.unit: "cents"`, as in the plan's CostQuote),
 *   exact sums; md/html/csv render dollars;
 * - durations in **seconds** (field names end in `Seconds`), from millisecond timestamps;
 * - rates and shares as fractions in [0, 1];
 * - instants as ISO 8601 strings.
 * A measure that is undefined for the data is `null`, never NaN; κ and α say why in `reason`.
 *
 * Stable (docs/interfaces.md): `batch, items, hits, assignments, votes,
 * labels, fleissKappa, krippendorffAlpha, cost{rewards, fees, bonuses, total, perLabel,
 * currency}, latency{...Seconds}, workers[...]`. Add fields freely; never rename or
 * change the meaning of those.
 */
export interface Report {
  /**
   * Version of this shape; raised only when a field changes meaning or goes away (2: latency
   * counts decided items, `itemsDecided`/`itemsUndecided` and `decidedItems` in place of
   * `itemsReached`/`itemsPending` and `completedItems`).
   */
  readonly reportVersion: 2;
  /** The batch name. */
  readonly batch: string;
  /** A copy worked by a simulated crowd (`qrelay simulate`); absent for real batches. */
  readonly simulated?: true;
  /** From `ReportOptions.generatedAt` (the builder reads no clock); null when not given. */
  readonly generatedAt: string | null;
  /** The input's times are a simulated marketplace's (`ReportOptions.simulatedClock`); absent otherwise. */
  readonly simulatedClock?: true;
  readonly publishedAt: string | null;
  /** Real items in the batch (attention checks excluded). */
  readonly items: number;
  readonly hits: number;
  /** Submitted assignments, whatever their review status. */
  readonly assignments: number;
  /** Valid votes: answers to real items from assignments that count (passed every check, not rejected, not discarded). */
  readonly votes: number;
  /** Items with a human label (`quality.aggregator`: by default the majority of the first 3 valid votes; a tie as the tie policy says). */
  readonly labels: number;
  /** `quality.fleissKappa.value`: over each item's first `voteTarget` valid votes (`quality.agreementVotes`). */
  readonly fleissKappa: number | null;
  /** `quality.krippendorffAlpha.value`. */
  readonly krippendorffAlpha: number | null;
  readonly cost: CostReport;
  readonly latency: LatencyReport;
  readonly quality: QualityReport;
  /** One row per worker who submitted anything, sorted by worker id. */
  readonly workers: readonly WorkerRow[];
  /** One row per real item, sorted by item id. */
  readonly itemRows: readonly ItemRow[];
  /** "Did the holes matter?": the runs under the base and the adjudicated qrels; present when the report was made with runs (`qrelay report --runs`). */
  readonly holesMattered?: HolesMattered;
  /** Items decided by hand (`qrelay label`), sorted by item id; `crowdLabel` is what the votes said. */
  readonly manualDecisions: readonly ManualDecisionRow[];
  /** The debate experiment per arm and their difference (docs/experiment.md); present when the batch runs it. */
  readonly experiment?: ExperimentSummary;
}

export interface ManualDecisionRow {
  readonly item: string;
  readonly queryId: string;
  readonly chunkId: string;
  readonly label: Judgment;
  readonly crowdLabel: Judgment | null;
  readonly note: string;
  readonly who: string;
  readonly at: string;
}

export interface CostBreakdown {
  readonly assignments: number;
  readonly rewards: number;
  readonly fees: number;
  readonly total: number;
}

/** One set of fee terms and how many HITs were published on it. */
export interface FeeTermsRow {
  readonly rewardCents: number;
  readonly maxAssignments: number;
  readonly masters: boolean;
  readonly feePercent: number;
  readonly feePerAssignmentCents: number;
  readonly hits: number;
}

export type QuoteDifferenceReason = 'extra-assignments' | 'not-submitted' | 'pending-review' | 'rejected' | 'bonuses';

export interface QuoteDifference {
  readonly reason: QuoteDifferenceReason;
  /** Assignments (bonuses: bonuses paid); signed like `cents`. */
  readonly count: number;
  /** Signed cents: what this reason adds to (or takes from) the quote. */
  readonly cents: number;
}

export interface QuoteComparison {
  readonly quoted: CostQuote;
  readonly actual: number;
  /** actual − quoted.total. */
  readonly difference: number;
  /**
   * Why, in this order; `quoted.total` plus every `cents` is exactly `actual`:
   * - `extra-assignments`: assignments offered beyond the plan's (extra assignments for
   *   missing votes, HITs added or left unpublished), at each HIT's own price;
   * - `not-submitted`: offered but never submitted (expired, returned, still open): not paid;
   * - `pending-review`: submitted, not reviewed yet: not paid yet;
   * - `rejected`: rejected assignments cost nothing;
   * - `bonuses`: bonuses and their fees, which a quote does not include.
   */
  readonly differences: readonly QuoteDifference[];
  /** Included in `actual`: approved-and-discarded work, paid for votes that do not count (which is why extra assignments are bought). */
  readonly discardedWork: { readonly assignments: number; readonly cents: number };
  readonly checkOverhead: { readonly quoted: number; readonly actual: number };
  readonly perLabel: { readonly quoted: number; readonly actual: number | null };
}

export interface CostReport {
  readonly currency: 'USD';
  readonly unit: 'cents';
  /** Rewards of approved assignments (approved-and-discarded ones included: they are paid). */
  readonly rewards: number;
  /** All MTurk fees: `feesOnRewards + feesOnBonuses`. */
  readonly fees: number;
  /** Per approved assignment, at its HIT's terms (20%, +20% at 10+ assignments, +5% Masters, at least 1 cent). */
  readonly feesOnRewards: number;
  readonly bonuses: number;
  /** 20% of each bonus, at least 1 cent each. */
  readonly feesOnBonuses: number;
  /** rewards + bonuses + fees: what was paid. Pending review and rejected work is not in it. */
  readonly total: number;
  /** total / labels, rounded half up; null without labels. */
  readonly perLabel: number | null;
  readonly holesFound: number | null;
  /** total / holesFound, rounded half up; null when unknown or none. */
  readonly perHole: number | null;
  /** Approved assignments, discarded ones included: the ones paid. */
  readonly paidAssignments: number;
  readonly rejectedAssignments: number;
  /** Paid for votes that do not count (approved and discarded); part of `total`. */
  readonly discardedWork: { readonly assignments: number; readonly cents: number };
  /** Submitted, not reviewed: owed if approved, not part of `total`. */
  readonly pendingReview: CostBreakdown;
  /**
   * The part of `total` that paid for attention checks: each HIT's approved spend
   * apportioned by its share of check items, rounded half up per HIT (the quote's rule).
   * Bonuses are not apportioned.
   */
  readonly checkOverhead: number;
  /** checkOverhead / total; null when nothing was paid. */
  readonly checkOverheadShare: number | null;
  /** The fee terms of the batch's HITs, sorted by reward, MaxAssignments, Masters. */
  readonly feeTerms: readonly FeeTermsRow[];
  /** Null when the input has no quote. */
  readonly quote: QuoteComparison | null;
}

export interface ThroughputBucket {
  /** Start of the bucket, seconds after publishing. */
  readonly startSeconds: number;
  readonly validVotes: number;
  /** Items decided in this bucket (quality/decided-items.ts: they have the votes the batch asks of them). */
  readonly decidedItems: number;
  readonly validVotesPerHour: number;
  readonly decidedItemsPerHour: number;
  readonly cumulativeValidVotes: number;
  readonly cumulativeDecidedItems: number;
}

export interface LatencyReport {
  /**
   * pN is the nearest-rank percentile: the smallest observed value with at least N% of
   * the values at or below it (rank ⌈N/100 · n⌉ of n sorted values). It is always an
   * observed duration.
   */
  readonly percentileMethod: 'nearest-rank';
  /** The earliest AcceptTime of a submitted assignment (MTurk lists no other). */
  readonly firstAcceptAt: string | null;
  /** Negative durations from clock skew between us and the platform count as 0. */
  readonly publishToFirstAcceptSeconds: number | null;
  readonly lastValidVoteAt: string | null;
  readonly publishToLastValidVoteSeconds: number | null;
  /**
   * Per item: from publishing to the SubmitTime of the valid vote that decided it: its
   * `voteTarget`-th, or earlier where the batch's redundancy or `recollect: when-undecided`
   * lets fewer agreeing votes decide (quality/decided-items.ts, the rule status and the
   * console count by). Only decided items enter the percentiles; the others are `itemsUndecided`.
   */
  readonly timeToTarget: {
    readonly voteTarget: number;
    readonly itemsDecided: number;
    readonly itemsUndecided: number;
    readonly p50Seconds: number | null;
    readonly p90Seconds: number | null;
    readonly p99Seconds: number | null;
    readonly maxSeconds: number | null;
  };
  /**
   * Time a worker spends per item (real items and checks), over all submitted answers:
   * the page's measured time when present (`measured`), else the assignment's work time
   * divided by its answers (`estimated`).
   */
  readonly workerTimePerItem: {
    readonly measured: number;
    readonly estimated: number;
    readonly p50Seconds: number | null;
    readonly p90Seconds: number | null;
  };
  /**
   * Rewards and bonuses paid to workers (fees excluded) per hour of work on reviewed
   * assignments (approved or rejected: rejected work took time too). Work time is
   * SubmitTime − AcceptTime (or the input's `workTimeMs`, or the sum of measured item
   * times). Null when a reviewed assignment has no work time (`untimedAssignments`).
   */
  readonly effectiveHourlyPay: {
    readonly paidCents: number;
    readonly workSeconds: number;
    readonly untimedAssignments: number;
    readonly centsPerHour: number | null;
    readonly minimumCentsPerHour: number;
    readonly belowMinimum: boolean | null;
  };
  /** Valid votes and completed items per time bucket since publishing (empty before any vote). */
  readonly throughput: { readonly bucketSeconds: number; readonly buckets: readonly ThroughputBucket[] };
}

export interface AgentAgreement {
  readonly agent: string;
  /** Items with a human label and a final label of this agent. */
  readonly compared: number;
  /** Of those, items whose human label equals the agent's final label. */
  readonly agreed: number;
  readonly rate: number | null;
}

export interface QualityReport {
  readonly voteTarget: number;
  /**
   * How labels were decided: `majority` of each item's first `voteTarget` valid votes in
   * submission order (ties by the tie policy), or `dawid-skene` over all valid votes.
   */
  readonly aggregator: 'majority' | 'dawid-skene';
  /**
   * The votes κ and α are computed from, and majority labels decided from: each item's
   * first `voteTarget` valid votes in submission order (what the pipeline stores too).
   */
  readonly agreementVotes: number;
  /** The items κ and α are both computed over: those with 2 or more of `agreementVotes` (the same items for both). */
  readonly agreementItems: number;
  readonly fleissKappa: FleissKappaResult;
  readonly krippendorffAlpha: KrippendorffAlphaResult;
  /** 95% percentile-bootstrap intervals of both (1,000 resamples of the same items, seeded by the batch name). */
  readonly agreementIntervals: AgreementIntervals;
  /** The crowd on the gold: every answer to an attention check against its known answer (accuracy and balanced accuracy over the two polarities). */
  readonly gold: GoldAccuracy;
  /** The protocol's majority next to Dawid–Skene with the evidence, and the items on which they differ. */
  readonly aggregation: AggregationComparison;
  /** Over every submitted assignment. */
  readonly attentionChecks: PassRate & {
    readonly byPolarity: Record<Judgment, PassRate>;
    readonly assignmentsWithChecks: number;
    /** Assignments with checks that passed all of them. */
    readonly assignmentsPassedAll: number;
  };
  readonly votes: { readonly total: number; readonly yes: number; readonly no: number };
  /** Items by human label; `unresolved`: votes tied; `withoutVotes`: no valid vote yet. */
  readonly labels: { readonly yes: number; readonly no: number; readonly unresolved: number; readonly withoutVotes: number };
  /** The human label against each debating agent's final label, sorted by agent name. */
  readonly agents: readonly AgentAgreement[];
  /** Against the hidden truth (simulations); null when no item has one. */
  readonly accuracy: null | {
    readonly itemsWithTruth: number;
    readonly accuracy: AccuracyResult;
    readonly balancedAccuracy: BalancedAccuracyResult<Judgment>;
  };
  readonly flaggedWorkers: number;
}

export interface WorkerRow {
  readonly worker: string;
  readonly assignments: WorkerStats['assignments'];
  /** Valid votes of this worker. */
  readonly votes: number;
  readonly answers: WorkerStats['answers'];
  readonly checks: WorkerStats['checks'];
  /** Agreement with the leave-one-out majority (see quality/worker-stats.ts). */
  readonly agreement: WorkerStats['agreement'];
  readonly medianSecondsPerItem: number | null;
  /** Rewards of approved assignments plus bonuses: what the worker received (cents). */
  readonly paidCents: number;
  readonly bonusCents: number;
  /** Work time of reviewed assignments. */
  readonly workSeconds: number;
  readonly hourlyPayCents: number | null;
  readonly flags: readonly WorkerFlag[];
  /** Confusion tables (rows: reference, columns: the worker's answer) against the gold and against the final labels. */
  readonly confusion: WorkerConfusion;
  /** Why the worker is flagged `llm-assisted`; absent when not flagged. */
  readonly llmEvidence?: readonly string[];
}

export interface ItemRow {
  readonly item: string;
  readonly queryId: string;
  readonly chunkId: string;
  readonly dataset: string;
  /** HITs that contain the item, sorted. */
  readonly hits: readonly string[];
  /** All valid votes of the item. */
  readonly validVotes: number;
  /** The votes the label was decided from, by label (majority: the first `voteTarget` valid votes; Dawid–Skene: all). */
  readonly yes: number;
  readonly no: number;
  readonly label: Judgment | null;
  /** How the label was decided; `no-votes` before any valid vote. */
  readonly decidedBy: Resolution | 'no-votes';
  readonly agentLabels: Readonly<Record<string, Judgment>>;
  readonly hiddenLabel: Judgment | null;
  /** label === hiddenLabel; null when either is missing. */
  readonly correct: boolean | null;
  readonly timeToTargetSeconds: number | null;
}
