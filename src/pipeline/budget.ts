import { assignmentsCost, parseUsd, type Cost, type FeePlatform, type FeeTerms } from '@qrelay/marketplace/fees';
import { PROLIFIC_TARGET } from '../crowd/targets.js';
import type { BatchSettings, HitState } from '../db/models/index.js';
import { requiresMasters } from '../hits/index.js';

/**
 * Money the batch has committed: every HIT whose creation may have reached the platform,
 * at MaxAssignments x (reward + fee) by its platform's rules (fees.ts: MTurk's, or Prolific's on `prolific`). It bounds what the batch
 * can be charged, and the budget is checked against it before each HIT and extension.
 */

export interface PricedHit {
  readonly state: HitState;
  readonly maxAssignments: number;
}

export interface PriceTerms {
  /** Reward per assignment, "1.00". */
  readonly reward: string;
  readonly masters: boolean;
  /** Absent: MTurk's fees. */
  readonly platform?: FeePlatform;
}

/** Whose fees a target's work pays. */
export const feePlatform = (target: string): FeePlatform => (target === PROLIFIC_TARGET ? 'prolific' : 'mturk');

const feeTermsOf = (terms: PriceTerms, maxAssignments: number): FeeTerms => ({
  maxAssignments,
  masters: terms.masters,
  ...(terms.platform && { platform: terms.platform }),
});

/** The batch's price terms: its preset's reward, and whether it asks for Masters. */
export const priceTerms = (settings: BatchSettings): PriceTerms => ({
  reward: settings.preset.reward,
  masters: requiresMasters(settings.preset),
  platform: feePlatform(settings.target),
});

export function hitCommitment(terms: PriceTerms, maxAssignments: number): Cost {
  return assignmentsCost(parseUsd(terms.reward), maxAssignments, feeTermsOf(terms, maxAssignments));
}

/** HITs that exist or may exist on the platform (everything but `planned`). */
export function committedCents(hits: readonly PricedHit[], terms: PriceTerms): number {
  return hits.reduce((sum, h) => sum + (h.state === 'planned' ? 0 : hitCommitment(terms, h.maxAssignments).total), 0);
}

/** What the HITs not yet sent will commit. */
export function remainingCents(hits: readonly PricedHit[], terms: PriceTerms): number {
  return hits.reduce((sum, h) => sum + (h.state === 'planned' ? hitCommitment(terms, h.maxAssignments).total : 0), 0);
}

/** Whether committing `extraCents` more keeps the batch within its budget (no budget: always). */
export function withinBudget(budgetCents: number | null, committed: number, extraCents: number): boolean {
  return budgetCents === null || committed + extraCents <= budgetCents;
}

/** The cost of raising a HIT from `fromMax` to `toMax` assignments (fees at the new terms). */
export function extensionCents(terms: PriceTerms, fromMax: number, toMax: number): number {
  return hitCommitment(terms, toMax).total - hitCommitment(terms, fromMax).total;
}

/**
 * What HITs already on the platform may still be charged: every slot not yet approved or
 * rejected, at (reward + fee), for HITs that can still bring work (created, not done or
 * deleted). `reviewed`: approved or rejected assignments per HIT id.
 */
export function outstandingCents(
  hits: ReadonlyArray<PricedHit & { readonly _id: string }>,
  reviewed: ReadonlyMap<string, number>,
  terms: PriceTerms,
): number {
  return hits.reduce((sum, h) => {
    if (h.state === 'planned' || h.state === 'done' || h.state === 'deleted') return sum;
    const open = Math.max(0, h.maxAssignments - (reviewed.get(h._id) ?? 0));
    return sum + assignmentsCost(parseUsd(terms.reward), open, feeTermsOf(terms, h.maxAssignments)).total;
  }, 0);
}
