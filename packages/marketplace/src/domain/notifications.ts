import type { HitEvent } from './hit.js';
import type { EventType } from './types.js';

/**
 * HIT event notifications. MTurk delivers to an SQS queue or SNS topic; this marketplace
 * delivers by HTTP POST: a notification specification with Transport SQS or SNS names an
 * http(s) URL as its Destination, and each message is POSTed there as the JSON body an
 * SQS message from MTurk would carry (EventDocVersion, EventDocId, CustomerId, Events).
 * Delivery is at least once; receivers deduplicate by EventDocId, as with MTurk.
 */

export const NOTIFICATION_VERSION = '2014-08-15';
/** The Version MTurk's documentation shows in its examples; accepted as well. A message's EventDocVersion is the Version asked for, as MTurk's. */
export const DOCUMENTED_NOTIFICATION_VERSION = '2006-05-05';
export const NOTIFICATION_VERSIONS: readonly string[] = [NOTIFICATION_VERSION, DOCUMENTED_NOTIFICATION_VERSION];

/**
 * An AWS endpoint (an SQS queue URL such as https://sqs.us-east-1.amazonaws.com/123/q, an
 * SNS endpoint): it takes signed AWS API calls, not our POSTs, so nothing would arrive.
 */
const AWS_HOST = /(^|\.)amazonaws\.com(\.cn)?$/i;

export interface NotificationSpec {
  Destination: string;
  Transport: 'Email' | 'SQS' | 'SNS';
  Version: string;
  EventTypes: EventType[];
}

export interface SpecIssue {
  path: string;
  message: string;
}

export function checkNotificationSpec(spec: NotificationSpec, opts: { forTest: boolean }, base = 'Notification'): SpecIssue[] {
  const issues: SpecIssue[] = [];
  if (spec.Transport === 'Email') {
    issues.push({
      path: `${base}.Transport`,
      message: 'this marketplace delivers notifications by HTTP POST: use Transport SQS or SNS with an http(s) URL as Destination',
    });
  }
  let url: URL | undefined;
  try {
    url = new URL(spec.Destination);
  } catch {
    url = undefined;
  }
  if (spec.Destination.toLowerCase().startsWith('arn:')) {
    issues.push({
      path: `${base}.Destination`,
      message: `${JSON.stringify(spec.Destination)} is an ARN (an SNS topic): this marketplace cannot deliver to AWS; give an http(s) URL that receives the notifications by POST`,
    });
  } else if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    issues.push({
      path: `${base}.Destination`,
      message: `must be an http(s) URL that receives the notifications by POST (got ${JSON.stringify(spec.Destination)})`,
    });
  } else if (AWS_HOST.test(url.hostname)) {
    issues.push({
      path: `${base}.Destination`,
      message: `${JSON.stringify(spec.Destination)} is an AWS endpoint (an SQS queue or SNS topic): this marketplace cannot deliver to AWS; give an http(s) URL that receives the notifications by POST`,
    });
  }
  if (!NOTIFICATION_VERSIONS.includes(spec.Version)) {
    issues.push({
      path: `${base}.Version`,
      message: `must be ${NOTIFICATION_VERSIONS.join(' or ')} (got ${JSON.stringify(spec.Version)})`,
    });
  }
  if (spec.EventTypes.length === 0) issues.push({ path: `${base}.EventTypes`, message: 'name at least one event type' });
  if (!opts.forTest && spec.EventTypes.includes('Ping')) {
    issues.push({ path: `${base}.EventTypes`, message: 'Ping is only valid for SendTestEventNotification' });
  }
  return issues;
}

export interface MessageEvent {
  EventType: EventType;
  EventTimestamp: string;
  HITTypeId: string;
  HITId: string;
  AssignmentId?: string;
}

export function messageEvent(e: Pick<HitEvent, 'type' | 'at' | 'hitId' | 'hitTypeId' | 'assignmentId'>): MessageEvent {
  return {
    EventType: e.type,
    EventTimestamp: e.at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    HITTypeId: e.hitTypeId,
    HITId: e.hitId,
    ...(e.assignmentId ? { AssignmentId: e.assignmentId } : {}),
  };
}

export function notificationMessage(docId: string, customerId: string, version: string, events: MessageEvent[]): string {
  return JSON.stringify({ EventDocVersion: version, EventDocId: docId, CustomerId: customerId, Events: events });
}

/** Exponential backoff with a cap: base, 2 base, 4 base, ... */
export function retryDelayMs(attempts: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
