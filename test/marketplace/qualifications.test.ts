import {
  AcceptQualificationRequestCommand,
  AssociateQualificationWithWorkerCommand,
  CreateHITCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  CreateQualificationTypeCommand,
  CreateWorkerBlockCommand,
  DeleteQualificationTypeCommand,
  DeleteWorkerBlockCommand,
  DisassociateQualificationFromWorkerCommand,
  GetQualificationScoreCommand,
  GetQualificationTypeCommand,
  ListHITsForQualificationTypeCommand,
  ListQualificationRequestsCommand,
  ListQualificationTypesCommand,
  ListWorkerBlocksCommand,
  ListWorkersWithQualificationTypeCommand,
  RejectQualificationRequestCommand,
  UpdateQualificationTypeCommand,
  type QualificationRequirement,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { hitParams, newWorker, useMarketplace } from './support.js';

const h = useMarketplace();

const TEST = `<QuestionForm xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2017-11-06/QuestionForm.xsd">
  <Question><QuestionIdentifier>q1</QuestionIdentifier><QuestionContent><Text>Does "Paris is the capital of France" answer "capital of France"?</Text></QuestionContent>
    <AnswerSpecification><SelectionAnswer><Selections>
      <Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes</Text></Selection>
      <Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection>
    </Selections></SelectionAnswer></AnswerSpecification></Question>
  <Question><QuestionIdentifier>q2</QuestionIdentifier><QuestionContent><Text>Does "Lyon is in France" answer "capital of France"?</Text></QuestionContent>
    <AnswerSpecification><SelectionAnswer><Selections>
      <Selection><SelectionIdentifier>yes</SelectionIdentifier><Text>Yes</Text></Selection>
      <Selection><SelectionIdentifier>no</SelectionIdentifier><Text>No</Text></Selection>
    </Selections></SelectionAnswer></AnswerSpecification></Question>
</QuestionForm>`;
const KEY = `<AnswerKey xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/AnswerKey.xsd">
  <Question><QuestionIdentifier>q1</QuestionIdentifier><AnswerOption><SelectionIdentifier>yes</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>
  <Question><QuestionIdentifier>q2</QuestionIdentifier><AnswerOption><SelectionIdentifier>no</SelectionIdentifier><AnswerScore>1</AnswerScore></AnswerOption></Question>
  <QualificationValueMapping><PercentageMapping><MaximumSummedScore>2</MaximumSummedScore></PercentageMapping></QualificationValueMapping>
</AnswerKey>`;

describe('qualification types and tests', () => {
  it('creates a tested type, scores a worker with the AnswerKey, and enforces the retry delay', async () => {
    const client = h.client();
    const { QualificationType: type } = await client.send(
      new CreateQualificationTypeCommand({
        Name: 'Relevance exam',
        Description: 'English and task exam',
        Keywords: 'exam, relevance',
        QualificationTypeStatus: 'Active',
        Test: TEST,
        AnswerKey: KEY,
        TestDurationInSeconds: 900,
        RetryDelayInSeconds: 3600,
      }),
    );
    expect(type).toMatchObject({
      Name: 'Relevance exam',
      QualificationTypeStatus: 'Active',
      IsRequestable: true,
      AutoGranted: false,
      Test: TEST,
      AnswerKey: KEY,
      TestDurationInSeconds: 900,
    });
    const id = type!.QualificationTypeId!;
    expect((await client.send(new GetQualificationTypeCommand({ QualificationTypeId: id }))).QualificationType).toEqual(type);
    await expect(
      client.send(new CreateQualificationTypeCommand({ Name: 'relevance EXAM', Description: 'd', QualificationTypeStatus: 'Active' })),
    ).rejects.toMatchObject({ TurkErrorCode: 'AWS.MechanicalTurk.QualificationTypeAlreadyExists' });

    const w = await newWorker(h);
    const started = await h.running.workers.requestQualification(w.workerId, id);
    expect(started).toMatchObject({ status: 'test', test: { questions: [{ id: 'q1' }, { id: 'q2' }] } });
    const half = await h.running.workers.submitQualificationTest(w.workerId, id, { q1: 'yes', q2: 'yes' });
    expect(half).toMatchObject({ status: 'granted', value: 50 });
    expect(
      (await client.send(new GetQualificationScoreCommand({ QualificationTypeId: id, WorkerId: w.workerId }))).Qualification,
    ).toMatchObject({
      IntegerValue: 50,
      Status: 'Granted',
      WorkerId: w.workerId,
    });
    await expect(h.running.workers.requestQualification(w.workerId, id)).rejects.toMatchObject({ code: 'QualificationRetryNotAllowed' });
    h.running.marketplace.clock.advance(3600_000);
    await h.running.workers.requestQualification(w.workerId, id);
    expect(await h.running.workers.submitQualificationTest(w.workerId, id, { q1: 'yes', q2: 'no' })).toMatchObject({
      status: 'granted',
      value: 100,
    });
    const listed = await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: id }));
    expect(listed.Qualifications).toEqual([expect.objectContaining({ WorkerId: w.workerId, IntegerValue: 100 })]);
  });

  it('grants AutoGranted types at once and leaves others to the requester', async () => {
    const client = h.client();
    const auto = (
      await client.send(
        new CreateQualificationTypeCommand({
          Name: 'Consent',
          Description: 'I agree',
          QualificationTypeStatus: 'Active',
          AutoGranted: true,
          AutoGrantedValue: 7,
        }),
      )
    ).QualificationType!;
    const manual = (
      await client.send(
        new CreateQualificationTypeCommand({
          Name: 'Vetted',
          Description: 'approved by the lab',
          QualificationTypeStatus: 'Active',
          RetryDelayInSeconds: 0,
        }),
      )
    ).QualificationType!;
    const [a, b] = [await newWorker(h), await newWorker(h)];
    expect(await h.running.workers.requestQualification(a.workerId, auto.QualificationTypeId!)).toEqual({ status: 'granted', value: 7 });
    const pa = await h.running.workers.requestQualification(a.workerId, manual.QualificationTypeId!);
    const pb = await h.running.workers.requestQualification(b.workerId, manual.QualificationTypeId!);
    expect(pa.status).toBe('pending');
    const requests = await client.send(new ListQualificationRequestsCommand({ QualificationTypeId: manual.QualificationTypeId }));
    expect(requests.QualificationRequests!.map((r) => r.WorkerId).sort()).toEqual([a.workerId, b.workerId].sort());
    await client.send(
      new AcceptQualificationRequestCommand({ QualificationRequestId: (pa as { requestId: string }).requestId, IntegerValue: 3 }),
    );
    await client.send(
      new RejectQualificationRequestCommand({
        QualificationRequestId: (pb as { requestId: string }).requestId,
        Reason: 'not a lab member',
      }),
    );
    expect((await client.send(new ListQualificationRequestsCommand({ QualificationTypeId: manual.QualificationTypeId }))).NumResults).toBe(
      0,
    );
    expect(
      (await client.send(new GetQualificationScoreCommand({ QualificationTypeId: manual.QualificationTypeId, WorkerId: a.workerId })))
        .Qualification!.IntegerValue,
    ).toBe(3);
    await expect(
      client.send(new GetQualificationScoreCommand({ QualificationTypeId: manual.QualificationTypeId, WorkerId: b.workerId })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.QualificationDoesNotExist',
    });
    expect((await h.running.workers.listMessages(b.workerId))[0]).toMatchObject({ text: 'not a lab member' });
  });

  it('assigns, revokes, lists, updates and deletes', async () => {
    const client = h.client();
    const type = (
      await client.send(
        new CreateQualificationTypeCommand({ Name: 'Gold annotator', Description: 'precise', QualificationTypeStatus: 'Active' }),
      )
    ).QualificationType!;
    const id = type.QualificationTypeId!;
    const w = await newWorker(h);
    await client.send(
      new AssociateQualificationWithWorkerCommand({
        QualificationTypeId: id,
        WorkerId: w.workerId,
        IntegerValue: 95,
        SendNotification: true,
      }),
    );
    expect((await h.running.workers.listMessages(w.workerId))[0]!.subject).toBe('Qualification granted: Gold annotator');
    await client.send(new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: id, WorkerId: w.workerId, Reason: 'audit' }));
    expect(
      (await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: id, Status: 'Revoked' }))).Qualifications,
    ).toHaveLength(1);
    expect(
      (await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: id, Status: 'Granted' }))).Qualifications,
    ).toHaveLength(0);
    await expect(
      client.send(new AssociateQualificationWithWorkerCommand({ QualificationTypeId: id, WorkerId: 'ANOBODY' })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.WorkerDoesNotExist',
    });
    const updated = await client.send(
      new UpdateQualificationTypeCommand({ QualificationTypeId: id, Description: 'very precise', QualificationTypeStatus: 'Inactive' }),
    );
    expect(updated.QualificationType).toMatchObject({
      Description: 'very precise',
      QualificationTypeStatus: 'Inactive',
      Name: 'Gold annotator',
    });
    await expect(
      client.send(new CreateHITCommand(hitParams({ QualificationRequirements: [{ QualificationTypeId: id, Comparator: 'Exists' }] }))),
    ).rejects.toMatchObject({ message: expect.stringMatching(/^QualificationRequirements\.0\.QualificationTypeId: .* is Inactive/) });
    const mine = await client.send(
      new ListQualificationTypesCommand({ MustBeRequestable: false, MustBeOwnedByCaller: true, Query: 'gold' }),
    );
    expect(mine.QualificationTypes!.map((q) => q.QualificationTypeId)).toEqual([id]);
    const requestable = await client.send(new ListQualificationTypesCommand({ MustBeRequestable: true, MaxResults: 100 }));
    expect(requestable.QualificationTypes!.map((q) => q.QualificationTypeId)).not.toContain(id);
    const withSystem = await client.send(new ListQualificationTypesCommand({ MustBeRequestable: false, Query: 'Locale' }));
    expect(withSystem.QualificationTypes!.map((q) => q.QualificationTypeId)).toEqual(['00000000000000000071']);
    await client.send(new UpdateQualificationTypeCommand({ QualificationTypeId: id, QualificationTypeStatus: 'Active' }));
    const hitType = await client.send(
      new CreateHITTypeCommand({
        Title: 'x',
        Description: 'y',
        Reward: '0.10',
        AssignmentDurationInSeconds: 60,
        QualificationRequirements: [{ QualificationTypeId: id, Comparator: 'Exists' }],
      }),
    );
    await client.send(new DeleteQualificationTypeCommand({ QualificationTypeId: id }));
    await expect(client.send(new GetQualificationTypeCommand({ QualificationTypeId: id }))).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.QualificationTypeDoesNotExist',
    });
    await expect(
      client.send(new CreateHITWithHITTypeCommand({ HITTypeId: hitType.HITTypeId, LifetimeInSeconds: 60, Question: hitParams().Question })),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.HITTypeDoesNotExist',
    });
    // the name is free again
    await client.send(
      new CreateQualificationTypeCommand({ Name: 'Gold annotator', Description: 'again', QualificationTypeStatus: 'Active' }),
    );
  });
});

