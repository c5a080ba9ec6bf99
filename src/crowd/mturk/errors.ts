import type { ClassifiedFailure } from '../call-error.js';

/**
 * What a failed MTurk call means for the caller: retry later (throttled, service fault,
 * network), or stop (a RequestError the requester must act on).
 */

interface SdkLikeError {
  name?: string;
  message?: string;
  code?: string;
  Message?: string;
  TurkErrorCode?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: { throttling?: boolean };
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'ECONNABORTED',
]);
const THROTTLING_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ThrottledException',
]);

export function classifyFailure(err: unknown): ClassifiedFailure {
  const e = (typeof err === 'object' && err !== null ? err : {}) as SdkLikeError;
  const message = e.Message ?? e.message ?? String(err);
  const status = e.$metadata?.httpStatusCode;
  if (e.name && THROTTLING_NAMES.has(e.name)) return { kind: 'throttled', retryable: true, message };
  if (e.$retryable?.throttling || status === 429) return { kind: 'throttled', retryable: true, message };
  if (e.name === 'RequestError') return { kind: 'request-error', retryable: false, turkErrorCode: e.TurkErrorCode, message };
  if (e.name === 'ServiceFault' || (status !== undefined && status >= 500)) {
    return { kind: 'service-fault', retryable: true, turkErrorCode: e.TurkErrorCode, message };
  }
  if (
    (e.code && NETWORK_CODES.has(e.code)) ||
    e.name === 'TimeoutError' ||
    /socket hang up|ECONNRESET|ECONNREFUSED|fetch failed/i.test(message)
  ) {
    return { kind: 'network', retryable: true, message };
  }
  return { kind: 'unknown', retryable: false, message };
}

export const HIT_ALREADY_EXISTS = 'AWS.MechanicalTurk.HitAlreadyExists';
/** A repeated UniqueRequestToken on SendBonus / CreateAdditionalAssignmentsForHIT (the first call took effect). */
export const DUPLICATE_REQUEST = 'AWS.MechanicalTurk.DuplicateRequest';

/** The HITId MTurk names in a HitAlreadyExists message, if any. */
export function hitIdFromAlreadyExists(message: string): string | undefined {
  return /\b([A-Z0-9]{20,64})\b/.exec(message)?.[1];
}
