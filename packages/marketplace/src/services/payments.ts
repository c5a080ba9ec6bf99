import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { assignmentIn } from '../domain/hit.js';
import { bonusCharge, type LedgerEntry } from '../domain/money.js';
import { DAY_MS } from '../domain/types.js';
import { newEntityId } from '../ids.js';
import { isDuplicateKey, type RequestTokenDoc } from '../store/models.js';
import { hitIdFor } from './reviews.js';

/**
 * Bonuses and deposits. A bonus with a UniqueRequestToken is paid once: the token is
 * recorded (with the ledger key it pays under) before the payment, so a retry after a
 * crash completes the same payment, and a repeat within 24 hours is refused with the
 * original payment untouched, as MTurk does.
 */

export const TOKEN_WINDOW_MS = DAY_MS;

export interface BonusRequest {
  workerId: string;
  bonusCents: number;
  assignmentId: string;
  reason: string;
  token?: string;
}

/** Claims `kind:token` for `target`; returns the target of a live earlier claim instead. */
export async function claimToken(
  mp: Marketplace,
  kind: string,
  token: string,
  target: string,
  now: Date,
): Promise<{ claimed: boolean; target: string }> {
  const id = `${kind}:${token}`;
  try {
    await mp.models.requestTokens.create({ _id: id, target, at: now });
    return { claimed: true, target };
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
  const existing = await mp.models.requestTokens.findById(id).lean<RequestTokenDoc>();
  if (existing && now.getTime() - existing.at.getTime() < TOKEN_WINDOW_MS) return { claimed: false, target: existing.target };
  // the token expired: it may be used again (by `_id` alone: one process writes, see lease.ts)
  await mp.models.requestTokens.updateOne({ _id: id }, { $set: { target, at: now } });
  return { claimed: true, target };
}

export async function sendBonus(mp: Marketplace, req: BonusRequest): Promise<void> {
  if (req.token === undefined) return sendBonusNow(mp, req);
  await mp.hitLocks.run(`SendBonus:${req.token}`, () => sendBonusNow(mp, req));
}

async function sendBonusNow(mp: Marketplace, req: BonusRequest): Promise<void> {
  const hitId = hitIdFor(mp, req.assignmentId);
  const assignment = assignmentIn(mp.hits.get(hitId)!, req.assignmentId);
  if (!assignment || assignment.status === 'Accepted')
    throw new DomainError('AssignmentDoesNotExist', `Assignment ${req.assignmentId} does not exist.`);
  if (assignment.workerId !== req.workerId) {
    throw new DomainError('ValidationException', `WorkerId: worker ${req.workerId} did not work on assignment ${req.assignmentId}`);
  }
  if (req.bonusCents < 1) throw new DomainError('ValidationException', 'BonusAmount: a bonus must be at least 0.01');
  const now = mp.clock.now();
  let key = `bonus:${newEntityId(now.getTime())}`;
  if (req.token !== undefined) {
    const claim = await claimToken(mp, 'SendBonus', req.token, key, now);
    if (!claim.claimed) {
      if (mp.ledger.get(claim.target)) {
        throw new DomainError(
          'DuplicateRequest',
          `The idempotency token "${req.token}" has already been processed (bonus ${claim.target.slice(6)}).`,
        );
      }
      key = claim.target; // the earlier attempt claimed the token but never paid: pay now
    }
  }
  const charge = bonusCharge(req.bonusCents);
  const entry: LedgerEntry = {
    key,
    kind: 'bonus',
    amountCents: -charge.totalCents,
    rewardCents: charge.rewardCents,
    feeCents: charge.feeCents,
    at: now,
    hitId,
    assignmentId: req.assignmentId,
    workerId: req.workerId,
    reason: req.reason,
  };
  await mp.ledger.post(entry, { requireCover: true });
}

/** Adds funds (the operator's admin interface); a repeated reference deposits once. */
export async function deposit(
  mp: Marketplace,
  amountCents: number,
  reference?: string,
): Promise<{ balanceCents: number; duplicate: boolean }> {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0)
    throw new DomainError('ValidationException', 'amount: a deposit must be a positive amount');
  const { duplicate } = await mp.ledger.post(
    {
      key: `deposit:${reference ?? newEntityId()}`,
      kind: 'deposit',
      amountCents,
      rewardCents: 0,
      feeCents: 0,
      at: mp.clock.now(),
      reason: reference ? `deposit ${reference}` : 'deposit',
    },
    { requireCover: false },
  );
  return { balanceCents: mp.ledger.balanceCents(), duplicate };
}
