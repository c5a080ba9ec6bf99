import {
  ApproveAssignmentCommand,
  CreateHITCommand,
  GetAccountBalanceCommand,
  GetAssignmentCommand,
  GetHITCommand,
  SendBonusCommand,
  UpdateNotificationSettingsCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { marketplaceDb, startMarketplace } from '@qrelay/marketplace';
import { hitParams, newWorker, useMarketplace } from './support.js';

const h = useMarketplace();

describe('state across restarts', () => {
  it('refuses a second marketplace process on the same database', async () => {
    await expect(
      startMarketplace({
        config: loadConfig(process.env),
        logger: createLogger('silent'),
        connection: h.db.connection,
        port: 0,
        host: '127.0.0.1',
      }),
    ).rejects.toThrow(/another marketplace process .* is serving the database/);
  });

  it('keeps HITs, assignments, answers, money, tokens, the clock and pending notifications', async () => {
    let client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'restart-hit-1', MaxAssignments: 2 })));
    const hitId = HIT!.HITId!;
    await client.send(
      new UpdateNotificationSettingsCommand({
        HITTypeId: HIT!.HITTypeId,
        // nothing listens on port 9 here: the messages stay pending
        Notification: {
          Destination: 'http://127.0.0.1:9/events',
          Transport: 'SQS',
          Version: '2014-08-15',
          EventTypes: ['AssignmentSubmitted'],
        },
      }),
    );
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, hitId);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes', why: 'stated directly' });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    await client.send(
      new SendBonusCommand({
        WorkerId: w.workerId,
        AssignmentId: a.assignmentId,
        BonusAmount: '0.25',
        Reason: 'thanks',
        UniqueRequestToken: 'restart-bonus',
      }),
    );
    h.running.marketplace.clock.advance(3 * 3_600_000); // within the 24 h of the tokens
    const w2 = await newWorker(h);
    const inProgress = await h.running.workers.acceptHit(w2.workerId, hitId);
    const simBefore = h.running.marketplace.clock.nowMs();
    const before = {
      hit: (await client.send(new GetHITCommand({ HITId: hitId }))).HIT,
      assignment: (await client.send(new GetAssignmentCommand({ AssignmentId: a.assignmentId }))).Assignment,
      balance: (await client.send(new GetAccountBalanceCommand({}))).AvailableBalance,
    };
    // the background loop hands the HIT's events to the outbox (its delivery fails: they stay pending)
    await h.running.loops.tick();
    expect(h.running.marketplace.outbox.pendingCount).toBeGreaterThan(0);

    await h.stop();
    await h.start();
    client = h.client();
    expect(h.running.marketplace.clock.nowMs()).toBeGreaterThanOrEqual(simBefore);
    expect(h.running.marketplace.clock.nowMs() - simBefore).toBeLessThan(60_000);
    expect(h.running.marketplace.outbox.pendingCount).toBeGreaterThan(0);
    expect((await client.send(new GetAssignmentCommand({ AssignmentId: a.assignmentId }))).Assignment).toEqual(before.assignment);
    expect((await client.send(new GetAccountBalanceCommand({}))).AvailableBalance).toBe(before.balance);
    const hit = (await client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect({ ...hit, HITStatus: undefined }).toEqual({ ...before.hit, HITStatus: undefined });
    await expect(
      client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'restart-hit-1', MaxAssignments: 2 }))),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.HitAlreadyExists',
      message: expect.stringContaining(hitId),
    });
    await expect(
      client.send(
        new SendBonusCommand({
          WorkerId: w.workerId,
          AssignmentId: a.assignmentId,
          BonusAmount: '0.25',
          Reason: 'thanks',
          UniqueRequestToken: 'restart-bonus',
        }),
      ),
    ).rejects.toMatchObject({ TurkErrorCode: 'AWS.MechanicalTurk.DuplicateRequest' });
    // the worker's work in progress survived too
    expect(h.running.workers.listAssignments(w2.workerId)).toEqual([
      expect.objectContaining({ assignmentId: inProgress.assignmentId, status: 'Accepted' }),
    ]);
  });

  it('finishes an approval whose payment was written just before a crash', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 1, Reward: '1.00' })));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'no' });
    const balance = h.running.marketplace.ledger.balanceCents();
    await h.stop();
    // the crash: the ledger entry of the approval is written, the assignment is still Submitted
    const { ledger } = h.running.marketplace.models;
    expect(ledger.db.name).toBe(marketplaceDb(h.db.connection).name);
    await ledger.create({
      _id: `approval:${a.assignmentId}`,
      kind: 'approval',
      amountCents: -120,
      rewardCents: 100,
      feeCents: 20,
      at: new Date(),
      hitId: HIT!.HITId!,
      assignmentId: a.assignmentId,
      workerId: w.workerId,
    });
    await h.start();
    const c2 = h.client();
    expect((await c2.send(new GetAssignmentCommand({ AssignmentId: a.assignmentId }))).Assignment!.AssignmentStatus).toBe('Approved');
    expect(h.running.marketplace.ledger.balanceCents()).toBe(balance - 120);
    // the client's retry of the approval pays nothing more
    await expect(c2.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidAssignmentState',
    });
    expect(h.running.marketplace.ledger.balanceCents()).toBe(balance - 120);
    expect(await h.running.marketplace.ledger.audit()).toMatchObject({
      storedBalanceCents: balance - 120,
      workingBalanceCents: balance - 120,
    });
  });
});
