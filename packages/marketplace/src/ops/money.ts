import type { ListBonusPaymentsRequest, SendBonusRequest } from '@aws-sdk/client-mturk';
import { centsOf, usd, type LedgerEntry } from '../domain/money.js';
import { requireHit } from '../services/hit-writer.js';
import { sendBonus } from '../services/payments.js';
import { hitIdFor } from '../services/reviews.js';
import { as, checkFeedback, invalid, paginate, type Operation } from './common.js';

const sendBonusOp: Operation = async (mp, raw) => {
  const input = as<SendBonusRequest>(raw);
  checkFeedback(input.Reason, 'Reason');
  const bonusCents = centsOf(input.BonusAmount!);
  if (bonusCents === undefined) throw invalid('BonusAmount', `"${input.BonusAmount}" is not a USD amount`);
  await sendBonus(mp, {
    workerId: input.WorkerId!,
    bonusCents,
    assignmentId: input.AssignmentId!,
    reason: input.Reason!,
    ...(input.UniqueRequestToken !== undefined ? { token: input.UniqueRequestToken } : {}),
  });
  return {};
};

const listBonusPayments: Operation = async (mp, raw) => {
  const input = as<ListBonusPaymentsRequest>(raw);
  if (input.HITId === undefined && input.AssignmentId === undefined) throw invalid('HITId', 'give HITId or AssignmentId');
  if (input.HITId !== undefined) requireHit(mp, input.HITId);
  if (input.AssignmentId !== undefined) hitIdFor(mp, input.AssignmentId);
  const sortKey = (e: LedgerEntry) => `${String(e.at.getTime()).padStart(15, '0')}:${e.key}`;
  const bonuses = mp.ledger
    .all()
    .filter(
      (e) =>
        e.kind === 'bonus' &&
        (input.HITId === undefined || e.hitId === input.HITId) &&
        (input.AssignmentId === undefined || e.assignmentId === input.AssignmentId),
    )
    .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
  const page = paginate('ListBonusPayments', { HITId: input.HITId, AssignmentId: input.AssignmentId }, bonuses, sortKey, input);
  return {
    NumResults: page.NumResults,
    NextToken: page.NextToken,
    BonusPayments: page.items.map((e) => ({
      WorkerId: e.workerId,
      BonusAmount: usd(e.rewardCents),
      AssignmentId: e.assignmentId,
      Reason: e.reason,
      GrantTime: e.at,
    })),
  };
};

/** No funds are put on hold here (see CreateHIT), so OnHoldBalance is always 0.00. */
const getAccountBalance: Operation = async (mp) => ({ AvailableBalance: usd(mp.ledger.balanceCents()), OnHoldBalance: '0.00' });

export const moneyOperations: Record<string, Operation> = {
  SendBonus: sendBonusOp,
  ListBonusPayments: listBonusPayments,
  GetAccountBalance: getAccountBalance,
};
