/**
 * The platforms' fee rules, in whole cents so that sums are exact. MTurk's (archived pricing page):
 * - 20% of each reward and each bonus;
 * - +20% of the reward for HITs with 10 or more assignments;
 * - +5% of the reward when the HIT requires the Masters qualification;
 * - at least $0.01 per assignment and per bonus.
 * A fraction of a cent is rounded half up, per assignment or bonus.
 *
 * Prolific's (`platform: 'prolific'`): a third of each reward and each bonus (its documentation's
 * example: bonuses of 850 cents bear 283.34 in fees), VAT left out; a whole cent rounded half up.
 *
 * Both the marketplace (what it debits) and qrelay (quotes, reports) use this module;
 * it is the platforms' pricing, not qrelay policy.
 */

export const BASE_FEE_PERCENT = 20;
export const LARGE_HIT_EXTRA_PERCENT = 20;
export const LARGE_HIT_MIN_ASSIGNMENTS = 10;
export const MASTERS_EXTRA_PERCENT = 5;
export const MIN_FEE_CENTS = 1;

/** Where the work is paid: MTurk's rules unless Prolific's are asked for. */
export type FeePlatform = 'mturk' | 'prolific';

/** Prolific's fee on rewards and bonuses, as a percentage to show (the fee itself is an exact third). */
export const PROLIFIC_FEE_PERCENT = 33.33;

/** Prolific's fee on a payment of `cents`: a third, in hundredths of a cent rounded up, then to a whole cent. */
export function prolificFeeCents(cents: number): number {
  assertCents(cents, 'payment');
  return Math.round(Math.ceil((cents * 100) / 3) / 100);
}

const USD_PATTERN = /^[0-9]+(\.)?[0-9]{0,2}$/;

/** Parses an MTurk amount string ("0.12", "1", "3.5") into cents; throws on anything else. */
export function parseUsd(amount: string): number {
  if (!USD_PATTERN.test(amount)) throw new RangeError(`not a USD amount with at most 2 decimals: ${JSON.stringify(amount)}`);
  const [whole, frac = ''] = amount.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0') || '0');
}

/** Formats cents as MTurk writes amounts: "0.12", "10.00". */
export function formatUsd(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a whole number, got ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export interface FeeTerms {
  /** MaxAssignments of the HIT: decides the 10+ surcharge. */
  maxAssignments: number;
  /** Whether a Masters qualification (sandbox or production id) is required. */
  masters: boolean;
  /** Absent: MTurk. */
  platform?: FeePlatform;
}

export function feePercent(terms: FeeTerms): number {
  if (terms.platform === 'prolific') return PROLIFIC_FEE_PERCENT;
  return (
    BASE_FEE_PERCENT +
    (terms.maxAssignments >= LARGE_HIT_MIN_ASSIGNMENTS ? LARGE_HIT_EXTRA_PERCENT : 0) +
    (terms.masters ? MASTERS_EXTRA_PERCENT : 0)
  );
}

function percentOf(cents: number, percent: number): number {
  // integer arithmetic: round half up of cents * percent / 100
  return Math.floor((cents * percent + 50) / 100);
}

function assertCents(cents: number, what: string): void {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`${what} must be a non-negative whole number of cents, got ${cents}`);
}

/** The fee MTurk charges for one approved assignment paying `rewardCents`. */
export function assignmentFeeCents(rewardCents: number, terms: FeeTerms): number {
  assertCents(rewardCents, 'reward');
  if (terms.platform === 'prolific') return prolificFeeCents(rewardCents);
  return Math.max(MIN_FEE_CENTS, percentOf(rewardCents, feePercent(terms)));
}

/** The fee on a bonus: MTurk's (always 20%, at least $0.01) or Prolific's (a third). */
export function bonusFeeCents(bonusCents: number, platform: FeePlatform = 'mturk'): number {
  assertCents(bonusCents, 'bonus');
  if (platform === 'prolific') return prolificFeeCents(bonusCents);
  return Math.max(MIN_FEE_CENTS, percentOf(bonusCents, BASE_FEE_PERCENT));
}

export interface Cost {
  rewards: number;
  fees: number;
  total: number;
}

/** What `assignments` approved assignments of one HIT cost, in cents. */
export function assignmentsCost(rewardCents: number, assignments: number, terms: FeeTerms): Cost {
  if (!Number.isSafeInteger(assignments) || assignments < 0)
    throw new RangeError(`assignments must be a whole number >= 0, got ${assignments}`);
  const rewards = rewardCents * assignments;
  const fees = assignmentFeeCents(rewardCents, terms) * assignments;
  return { rewards, fees, total: rewards + fees };
}

/** What a HIT costs when every one of its MaxAssignments is approved. */
export function hitCost(rewardCents: number, terms: FeeTerms): Cost {
  return assignmentsCost(rewardCents, terms.maxAssignments, terms);
}

export function bonusCost(bonusCents: number, platform: FeePlatform = 'mturk'): Cost {
  const fees = bonusFeeCents(bonusCents, platform);
  return { rewards: bonusCents, fees, total: bonusCents + fees };
}

export function addCosts(...costs: Cost[]): Cost {
  return costs.reduce((a, c) => ({ rewards: a.rewards + c.rewards, fees: a.fees + c.fees, total: a.total + c.total }), {
    rewards: 0,
    fees: 0,
    total: 0,
  });
}