describe('qualification requirements, per worker', () => {
  it('enforces system and custom qualifications, with ActionsGuarded', async () => {
    const client = h.client();
    const exam = (
      await client.send(new CreateQualificationTypeCommand({ Name: 'DREAM exam', Description: 'score', QualificationTypeStatus: 'Active' }))
    ).QualificationType!;
    const requirements: QualificationRequirement[] = [
      { QualificationTypeId: '000000000000000000L0', Comparator: 'GreaterThan', IntegerValues: [90] },
      { QualificationTypeId: '00000000000000000040', Comparator: 'GreaterThanOrEqualTo', IntegerValues: [500] },
      {
        QualificationTypeId: '00000000000000000071',
        Comparator: 'In',
        LocaleValues: [{ Country: 'US' }, { Country: 'GB' }],
        ActionsGuarded: 'DiscoverPreviewAndAccept',
      },
      { QualificationTypeId: exam.QualificationTypeId!, Comparator: 'GreaterThanOrEqualTo', IntegerValues: [90], ActionsGuarded: 'Accept' },
    ];
    const { HIT } = await client.send(new CreateHITCommand(hitParams({ QualificationRequirements: requirements })));
    const hitId = HIT!.HITId!;
    expect(
      (await client.send(new ListHITsForQualificationTypeCommand({ QualificationTypeId: exam.QualificationTypeId }))).HITs!.map(
        (x) => x.HITId,
      ),
    ).toEqual([hitId]);

    const experienced = { baseline: { submitted: 1000, approved: 950 }, locale: { Country: 'US' } };
    const good = await newWorker(h, experienced);
    const novice = await newWorker(h, { locale: { Country: 'US' } });
    const abroad = await newWorker(h, { ...experienced, locale: { Country: 'IN' } });
    const sloppy = await newWorker(h, { baseline: { submitted: 1000, approved: 800 }, locale: { Country: 'GB' } });
    for (const w of [good, novice, abroad, sloppy]) {
      await client.send(
        new AssociateQualificationWithWorkerCommand({
          QualificationTypeId: exam.QualificationTypeId,
          WorkerId: w.workerId,
          IntegerValue: 95,
          SendNotification: false,
        }),
      );
    }
    const visible = async (workerId: string) => (await h.running.workers.listAvailableHits(workerId)).map((x) => x.hitId);
    expect(await visible(abroad.workerId)).not.toContain(hitId); // DiscoverPreviewAndAccept hides it
    await expect(h.running.workers.previewHit(abroad.workerId, hitId)).rejects.toMatchObject({ code: 'HITNotAvailable' });
    expect(await visible(novice.workerId)).toContain(hitId); // Accept-guarded requirements leave it visible
    const preview = await h.running.workers.previewHit(novice.workerId, hitId);
    expect(preview).toMatchObject({ canPreview: true, canAccept: false, question: { kind: 'HTMLQuestion' } });
    expect(preview.unmetRequirements.map((r) => r.name)).toEqual(['Worker_NumberHITsApproved']); // 0 approved; approval rate counts as 100 below 100 submissions
    await expect(h.running.workers.acceptHit(novice.workerId, hitId)).rejects.toMatchObject({ code: 'QualificationRequirementsNotMet' });
    await expect(h.running.workers.acceptHit(sloppy.workerId, hitId)).rejects.toMatchObject({ code: 'QualificationRequirementsNotMet' });
    const accepted = await h.running.workers.acceptHit(good.workerId, hitId);
    expect(accepted.status).toBe('Accepted');
    await expect(h.running.workers.acceptHit(good.workerId, hitId)).rejects.toMatchObject({ code: 'AlreadyWorkedOn' });
    // an exam score below 90 fails the custom requirement
    const low = await newWorker(h, experienced);
    await client.send(
      new AssociateQualificationWithWorkerCommand({
        QualificationTypeId: exam.QualificationTypeId,
        WorkerId: low.workerId,
        IntegerValue: 80,
        SendNotification: false,
      }),
    );
    await expect(h.running.workers.acceptHit(low.workerId, hitId)).rejects.toMatchObject({ code: 'QualificationRequirementsNotMet' });
  });

  it('keeps a preview-guarded question from workers who lack the qualification', async () => {
    const client = h.client();
    const { HIT } = await client.send(
      new CreateHITCommand(
        hitParams({
          QualificationRequirements: [
            { QualificationTypeId: '00000000000000000060', Comparator: 'EqualTo', IntegerValues: [1], ActionsGuarded: 'PreviewAndAccept' },
          ],
        }),
      ),
    );
    const minor = await newWorker(h);
    const adult = await newWorker(h, { adult: true });
    const seen = await h.running.workers.previewHit(minor.workerId, HIT!.HITId!);
    expect(seen).toMatchObject({ canPreview: false, canAccept: false });
    expect(seen.question).toBeUndefined();
    expect(await h.running.workers.previewHit(adult.workerId, HIT!.HITId!)).toMatchObject({ canPreview: true, canAccept: true });
  });

  it('blocks workers from every HIT until unblocked', async () => {
    const client = h.client();
    const { HIT } = await client.send(new CreateHITCommand(hitParams()));
    const w = await newWorker(h);
    await client.send(new CreateWorkerBlockCommand({ WorkerId: w.workerId, Reason: 'random answers' }));
    expect((await client.send(new ListWorkerBlocksCommand({}))).WorkerBlocks).toContainEqual({
      WorkerId: w.workerId,
      Reason: 'random answers',
    });
    expect(await h.running.workers.listAvailableHits(w.workerId)).toEqual([]);
    await expect(h.running.workers.acceptHit(w.workerId, HIT!.HITId!)).rejects.toMatchObject({ code: 'WorkerBlocked' });
    await client.send(new DeleteWorkerBlockCommand({ WorkerId: w.workerId }));
    await client.send(new DeleteWorkerBlockCommand({ WorkerId: w.workerId })); // not blocked: still fine
    expect((await h.running.workers.acceptHit(w.workerId, HIT!.HITId!)).status).toBe('Accepted');
  });
});
