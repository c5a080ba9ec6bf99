import {
  ApproveAssignmentCommand,
  CreateHITCommand,
  CreateQualificationTypeCommand,
  GetAssignmentCommand,
  SendBonusCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { hitParams, newWorker, useMarketplace } from './support.js';

const h = useMarketplace();

const FORM = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
  <Question><QuestionIdentifier>label</QuestionIdentifier><QuestionContent><Text>Relevant?</Text></QuestionContent>
    <AnswerSpecification><SelectionAnswer><Selections>
      <Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes</Text></Selection>
      <Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection>
    </Selections></SelectionAnswer></AnswerSpecification></Question>
  <Question><QuestionIdentifier>why</QuestionIdentifier><QuestionContent><Text>Why?</Text></QuestionContent>
    <AnswerSpecification><FreeTextAnswer/></AnswerSpecification></Question>
</QuestionForm>`;

describe('the worker-facing functions', () => {
  it('list the open HITs page by page, oldest first, leaving out full ones until a slot is free again', async () => {
    const client = h.client();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 1 })))).HIT!.HITId!);
    const [busy, me] = [await newWorker(h), await newWorker(h)];
    const taken = [await h.running.workers.acceptHit(busy.workerId, ids[1]!), await h.running.workers.acceptHit(busy.workerId, ids[4]!)];
    const mine = (page: { hitId: string }[]) => page.map((x) => x.hitId).filter((id) => ids.includes(id));
    const open = ids.filter((_, i) => i !== 1 && i !== 4);
    expect(mine(await h.running.workers.listAvailableHits(me.workerId))).toEqual(open);
    const pages: string[][] = [];
    for (let after: string | undefined; ;) {
      const page = await h.running.workers.listAvailableHits(me.workerId, { limit: 2, ...(after !== undefined && { afterHitId: after }) });
      if (page.length === 0) break;
      pages.push(page.map((x) => x.hitId));
      after = page.at(-1)!.hitId;
    }
    expect(pages.every((p) => p.length <= 2)).toBe(true);
    expect(mine(pages.flat().map((hitId) => ({ hitId })))).toEqual(open);
    await h.running.workers.returnAssignment(busy.workerId, taken[0]!.assignmentId);
    expect(mine(await h.running.workers.listAvailableHits(me.workerId))).toEqual(ids.filter((_, i) => i !== 4));
  });

  it('take a worker from finding a HIT to being paid, seeing only their own work', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ Reward: '0.80', MaxAssignments: 2 })));
    const hitId = HIT!.HITId!;
    const [me, other] = [await newWorker(h), await newWorker(h)];
    const anonymous = await h.running.workers.previewHit(undefined, hitId);
    expect(anonymous).toMatchObject({ canPreview: true, canAccept: false, question: { kind: 'HTMLQuestion' }, reward: '0.80' });
    expect((await h.running.workers.listAvailableHits(me.workerId)).map((x) => x.hitId)).toContain(hitId);
    const mine = await h.running.workers.acceptHit(me.workerId, hitId);
    const theirs = await h.running.workers.acceptHit(other.workerId, hitId);
    expect((await h.running.workers.listAvailableHits(me.workerId)).map((x) => x.hitId)).not.toContain(hitId);
    expect((await h.running.workers.previewHit(me.workerId, hitId)).assignment).toMatchObject({
      assignmentId: mine.assignmentId,
      status: 'Accepted',
    });
    await expect(h.running.workers.getAssignment(me.workerId, theirs.assignmentId)).rejects.toMatchObject({
      code: 'AssignmentDoesNotExist',
    });
    await expect(h.running.workers.submitAssignment(me.workerId, theirs.assignmentId, { relevance: 'no' })).rejects.toMatchObject({
      code: 'AssignmentDoesNotExist',
    });
    await h.running.workers.returnAssignment(other.workerId, theirs.assignmentId);
    expect(h.running.workers.listAssignments(other.workerId)).toEqual([]);
    await h.running.workers.submitAssignment(me.workerId, mine.assignmentId, { relevance: 'yes' });
    const detail = await h.running.workers.getAssignment(me.workerId, mine.assignmentId);
    expect(detail).toMatchObject({
      status: 'Submitted',
      title: HIT!.Title,
      answerXml: expect.stringContaining('<FreeText>yes</FreeText>'),
    });
    expect(h.running.workers.earnings(me.workerId)).toEqual({ approvedRewardsCents: 0, bonusesCents: 0, pendingRewardsCents: 80 });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: mine.assignmentId }));
    await client.send(
      new SendBonusCommand({ WorkerId: me.workerId, AssignmentId: mine.assignmentId, BonusAmount: '0.10', Reason: 'good' }),
    );
    expect(h.running.workers.earnings(me.workerId)).toEqual({ approvedRewardsCents: 80, bonusesCents: 10, pendingRewardsCents: 0 });
    expect(h.running.workers.listAssignments(me.workerId, { status: 'Approved' })).toEqual([
      expect.objectContaining({ assignmentId: mine.assignmentId }),
    ]);
  });

  it('gives each slot to exactly one of many workers accepting at once', async () => {
    const { HIT } = await h.client().send(new CreateHITCommand(hitParams({ MaxAssignments: 3 })));
    const crowd = await Promise.all(Array.from({ length: 12 }, () => newWorker(h)));
    const results = await Promise.allSettled(crowd.map((w) => h.running.workers.acceptHit(w.workerId, HIT!.HITId!)));
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(3);
    expect(new Set(won.map((r) => (r as PromiseFulfilledResult<{ assignmentId: string }>).value.assignmentId)).size).toBe(3);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.code === 'HITNotAvailable'),
    ).toBe(true);
  });

  it('records QuestionForm answers with selection identifiers', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ Question: FORM })));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await expect(h.running.workers.submitAssignment(w.workerId, a.assignmentId, { label: 'maybe' })).rejects.toMatchObject({
      code: 'ValidationException',
    });
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { label: 'no', why: 'different scope' });
    const answer = (await client.send(new GetAssignmentCommand({ AssignmentId: a.assignmentId }))).Assignment!.Answer!;
    expect(answer).toContain(
      '<Answer><QuestionIdentifier>label</QuestionIdentifier><SelectionIdentifier>no</SelectionIdentifier></Answer>',
    );
    expect(answer).toContain('<Answer><QuestionIdentifier>why</QuestionIdentifier><FreeText>different scope</FreeText></Answer>');
  });

  it('show a worker their qualifications and what they may request', async () => {
    const client = h.client();
    const w = await newWorker(h, {
      locale: { Country: 'US', Subdivision: 'WA' },
      baseline: { submitted: 300, approved: 291 },
      masters: true,
    });
    const mine = await h.running.workers.listQualifications(w.workerId);
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ qualificationTypeId: '000000000000000000L0', integerValue: 97, system: true }),
        expect.objectContaining({ qualificationTypeId: '00000000000000000071', localeValue: { Country: 'US', Subdivision: 'WA' } }),
        expect.objectContaining({ qualificationTypeId: '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH', integerValue: 1 }),
      ]),
    );
    const once = (
      await client.send(
        new CreateQualificationTypeCommand({ Name: 'One try', Description: 'no retries', QualificationTypeStatus: 'Active' }),
      )
    ).QualificationType!;
    await h.running.workers.requestQualification(w.workerId, once.QualificationTypeId!);
    const listed = (await h.running.workers.listRequestableQualifications(w.workerId)).find(
      (q) => q.qualificationTypeId === once.QualificationTypeId,
    );
    expect(listed).toMatchObject({ pendingRequest: true, nextRequestAt: null, hasTest: false });
    const updated = await h.running.workers.updateProfile(w.workerId, { adult: true });
    expect(updated.profile).toMatchObject({ adult: true, masters: true, locale: { Country: 'US', Subdivision: 'WA' } });
    await expect(h.running.workers.updateProfile(w.workerId, { locale: { Country: 'usa' } })).rejects.toMatchObject({
      code: 'ValidationException',
    });
  });
});
