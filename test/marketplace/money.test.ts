import {
  ApproveAssignmentCommand,
  CreateHITCommand,
  GetAccountBalanceCommand,
  ListBonusPaymentsCommand,
  SendBonusCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { hitParams, newWorker, useMarketplace, type MarketplaceHarness } from './support.js';

const h = useMarketplace({ env: { MARKETPLACE_INITIAL_BALANCE: '20.00' } });

const balance = async () => (await h.client().send(new GetAccountBalanceCommand({}))).AvailableBalance;

async function approvedHit(harness: MarketplaceHarness, params: Record<string, unknown>, profile = {}) {
  const client = harness.client();
  const { HIT } = await client.send(new CreateHITCommand(hitParams(params)));
  const ids: { assignmentId: string; workerId: string }[] = [];
  for (let i = 0; i < (HIT!.MaxAssignments ?? 1); i++) {
    const w = await newWorker(harness, profile);
    const a = await harness.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await harness.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes' });
    ids.push({ assignmentId: a.assignmentId, workerId: w.workerId });
  }
  for (const { assignmentId } of ids) await client.send(new ApproveAssignmentCommand({ AssignmentId: assignmentId }));
  return { hitId: HIT!.HITId!, assignments: ids };
}

describe('balance and MTurk fees, in exact cents', () => {
  it('starts from the configured balance with nothing on hold', async () => {
    expect(await h.client().send(new GetAccountBalanceCommand({}))).toMatchObject({ AvailableBalance: '20.00', OnHoldBalance: '0.00' });
  });

  it('charges 20% at 1 and 3 assignments, 40% at 10, +5% for Masters', async () => {
    await approvedHit(h, { MaxAssignments: 1 });
    expect(await balance()).toBe('19.40'); // 0.50 + 0.10
    await approvedHit(h, { MaxAssignments: 3 });
    expect(await balance()).toBe('17.60'); // 3 x 0.60
    await approvedHit(h, { MaxAssignments: 10 });
    expect(await balance()).toBe('10.60'); // 10 x (0.50 + 0.20)
    const masters = [{ QualificationTypeId: '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH', Comparator: 'Exists' }];
    await approvedHit(h, { MaxAssignments: 1, Reward: '1.00', QualificationRequirements: masters }, { masters: true });
    expect(await balance()).toBe('9.35'); // 1.00 + 0.25
  });

  it('pays a bonus plus 20% once per UniqueRequestToken and lists bonuses', async () => {
    const client = h.client();
    const { hitId, assignments } = await approvedHit(h, { MaxAssignments: 1, Reward: '0.05' });
    expect(await balance()).toBe('9.29'); // 0.05 + 0.01 minimum fee
    const [{ assignmentId, workerId }] = assignments as [{ assignmentId: string; workerId: string }];
    const bonus = {
      WorkerId: workerId,
      AssignmentId: assignmentId,
      BonusAmount: '1.00',
      Reason: 'passed every check',
      UniqueRequestToken: 'bonus-1',
    };
    await client.send(new SendBonusCommand(bonus));
    expect(await balance()).toBe('8.09');
    await expect(client.send(new SendBonusCommand(bonus))).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.DuplicateRequest',
      message: expect.stringContaining('"bonus-1" has already been processed'),
    });
    expect(await balance()).toBe('8.09');
    await client.send(new SendBonusCommand({ ...bonus, BonusAmount: '0.04', UniqueRequestToken: undefined }));
    expect(await balance()).toBe('8.04'); // 0.04 + 0.01 minimum fee
    const byHit = await client.send(new ListBonusPaymentsCommand({ HITId: hitId }));
    expect(byHit.BonusPayments!.map((b) => b.BonusAmount)).toEqual(['1.00', '0.04']);
    expect(byHit.BonusPayments![0]).toMatchObject({ WorkerId: workerId, AssignmentId: assignmentId, Reason: 'passed every check' });
    expect(byHit.BonusPayments![0]!.GrantTime).toBeInstanceOf(Date);
    const byAssignment = await client.send(new ListBonusPaymentsCommand({ AssignmentId: assignmentId, MaxResults: 1 }));
    expect(byAssignment).toMatchObject({ NumResults: 1, NextToken: expect.any(String) });
    await expect(
      client.send(new SendBonusCommand({ ...bonus, WorkerId: 'AOTHERWORKER', UniqueRequestToken: 'bonus-2' })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
    });
  });

  it('refuses what the balance cannot pay, and pays after a deposit', async () => {
    const client = h.client();
    // 9 x (1.00 + 0.20) = 10.80 > 8.04
    await expect(client.send(new CreateHITCommand(hitParams({ MaxAssignments: 9, Reward: '1.00' })))).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.InsufficientFunds',
    });
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 1, Reward: '5.00' })));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'no' });
    const [{ assignmentId, workerId }] = (await approvedHit(h, { MaxAssignments: 1, Reward: '0.10' })).assignments as [
      { assignmentId: string; workerId: string },
    ];
    await client.send(new SendBonusCommand({ WorkerId: workerId, AssignmentId: assignmentId, BonusAmount: '2.00', Reason: 'r' }));
    expect(await balance()).toBe('5.52'); // 8.04 - 0.12 - 2.40
    await expect(
      client.send(new SendBonusCommand({ WorkerId: workerId, AssignmentId: assignmentId, BonusAmount: '5.00', Reason: 'r' })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.InsufficientFunds',
    });
    await expect(client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.InsufficientFunds',
    });
    expect(await balance()).toBe('5.52');
    const deposit = await fetch(`${h.running.url}/admin/deposits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.running.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '100.00', reference: 'grant-2026' }),
    });
    expect(deposit.status).toBe(201);
    expect(await deposit.json()).toEqual({ availableBalance: '105.52', duplicate: false });
    const again = await fetch(`${h.running.url}/admin/deposits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.running.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '100.00', reference: 'grant-2026' }),
    });
    expect(await again.json()).toEqual({ availableBalance: '105.52', duplicate: true });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    expect(await balance()).toBe('99.52'); // 5.00 + 1.00 fee
    const audit = await fetch(`${h.running.url}/admin/ledger/audit`, { headers: { authorization: `Bearer ${h.running.adminToken}` } });
    expect(await audit.json()).toMatchObject({ storedBalanceCents: 9952, workingBalanceCents: 9952, consistent: true });
  });
});
