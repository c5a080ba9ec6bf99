import {
  ApproveAssignmentCommand,
  CreateAdditionalAssignmentsForHITCommand,
  CreateHITCommand,
  GetAssignmentCommand,
  GetHITCommand,
  ListAssignmentsForHITCommand,
  RejectAssignmentCommand,
  paginateListAssignmentsForHIT,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { advance, hitParams, newWorker, useMarketplace, type MarketplaceHarness } from './support.js';

const h = useMarketplace();

async function submitted(harness: MarketplaceHarness, hitId: string, answers: Record<string, string | string[]> = { relevance: 'yes' }) {
  const worker = await newWorker(harness);
  const a = await harness.running.workers.acceptHit(worker.workerId, hitId);
  await harness.running.workers.submitAssignment(worker.workerId, a.assignmentId, answers);
  return { worker, assignmentId: a.assignmentId };
}

describe('assignments through the AWS SDK', () => {
  it('lists and gets submitted work with the answers as MTurk returns them', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams()));
    const { worker, assignmentId } = await submitted(h, HIT!.HITId!, {
      assignmentId: 'ignored',
      relevance: 'no',
      note: 'a < b & c',
      tags: ['x', 'y'],
    });
    const other = await newWorker(h);
    await h.running.workers.acceptHit(other.workerId, HIT!.HITId!); // in progress: invisible to the requester
    const list = await client.send(new ListAssignmentsForHITCommand({ HITId: HIT!.HITId }));
    expect(list.NumResults).toBe(1);
    const a = list.Assignments![0]!;
    expect(a).toMatchObject({ AssignmentId: assignmentId, WorkerId: worker.workerId, HITId: HIT!.HITId, AssignmentStatus: 'Submitted' });
    expect(a.Answer).toBe(
      '<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd">' +
        '<Answer><QuestionIdentifier>relevance</QuestionIdentifier><FreeText>no</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>note</QuestionIdentifier><FreeText>a &lt; b &amp; c</FreeText></Answer>' +
        '<Answer><QuestionIdentifier>tags</QuestionIdentifier><FreeText>x|y</FreeText></Answer></QuestionFormAnswers>',
    );
    expect(a.AutoApprovalTime!.getTime() - a.SubmitTime!.getTime()).toBe(3_600_000);
    expect(a.Deadline!.getTime() - a.AcceptTime!.getTime()).toBe(600_000);
    const got = await client.send(new GetAssignmentCommand({ AssignmentId: assignmentId }));
    expect(got.Assignment).toEqual(a);
    expect(got.HIT).toMatchObject({ HITId: HIT!.HITId, NumberOfAssignmentsPending: 1, NumberOfAssignmentsAvailable: 1 });
    await expect(client.send(new GetAssignmentCommand({ AssignmentId: `${HIT!.HITId}000009` }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.AssignmentDoesNotExist',
    });
  });

  it('approves, rejects, filters by status, and overrides a rejection', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams()));
    const hitId = HIT!.HITId!;
    const one = await submitted(h, hitId);
    const two = await submitted(h, hitId);
    const three = await submitted(h, hitId);
    await client.send(new ApproveAssignmentCommand({ AssignmentId: one.assignmentId, RequesterFeedback: 'thank you' }));
    await client.send(new RejectAssignmentCommand({ AssignmentId: two.assignmentId, RequesterFeedback: 'failed the attention checks' }));
    // a repeated approve changes nothing and pays nothing
    const balance = h.running.marketplace.ledger.balanceCents();
    await expect(client.send(new ApproveAssignmentCommand({ AssignmentId: one.assignmentId }))).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidAssignmentState',
      message: expect.stringMatching(/^This operation can be called with a status of: Submitted/),
    });
    expect(h.running.marketplace.ledger.balanceCents()).toBe(balance);
    const byStatus = async (...s: ('Submitted' | 'Approved' | 'Rejected')[]) =>
      (await client.send(new ListAssignmentsForHITCommand({ HITId: hitId, AssignmentStatuses: s })))
        .Assignments!.map((a) => a.AssignmentId)
        .sort();
    expect(await byStatus('Approved')).toEqual([one.assignmentId]);
    expect(await byStatus('Rejected')).toEqual([two.assignmentId]);
    expect(await byStatus('Approved', 'Rejected')).toEqual([one.assignmentId, two.assignmentId].sort());
    expect(await byStatus('Submitted')).toEqual([three.assignmentId]);
    const hit = (await client.send(new GetHITCommand({ HITId: hitId }))).HIT!;
    expect(hit).toMatchObject({ HITStatus: 'Reviewable', NumberOfAssignmentsCompleted: 2 });
    await expect(client.send(new ApproveAssignmentCommand({ AssignmentId: two.assignmentId }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidAssignmentState',
    });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: two.assignmentId, OverrideRejection: true }));
    const overridden = (await client.send(new GetAssignmentCommand({ AssignmentId: two.assignmentId }))).Assignment!;
    expect(overridden.AssignmentStatus).toBe('Approved');
    expect(overridden.RejectionTime).toBeUndefined();
    const rejected = (await client.send(new GetAssignmentCommand({ AssignmentId: one.assignmentId }))).Assignment!;
    expect(rejected.RequesterFeedback).toBe('thank you');
  });

  it('pages through assignments with NextToken and MaxResults', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 12 })));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await submitted(h, HIT!.HITId!)).assignmentId);
    const first = await client.send(new ListAssignmentsForHITCommand({ HITId: HIT!.HITId, MaxResults: 5 }));
    expect(first.NumResults).toBe(5);
    expect(first.NextToken).toBeDefined();
    const seen: string[] = [];
    for await (const page of paginateListAssignmentsForHIT({ client, pageSize: 5 }, { HITId: HIT!.HITId })) {
      expect(page.Assignments!.length).toBeLessThanOrEqual(5);
      seen.push(...page.Assignments!.map((a) => a.AssignmentId!));
    }
    expect(seen).toEqual(ids.sort());
    const other = await client.send(new CreateHITCommand(hitParams()));
    await expect(
      client.send(new ListAssignmentsForHITCommand({ HITId: other.HIT!.HITId, NextToken: first.NextToken })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
      message: expect.stringMatching(/^NextToken: this token belongs to another request/),
    });
  });

  it('follows the 10-assignment rule and extends once per token', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 3 })));
    await expect(
      client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: HIT!.HITId, NumberOfAdditionalAssignments: 7 })),
    ).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidMaximumAssignmentsIncrease',
    });
    await client.send(
      new CreateAdditionalAssignmentsForHITCommand({ HITId: HIT!.HITId, NumberOfAdditionalAssignments: 6, UniqueRequestToken: 'extend-1' }),
    );
    await expect(
      client.send(
        new CreateAdditionalAssignmentsForHITCommand({
          HITId: HIT!.HITId,
          NumberOfAdditionalAssignments: 6,
          UniqueRequestToken: 'extend-1',
        }),
      ),
    ).rejects.toMatchObject({ TurkErrorCode: 'AWS.MechanicalTurk.DuplicateRequest' });
    expect((await client.send(new GetHITCommand({ HITId: HIT!.HITId }))).HIT!.MaxAssignments).toBe(9);
    const big = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 10 })));
    await client.send(new CreateAdditionalAssignmentsForHITCommand({ HITId: big.HIT!.HITId, NumberOfAdditionalAssignments: 5 }));
    expect((await client.send(new GetHITCommand({ HITId: big.HIT!.HITId }))).HIT!.MaxAssignments).toBe(15);
  });

  it('auto-approves at SubmitTime + AutoApprovalDelay on a sped-up clock', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ AutoApprovalDelayInSeconds: 7200 })));
    const { assignmentId } = await submitted(h, HIT!.HITId!);
    await advance(h, 7100);
    expect((await client.send(new GetAssignmentCommand({ AssignmentId: assignmentId }))).Assignment!.AssignmentStatus).toBe('Submitted');
    // an hour of marketplace time per real second: the loop finds it due within about a tick
    h.running.marketplace.clock.setSpeed(3600);
    try {
      await new Promise((r) => setTimeout(r, 150));
      await h.running.loops.tick();
    } finally {
      h.running.marketplace.clock.setSpeed(1);
    }
    const a = (await client.send(new GetAssignmentCommand({ AssignmentId: assignmentId }))).Assignment!;
    expect(a.AssignmentStatus).toBe('Approved');
    expect(a.ApprovalTime!.getTime()).toBeGreaterThanOrEqual(a.AutoApprovalTime!.getTime());
    expect(h.running.marketplace.ledger.get(`approval:${assignmentId}`)).toMatchObject({ rewardCents: 50, feeCents: 10 });
  });

  it('returns the slot of work not submitted by its deadline', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 1 })));
    const worker = await newWorker(h);
    const a = await h.running.workers.acceptHit(worker.workerId, HIT!.HITId!);
    expect((await client.send(new GetHITCommand({ HITId: HIT!.HITId }))).HIT!.HITStatus).toBe('Unassignable');
    await advance(h, 601);
    expect((await client.send(new GetHITCommand({ HITId: HIT!.HITId }))).HIT).toMatchObject({
      HITStatus: 'Assignable',
      NumberOfAssignmentsAvailable: 1,
      NumberOfAssignmentsPending: 0,
    });
    await expect(h.running.workers.submitAssignment(worker.workerId, a.assignmentId, { relevance: 'yes' })).rejects.toMatchObject({
      code: 'AssignmentDoesNotExist',
    });
  });
});
