import {
  CreateHITCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  DeleteHITCommand,
  GetHITCommand,
  ListHITsCommand,
  ListReviewableHITsCommand,
  UpdateExpirationForHITCommand,
  UpdateHITReviewStatusCommand,
  UpdateHITTypeOfHITCommand,
  ListAssignmentsForHITCommand,
  ApproveAssignmentCommand,
  GetFileUploadURLCommand,
  ListReviewPolicyResultsForHITCommand,
  paginateListHITs,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { advance, hitParams, htmlQuestion, newWorker, useMarketplace } from './support.js';

const h = useMarketplace();

describe('HITs through the AWS SDK', () => {
  it('creates, reads and lists a HIT with MTurk shapes', async () => {
    const client = h.client();
    const created = await client.send(new CreateHITCommand({ ...hitParams(), Keywords: 'relevance, ir', RequesterAnnotation: 'batch-1' }));
    const hit = created.HIT!;
    expect(hit.HITId).toMatch(/^[A-Z0-9]{30}$/);
    expect(hit).toMatchObject({
      HITStatus: 'Assignable',
      MaxAssignments: 3,
      Reward: '0.50',
      Keywords: 'relevance, ir',
      RequesterAnnotation: 'batch-1',
      NumberOfAssignmentsAvailable: 3,
      NumberOfAssignmentsPending: 0,
      NumberOfAssignmentsCompleted: 0,
      HITReviewStatus: 'NotReviewed',
      AssignmentDurationInSeconds: 600,
      AutoApprovalDelayInSeconds: 3600,
    });
    expect(hit.CreationTime).toBeInstanceOf(Date);
    expect(hit.Expiration!.getTime() - hit.CreationTime!.getTime()).toBe(86_400_000);
    const got = await client.send(new GetHITCommand({ HITId: hit.HITId }));
    expect(got.HIT).toMatchObject({ HITId: hit.HITId, Question: htmlQuestion(), HITTypeId: hit.HITTypeId });
    const listed = await client.send(new ListHITsCommand({}));
    expect(listed.HITs!.map((x) => x.HITId)).toContain(hit.HITId);
  });

  it('gives the same HIT type id for the same properties', async () => {
    const client = h.client();
    const props = { Title: 'T', Description: 'D', Reward: '0.10', AssignmentDurationInSeconds: 300 };
    const a = await client.send(new CreateHITTypeCommand(props));
    const b = await client.send(new CreateHITTypeCommand(props));
    const c = await client.send(new CreateHITTypeCommand({ ...props, Reward: '0.11' }));
    expect(a.HITTypeId).toBe(b.HITTypeId);
    expect(c.HITTypeId).not.toBe(a.HITTypeId);
    const hit = await client.send(
      new CreateHITWithHITTypeCommand({ HITTypeId: a.HITTypeId, LifetimeInSeconds: 600, Question: htmlQuestion() }),
    );
    expect(hit.HIT).toMatchObject({ HITTypeId: a.HITTypeId, Title: 'T', Reward: '0.10', MaxAssignments: 1 });
    await client.send(new UpdateHITTypeOfHITCommand({ HITId: hit.HIT!.HITId, HITTypeId: c.HITTypeId }));
    expect((await client.send(new GetHITCommand({ HITId: hit.HIT!.HITId }))).HIT).toMatchObject({ HITTypeId: c.HITTypeId, Reward: '0.11' });
  });

  it('goes through its lifecycle: expire at once, reviewable, reviewing, deleted', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ MaxAssignments: 2 })));
    const id = HIT!.HITId!;
    const worker = await newWorker(h);
    const accepted = await h.running.workers.acceptHit(worker.workerId, id);
    await client.send(new UpdateExpirationForHITCommand({ HITId: id, ExpireAt: new Date(0) }));
    let got = (await client.send(new GetHITCommand({ HITId: id }))).HIT!;
    expect(got.HITStatus).toBe('Unassignable');
    expect(got.NumberOfAssignmentsPending).toBe(1);
    await expect(client.send(new DeleteHITCommand({ HITId: id }))).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidHITState',
    });
    // accepted work may still be submitted after expiry
    await h.running.workers.submitAssignment(worker.workerId, accepted.assignmentId, { relevance: 'yes' });
    got = (await client.send(new GetHITCommand({ HITId: id }))).HIT!;
    expect(got.HITStatus).toBe('Reviewable');
    const reviewable = await client.send(new ListReviewableHITsCommand({ MaxResults: 100 }));
    expect(reviewable.HITs!.map((x) => x.HITId)).toContain(id);
    await client.send(new UpdateHITReviewStatusCommand({ HITId: id }));
    expect((await client.send(new GetHITCommand({ HITId: id }))).HIT!.HITStatus).toBe('Reviewing');
    const reviewing = await client.send(new ListReviewableHITsCommand({ Status: 'Reviewing' }));
    expect(reviewing.HITs!.map((x) => x.HITId)).toEqual([id]);
    await expect(client.send(new DeleteHITCommand({ HITId: id }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.InvalidHITState',
    });
    const [a] = (await client.send(new ListAssignmentsForHITCommand({ HITId: id }))).Assignments!;
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a!.AssignmentId }));
    await client.send(new DeleteHITCommand({ HITId: id }));
    await client.send(new DeleteHITCommand({ HITId: id }));
    expect((await client.send(new GetHITCommand({ HITId: id }))).HIT!.HITStatus).toBe('Disposed');
    const all = [];
    for await (const page of paginateListHITs({ client, pageSize: 100 }, {})) all.push(...page.HITs!);
    expect(all.map((x) => x.HITId)).not.toContain(id);
  });

  it('expires with the clock and becomes reviewable', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ LifetimeInSeconds: 120 })));
    await advance(h, 121);
    expect((await client.send(new GetHITCommand({ HITId: HIT!.HITId }))).HIT!.HITStatus).toBe('Reviewable');
  });

  it('answers a repeated UniqueRequestToken with its HIT for 24 hours, then makes a new HIT with it', async () => {
    const client = h.client();
    const first = (await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'token-window' })))).HIT!.HITId!;
    const retry = client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'token-window' })));
    await expect(retry).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.HitAlreadyExists',
      message: expect.stringContaining(first),
    });
    await advance(h, 24 * 3600 + 1);
    const second = (await client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'token-window' })))).HIT!.HITId!;
    expect(second).not.toBe(first);
    // the token now names the newer HIT
    const again = client.send(new CreateHITCommand(hitParams({ UniqueRequestToken: 'token-window' })));
    await expect(again).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.HitAlreadyExists',
      message: expect.stringContaining(second),
    });
  });

  it('pages ListHITs stably while HITs are created', async () => {
    const client = h.client();
    for (let i = 0; i < 5; i++) await client.send(new CreateHITCommand(hitParams({ RequesterAnnotation: `page-${i}` })));
    const first = await client.send(new ListHITsCommand({ MaxResults: 3 }));
    expect(first).toMatchObject({ NumResults: 3, NextToken: expect.any(String) });
    const inserted = await client.send(new CreateHITCommand(hitParams({ RequesterAnnotation: 'inserted' })));
    const rest = [];
    let token = first.NextToken;
    while (token) {
      const page = await client.send(new ListHITsCommand({ MaxResults: 3, NextToken: token }));
      rest.push(...page.HITs!);
      token = page.NextToken;
    }
    const ids = [...first.HITs!, ...rest].map((x) => x.HITId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[ids.length - 1]).toBe(inserted.HIT!.HITId);
    expect(ids.length).toBe((await client.send(new ListHITsCommand({ MaxResults: 100 }))).NumResults);
  });

  it('says plainly what it does not run: review policies, layouts, file uploads', async () => {
    const client = h.client();
    const policy = { PolicyName: 'ScoreMyKnownAnswers/2011-09-01', Parameters: [] };
    await expect(client.send(new CreateHITCommand(hitParams({ AssignmentReviewPolicy: policy })))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.UnsupportedFeature',
      message: expect.stringMatching(/^AssignmentReviewPolicy: review policies are not run by this marketplace/),
    });
    await expect(client.send(new CreateHITCommand(hitParams({ Question: undefined, HITLayoutId: 'LAYOUT1' })))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.HITLayoutDoesNotExist',
    });
    const { HIT } = await client.send(new CreateHITCommand(hitParams()));
    expect(await client.send(new ListReviewPolicyResultsForHITCommand({ HITId: HIT!.HITId }))).toMatchObject({ HITId: HIT!.HITId });
    const worker = await newWorker(h);
    const a = await h.running.workers.acceptHit(worker.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(worker.workerId, a.assignmentId, { relevance: 'yes' });
    await expect(
      client.send(new GetFileUploadURLCommand({ AssignmentId: a.assignmentId, QuestionIdentifier: 'relevance' })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.UnsupportedFeature',
    });
  });

  it('answers unknown HITs like MTurk', async () => {
    await expect(h.client().send(new GetHITCommand({ HITId: 'NOSUCHHIT' }))).rejects.toMatchObject({
      name: 'RequestError',
      TurkErrorCode: 'AWS.MechanicalTurk.HITDoesNotExist',
      message: expect.stringMatching(/^Hit NOSUCHHIT does not exist\. \(\d{13}\)$/),
      $metadata: { httpStatusCode: 400 },
    });
  });
});
