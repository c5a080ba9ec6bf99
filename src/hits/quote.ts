import { assignmentFeeCents, feePercent, hitCost, parseUsd, type FeePlatform, type FeeTerms } from '@qrelay/marketplace/fees';

/**
 * What a plan will cost if every assignment is approved, in whole cents, by MTurk's fee
 * rules (src/crowd/mturk/fees.ts: 20%, +20% at 10+ assignments, +5% for Masters, at
 * least $0.01 per assignment). Every HIT of a plan shares one reward, so a smaller last
 * HIT costs as much as a full one.
 */
export interface QuoteInput {
  hits: ReadonlyArray<{ realItems: number; checks: number }>;
  /** Reward per assignment, as MTurk writes it ("1.00"). */
  reward: string;
  assignmentsPerHit: number;
  masters: boolean;
  /** Whose fees: MTurk's (absent) or Prolific's. */
  platform?: FeePlatform;
}

export interface CostQuote {
  currency: 'USD';
  /** All amounts below are whole cents. */
  unit: 'cents';
  hits: number;
  assignmentsPerHit: number;
  assignments: number;
  realItems: number;
  checkItems: number;
  rewardPerAssignment: number;
  feePerAssignment: number;
  feePercent: number;
  masters: boolean;
  rewards: number;
  fees: number;
  total: number;
  /** The part of `total` that pays for attention checks (each HIT's total apportioned by
   * its share of check items, rounded half up per HIT). */
  checkOverhead: number;
  /** Check items / all items. */
  checkShare: number;
  /** `total` per real item, each judged by `assignmentsPerHit` workers (rounded half up). */
  perLabel: number;
}

const roundedRatio = (numerator: number, denominator: number): number => Math.floor((2 * numerator + denominator) / (2 * denominator));

export function quoteCost(input: QuoteInput): CostQuote {
  const { assignmentsPerHit, masters } = input;
  if (!Number.isSafeInteger(assignmentsPerHit) || assignmentsPerHit < 1)
    throw new RangeError(`assignmentsPerHit must be a whole number >= 1, got ${assignmentsPerHit}`);
  const rewardPerAssignment = parseUsd(input.reward);
  const terms: FeeTerms = { maxAssignments: assignmentsPerHit, masters, ...(input.platform && { platform: input.platform }) };
  const perHit = hitCost(rewardPerAssignment, terms);
  let realItems = 0;
  let checkItems = 0;
  let checkOverhead = 0;
  for (const [i, hit] of input.hits.entries()) {
    if (
      !Number.isSafeInteger(hit.realItems) ||
      !Number.isSafeInteger(hit.checks) ||
      hit.realItems < 0 ||
      hit.checks < 0 ||
      hit.realItems + hit.checks === 0
    ) {
      throw new RangeError(`HIT ${i} must have whole, non-negative item counts and at least one item, got ${JSON.stringify(hit)}`);
    }
    realItems += hit.realItems;
    checkItems += hit.checks;
    checkOverhead += roundedRatio(perHit.total * hit.checks, hit.realItems + hit.checks);
  }
  const hits = input.hits.length;
  return {
    currency: 'USD',
    unit: 'cents',
    hits,
    assignmentsPerHit,
    assignments: hits * assignmentsPerHit,
    realItems,
    checkItems,
    rewardPerAssignment,
    feePerAssignment: assignmentFeeCents(rewardPerAssignment, terms),
    feePercent: feePercent(terms),
    masters,
    rewards: perHit.rewards * hits,
    fees: perHit.fees * hits,
    total: perHit.total * hits,
    checkOverhead,
    checkShare: realItems + checkItems === 0 ? 0 : checkItems / (realItems + checkItems),
    perLabel: realItems === 0 ? 0 : roundedRatio(perHit.total * hits, realItems),
  };
}
