import { createServer, type Server } from 'node:http';
import {
  ApproveAssignmentCommand,
  CreateHITTypeCommand,
  CreateHITWithHITTypeCommand,
  NotifyWorkersCommand,
  SendTestEventNotificationCommand,
  UpdateNotificationSettingsCommand,
} from '@aws-sdk/client-mturk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlQuestion, newWorker, useMarketplace } from './support.js';

const h = useMarketplace();

interface Received {
  EventDocId: string;
  EventDocVersion: string;
  CustomerId: string;
  Events: { EventType: string; EventTimestamp: string; HITTypeId: string; HITId: string; AssignmentId?: string }[];
}

let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let failNext = 1;
let attempts = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      attempts++;
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('not now');
        return;
      }
      received.push(JSON.parse(body) as Received);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const address = receiver.address();
  receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mturk-events`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

async function until(predicate: () => boolean, what: string) {
  // bounded by ticks, not seconds; 1000 ticks (a minute at least) is only a safety net
  for (let i = 0; i < 1000 && !predicate(); i++) {
    await h.running.loops.tick();
    await new Promise((r) => setTimeout(r, 60));
  }
  if (!predicate()) throw new Error(`timed out waiting for ${what}`);
}

const eventTypes = () => received.flatMap((m) => m.Events.map((e) => e.EventType));

describe('notifications', () => {
  it('delivers HIT events to an http(s) destination at least once, retrying after a failure', async () => {
    const client = h.client();
    const { HITTypeId } = await client.send(
      new CreateHITTypeCommand({
        Title: 'Judge',
        Description: 'relevance',
        Reward: '0.20',
        AssignmentDurationInSeconds: 300,
        AutoApprovalDelayInSeconds: 60,
      }),
    );
    await client.send(
      new UpdateNotificationSettingsCommand({
        HITTypeId,
        Notification: {
          Destination: receiverUrl,
          Transport: 'SQS',
          Version: '2014-08-15',
          EventTypes: ['HITCreated', 'AssignmentAccepted', 'AssignmentSubmitted', 'HITReviewable', 'AssignmentApproved'],
        },
      }),
    );
    const { HIT } = await client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, Question: htmlQuestion() }));
    const w = await newWorker(h);
    const a = await h.running.workers.acceptHit(w.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(w.workerId, a.assignmentId, { relevance: 'yes' });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    const expected = ['HITCreated', 'AssignmentAccepted', 'AssignmentSubmitted', 'HITReviewable', 'AssignmentApproved'];
    await until(() => expected.every((t) => eventTypes().includes(t)), 'the events');
    expect(attempts).toBeGreaterThan(received.length); // the first POST failed and was retried
    expect(new Set(eventTypes())).toEqual(new Set(expected));
    const submittedMessage = received.find((m) => m.Events.some((e) => e.EventType === 'AssignmentSubmitted'))!;
    expect(submittedMessage).toMatchObject({
      EventDocVersion: '2014-08-15',
      CustomerId: expect.stringMatching(/^A[A-Z0-9]+$/),
      EventDocId: expect.any(String),
    });
    const event = submittedMessage.Events.find((e) => e.EventType === 'AssignmentSubmitted')!;
    expect(event).toEqual({
      EventType: 'AssignmentSubmitted',
      EventTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      HITTypeId,
      HITId: HIT!.HITId,
      AssignmentId: a.assignmentId,
    });
    expect(new Set(received.map((m) => m.EventDocId)).size).toBe(received.length);

    // deactivated: no more messages
    await client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Active: false }));
    const count = received.length;
    await client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, Question: htmlQuestion() }));
    await h.running.loops.tick();
    expect(received.length).toBe(count);
  });

  it("carries the events of many of a subscription's HITs in one message", async () => {
    const client = h.client();
    const { HITTypeId } = await client.send(
      new CreateHITTypeCommand({ Title: 'Judge', Description: 'many', Reward: '0.20', AssignmentDurationInSeconds: 300 }),
    );
    await client.send(
      new UpdateNotificationSettingsCommand({
        HITTypeId,
        Notification: { Destination: receiverUrl, Transport: 'SQS', Version: '2014-08-15', EventTypes: ['HITCreated'] },
      }),
    );
    const hitIds: string[] = [];
    for (let i = 0; i < 3; i++)
      hitIds.push(
        (await client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, Question: htmlQuestion() }))).HIT!.HITId!,
      );
    const before = received.length;
    // one hand-over of the three HITs' events (the loops run only when the test ticks them)
    await until(() => received.slice(before).some((m) => m.Events.some((e) => e.HITTypeId === HITTypeId)), 'the message');
    const messages = received.slice(before).filter((m) => m.Events.some((e) => e.HITTypeId === HITTypeId));
    expect(messages).toHaveLength(1);
    expect(messages[0]!.Events.map((e) => [e.EventType, e.HITId]).sort()).toEqual(hitIds.map((id) => ['HITCreated', id]).sort());
  });

  it('sends a test event to any specification, with the Version MTurk documents (2006-05-05) too', async () => {
    const client = h.client();
    await client.send(
      new SendTestEventNotificationCommand({
        Notification: { Destination: receiverUrl, Transport: 'SNS', Version: '2014-08-15', EventTypes: ['AssignmentSubmitted'] },
        TestEventType: 'Ping',
      }),
    );
    await until(() => eventTypes().includes('Ping'), 'the Ping');
    await client.send(
      new SendTestEventNotificationCommand({
        Notification: { Destination: receiverUrl, Transport: 'SQS', Version: '2006-05-05', EventTypes: ['AssignmentSubmitted'] },
        TestEventType: 'AssignmentSubmitted',
      }),
    );
    await until(
      () => eventTypes().includes('AssignmentSubmitted') && received.some((m) => m.EventDocVersion === '2006-05-05'),
      'the 2006-05-05 test event',
    );
    const { HITTypeId } = await client.send(
      new CreateHITTypeCommand({ Title: 'V', Description: 'V', Reward: '0.20', AssignmentDurationInSeconds: 300 }),
    );
    await client.send(
      new UpdateNotificationSettingsCommand({
        HITTypeId,
        Notification: { Destination: receiverUrl, Transport: 'SQS', Version: '2006-05-05', EventTypes: ['HITCreated'] },
      }),
    );
  });

  it('explains destinations it cannot deliver to', async () => {
    const client = h.client();
    const { HITTypeId } = await client.send(
      new CreateHITTypeCommand({ Title: 'X', Description: 'Y', Reward: '0.20', AssignmentDurationInSeconds: 300 }),
    );
    await expect(
      client.send(
        new UpdateNotificationSettingsCommand({
          HITTypeId,
          Notification: { Destination: 'me@example.org', Transport: 'Email', Version: '2014-08-15', EventTypes: ['HITReviewable'] },
        }),
      ),
    ).rejects.toMatchObject({
      TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
      message: expect.stringContaining('Notification.Transport: this marketplace delivers notifications by HTTP POST'),
    });
    // an SQS queue URL and an SNS topic ARN: AWS endpoints this marketplace cannot deliver to
    for (const [Transport, Destination] of [
      ['SQS', 'https://sqs.us-east-1.amazonaws.com/123456789012/mturk-events'],
      ['SNS', 'arn:aws:sns:us-east-1:123456789012:mturk-events'],
    ] as const) {
      await expect(
        client.send(
          new UpdateNotificationSettingsCommand({
            HITTypeId,
            Notification: { Destination, Transport, Version: '2006-05-05', EventTypes: ['HITReviewable'] },
          }),
        ),
      ).rejects.toMatchObject({
        name: 'RequestError',
        TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
        message: expect.stringContaining('Notification.Destination'),
      });
      await expect(
        client.send(
          new SendTestEventNotificationCommand({
            Notification: { Destination, Transport, Version: '2014-08-15', EventTypes: ['Ping'] },
            TestEventType: 'Ping',
          }),
        ),
      ).rejects.toMatchObject({
        TurkErrorCode: 'AWS.MechanicalTurk.ValidationException',
        message: expect.stringContaining('cannot deliver to AWS'),
      });
    }
    await expect(client.send(new UpdateNotificationSettingsCommand({ HITTypeId, Active: true }))).rejects.toMatchObject({
      message: expect.stringContaining('has no notification specification yet'),
    });
  });

  it('notifies workers whose work was reviewed, in their inbox', async () => {
    const client = h.client();
    const { HITTypeId } = await client.send(
      new CreateHITTypeCommand({ Title: 'N', Description: 'N', Reward: '0.20', AssignmentDurationInSeconds: 300 }),
    );
    const { HIT } = await client.send(new CreateHITWithHITTypeCommand({ HITTypeId, LifetimeInSeconds: 3600, Question: htmlQuestion() }));
    const [done, stranger] = [await newWorker(h), await newWorker(h)];
    const a = await h.running.workers.acceptHit(done.workerId, HIT!.HITId!);
    await h.running.workers.submitAssignment(done.workerId, a.assignmentId, { relevance: 'no' });
    await client.send(new ApproveAssignmentCommand({ AssignmentId: a.assignmentId }));
    const res = await client.send(
      new NotifyWorkersCommand({ Subject: 'New batch', MessageText: 'More HITs tomorrow.', WorkerIds: [done.workerId, stranger.workerId] }),
    );
    expect(res.NotifyWorkersFailureStatuses).toEqual([
      expect.objectContaining({ WorkerId: stranger.workerId, NotifyWorkersFailureCode: 'HardFailure' }),
    ]);
    expect(await h.running.workers.listMessages(done.workerId)).toEqual([
      expect.objectContaining({ subject: 'New batch', text: 'More HITs tomorrow.' }),
    ]);
  });
  it('enqueues a message once however often its events are handed over, and leaves a stored one as it is', async () => {
    const { outbox, models } = h.running.marketplace;
    const before = outbox.pendingCount;
    const message = (id: string) => ({ id, destination: 'http://127.0.0.1:9/none', body: `{"id":"${id}"}` });
    await outbox.enqueueMany([message('outbox-a'), message('outbox-b')], 1_000);
    expect(outbox.pendingCount).toBe(before + 2);
    // a message that failed for good is kept as it is when the same events come again (a crash between two writes)
    await outbox.failedAttempt('outbox-b', 3, 'gone', undefined);
    await outbox.enqueueMany([message('outbox-a'), message('outbox-b'), message('outbox-c')], 2_000);
    expect(outbox.pendingCount).toBe(before + 2);
    const stored = await models.outbox
      .find({ _id: { $in: ['outbox-a', 'outbox-b', 'outbox-c'] } })
      .sort({ _id: 1 })
      .lean();
    expect(stored.map((d) => [d._id, d.state, d.attempts, d.nextAttemptAt.getTime()])).toEqual([
      ['outbox-a', 'pending', 0, 1_000],
      ['outbox-b', 'failed', 3, 1_000],
      ['outbox-c', 'pending', 0, 2_000],
    ]);
    expect(outbox.dueIds(2_000, 100).filter((id) => id.startsWith('outbox-'))).toEqual(['outbox-a', 'outbox-c']);
    await outbox.delivered(['outbox-a', 'outbox-c']);
    expect(outbox.pendingCount).toBe(before);
  });
});
