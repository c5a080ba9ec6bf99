import { DomainError } from './errors.js';
import type { QualificationTypeState, RetakePolicy } from './qualification-types.js';

/**
 * When a worker may request a qualification again. MTurk's rule: without
 * RetryDelayInSeconds only once, with it once per delay (a requester's 24 hours is
 * common). For a type with a test, that would lock out a worker whose page reloaded or
 * who ran out of time; so the marketplace adds a retake policy per test type: `retakes`
 * more takes, each `delaySeconds` after the last request (default: one retake after 10
 * minutes), whichever of the two rules allows a request first. Retakes used under the
 * policy are counted; requests MTurk's rule allows use none.
 */

export type { RetakePolicy } from './qualification-types.js';

export const DEFAULT_RETAKE_POLICY: RetakePolicy = { retakes: 1, delaySeconds: 600 };

export const MAX_RETAKES = 100;

export interface AttemptRecord {
  lastRequestAt?: Date;
  /** Retakes taken under the retake policy. */
  retakesUsed?: number;
}

export const retakePolicyOf = (type: QualificationTypeState): RetakePolicy | undefined =>
  type.hasTest ? (type.retakePolicy ?? DEFAULT_RETAKE_POLICY) : undefined;

export type RequestTiming = { allowed: true; retake: boolean } | { allowed: false; nextAt: Date | null; retakesLeft: number };

const earliest = (a: Date | null, b: Date | null): Date | null => (a === null ? b : b === null ? a : a.getTime() <= b.getTime() ? a : b);

export function requestTiming(type: QualificationTypeState, attempt: AttemptRecord, now: Date): RequestTiming {
  const last = attempt.lastRequestAt;
  if (last === undefined) return { allowed: true, retake: false };
  const byRetry = type.retryDelaySeconds === undefined ? null : new Date(last.getTime() + type.retryDelaySeconds * 1000);
  if (byRetry !== null && byRetry.getTime() <= now.getTime()) return { allowed: true, retake: false };
  const policy = retakePolicyOf(type);
  const retakesLeft = policy ? Math.max(0, policy.retakes - (attempt.retakesUsed ?? 0)) : 0;
  const byRetake = policy && retakesLeft > 0 ? new Date(last.getTime() + policy.delaySeconds * 1000) : null;
  if (byRetake !== null && byRetake.getTime() <= now.getTime()) return { allowed: true, retake: true };
  return { allowed: false, nextAt: earliest(byRetry, byRetake), retakesLeft };
}

/** Throws QualificationRetryNotAllowed, saying when the worker may ask again; otherwise whether this request is a retake. */
export function checkRetryAllowed(type: QualificationTypeState, attempt: AttemptRecord, now: Date): { retake: boolean } {
  const t = requestTiming(type, attempt, now);
  if (t.allowed) return { retake: t.retake };
  if (t.nextAt === null) {
    throw new DomainError(
      'QualificationRetryNotAllowed',
      type.hasTest
        ? `You have taken the test of "${type.name}" as many times as it allows.`
        : `You have already requested the qualification "${type.name}", and it does not allow retries.`,
    );
  }
  const left = type.hasTest && t.retakesLeft > 0 ? ` (${t.retakesLeft} retake${t.retakesLeft === 1 ? '' : 's'} left)` : '';
  throw new DomainError(
    'QualificationRetryNotAllowed',
    `You can request the qualification "${type.name}" again after ${t.nextAt.toISOString()}${left}.`,
  );
}

export function checkRetakePolicy(input: { retakes?: unknown; delaySeconds?: unknown }): RetakePolicy {
  const { retakes, delaySeconds } = input;
  if (typeof retakes !== 'number' || !Number.isInteger(retakes) || retakes < 0 || retakes > MAX_RETAKES) {
    throw new DomainError(
      'ValidationException',
      `retakes: must be a whole number from 0 to ${MAX_RETAKES} (got ${JSON.stringify(retakes)})`,
    );
  }
  if (typeof delaySeconds !== 'number' || !Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 365 * 86_400) {
    throw new DomainError(
      'ValidationException',
      `delaySeconds: must be a whole number of seconds from 0 to one year (got ${JSON.stringify(delaySeconds)})`,
    );
  }
  return { retakes, delaySeconds };
}
