import { describe, expect, it } from 'vitest';
import { checkNotificationSpec, messageEvent, notificationMessage, retryDelayMs } from './notifications.js';

describe('notifications', () => {
  const spec = {
    Destination: 'http://127.0.0.1:9/hook',
    Transport: 'SQS' as const,
    Version: '2014-08-15',
    EventTypes: ['AssignmentSubmitted' as const],
  };
  it('accepts SQS/SNS with an http(s) destination', () => {
    expect(checkNotificationSpec(spec, { forTest: false })).toEqual([]);
    expect(checkNotificationSpec({ ...spec, Transport: 'SNS' }, { forTest: false })).toEqual([]);
    // the Version MTurk's documentation shows in its examples, besides the current one
    expect(checkNotificationSpec({ ...spec, Version: '2006-05-05' }, { forTest: false })).toEqual([]);
  });
  it('explains what it cannot deliver', () => {
    expect(
      checkNotificationSpec({ ...spec, Transport: 'Email', Destination: 'me@example.org' }, { forTest: false }).map((i) => i.path),
    ).toEqual(['Notification.Transport', 'Notification.Destination']);
    expect(checkNotificationSpec({ ...spec, Destination: 'arn:aws:sns:us-east-1:1:t' }, { forTest: false })[0]!.path).toBe(
      'Notification.Destination',
    );
    expect(checkNotificationSpec({ ...spec, Version: '2005-01-01' }, { forTest: false })[0]!.path).toBe('Notification.Version');
    const sqsQueue = checkNotificationSpec(
      { ...spec, Destination: 'https://sqs.us-east-1.amazonaws.com/123456789012/mturk-events' },
      { forTest: false },
    );
    expect(sqsQueue).toEqual([{ path: 'Notification.Destination', message: expect.stringContaining('cannot deliver to AWS') }]);
    expect(
      checkNotificationSpec({ ...spec, Transport: 'SNS', Destination: 'arn:aws:sns:us-east-1:123456789012:t' }, { forTest: false })[0]!
        .message,
    ).toMatch(/an ARN \(an SNS topic\)/);
    expect(checkNotificationSpec({ ...spec, EventTypes: ['Ping'] }, { forTest: false })[0]!.message).toMatch(/Ping is only valid/);
    expect(checkNotificationSpec({ ...spec, EventTypes: ['Ping'] }, { forTest: true })).toEqual([]);
    expect(checkNotificationSpec({ ...spec, EventTypes: [] }, { forTest: true })[0]!.path).toBe('Notification.EventTypes');
  });
  it('shapes messages like MTurk SQS messages', () => {
    const e = messageEvent({
      type: 'AssignmentSubmitted',
      at: new Date('2026-03-01T10:00:00.123Z'),
      hitId: 'H',
      hitTypeId: 'T',
      assignmentId: 'A',
    });
    expect(JSON.parse(notificationMessage('DOC1', 'ACUST', '2014-08-15', [e]))).toEqual({
      EventDocVersion: '2014-08-15',
      EventDocId: 'DOC1',
      CustomerId: 'ACUST',
      Events: [{ EventType: 'AssignmentSubmitted', EventTimestamp: '2026-03-01T10:00:00Z', HITTypeId: 'T', HITId: 'H', AssignmentId: 'A' }],
    });
    expect(messageEvent({ type: 'HITExpired', at: new Date(0), hitId: 'H', hitTypeId: 'T' })).not.toHaveProperty('AssignmentId');
  });
  it('backs off exponentially up to a cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelayMs(n, 100, 1000))).toEqual([100, 200, 400, 800, 1000]);
  });
});
