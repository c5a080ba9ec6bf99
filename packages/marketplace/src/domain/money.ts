import { assignmentFeeCents, bonusFeeCents, parseUsd, formatUsd } from '../fees.js';
import { isMasters } from './system-qualifications.js';
import type { Requirement } from './types.js';

/**
 * Money: the append-only ledger and the charges MTurk makes. The ledger is the truth:
 * every movement is one entry whose `_id` is its idempotency key, written once, so
 * repeating a movement cannot pay twice; the balance is the sum of the entries.
 */

export type LedgerKind = 'deposit' | 'approval' | 'bonus';

export interface LedgerEntry {
  key: string;
  kind: LedgerKind;
  /** Signed: deposits are positive, payments negative. */
  amountCents: number;
  /** For payments: what the worker receives, and MTurk's fee. */
  rewardCents: number;
  feeCents: number;
  at: Date;
  hitId?: string;
  assignmentId?: string;
  workerId?: string;
  reason?: string;
}

export interface Charge {
  rewardCents: number;
  feeCents: number;
  totalCents: number;
}

export function requiresMasters(requirements: readonly Requirement[]): boolean {
  return requirements.some((r) => isMasters(r.QualificationTypeId) && r.Comparator !== 'DoesNotExist');
}

/** What approving one assignment costs: reward plus fee (20%, +20% at 10+ assignments, +5% Masters, at least $0.01). */
export function approvalCharge(rewardCents: number, maxAssignments: number, requirements: readonly Requirement[]): Charge {
  const feeCents = assignmentFeeCents(rewardCents, { maxAssignments, masters: requiresMasters(requirements) });
  return { rewardCents, feeCents, totalCents: rewardCents + feeCents };
}

/** What `count` approved assignments of a HIT with `maxAssignments` cost. */
export function assignmentsCharge(
  rewardCents: number,
  maxAssignments: number,
  requirements: readonly Requirement[],
  count: number,
): Charge {
  const one = approvalCharge(rewardCents, maxAssignments, requirements);
  return { rewardCents: one.rewardCents * count, feeCents: one.feeCents * count, totalCents: one.totalCents * count };
}

export function bonusCharge(bonusCents: number): Charge {
  const feeCents = bonusFeeCents(bonusCents);
  return { rewardCents: bonusCents, feeCents, totalCents: bonusCents + feeCents };
}

export function balanceOf(entries: Iterable<Pick<LedgerEntry, 'amountCents'>>): number {
  let total = 0;
  for (const e of entries) total += e.amountCents;
  return total;
}

/** "0.5" -> 50; undefined for anything that is not a USD amount with at most 2 decimals. */
export function centsOf(amount: string): number | undefined {
  try {
    return parseUsd(amount);
  } catch {
    return undefined;
  }
}

export const usd = formatUsd;
