import { createHash } from 'node:crypto';
import { bonusFeeCents, parseUsd, type FeePlatform } from '@qrelay/marketplace/fees';
import { UserError } from '../errors.js';

/**
 * The pure rules of a bonus: its amount, its UniqueRequestToken and whether it fits the
 * batch's budget. The token is what makes a repeated `qrelay worker bonus` pay once: MTurk
 * (and the bundled marketplace) refuse a second SendBonus with the same token for 24
 * hours, and qrelay records the token before the call, so it never sends a different one.
 */

const USD = /^(\d{1,6})(\.\d{1,2})?$/;

/** "0.50" or "2" -> cents; one clear line naming `where` otherwise. */
export function parseBonusAmount(value: string, where = '--amount'): number {
  const text = value.trim().replace(/^\$/, '');
  if (!USD.test(text))
    throw new UserError(`${where}: expected a USD amount such as 0.50 (at most 2 decimals), got ${JSON.stringify(value)}`);
  const cents = parseUsd(text);
  if (cents < 1) throw new UserError(`${where}: a bonus must be at least 0.01 USD`);
  return cents;
}

export interface BonusIdentity {
  /** A token the requester chose (`--token`); otherwise the bonus's content decides it. */
  token?: string;
  workerId: string;
  assignmentId: string;
  amountCents: number;
  reason: string;
}

/** At most 64 characters, as MTurk takes UniqueRequestToken; the same bonus always gives the same token. */
export function bonusRequestToken(b: BonusIdentity): string {
  const source = b.token !== undefined ? ['token', b.token] : ['bonus', b.workerId, b.assignmentId, String(b.amountCents), b.reason.trim()];
  return `qrelay-bonus-${createHash('sha256').update(JSON.stringify(source)).digest('hex').slice(0, 40)}`;
}

/** A bonus costs its amount plus the platform's fee on it (MTurk's unless told). */
export function bonusTotalCents(amountCents: number, platform: FeePlatform = 'mturk'): number {
  return amountCents + bonusFeeCents(amountCents, platform);
}

/**
 * Whether a new bonus keeps the batch within its budget: the HITs' committed spend plus
 * the bonuses already recorded plus this one (no budget: always).
 */
export function bonusWithinBudget(
  budgetCents: number | null,
  committedCents: number,
  bonusesCents: number,
  newBonusCents: number,
  platform: FeePlatform = 'mturk',
): boolean {
  return budgetCents === null || committedCents + bonusesCents + bonusTotalCents(newBonusCents, platform) <= budgetCents;
}
