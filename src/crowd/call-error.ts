/**
 * How a crowd platform's call failed, in terms the pipeline acts on whatever the platform:
 * retry later (throttled, service fault, network), or stop (a request error the requester
 * must act on). Each platform classifies its own errors into this (mturk/errors.ts).
 */

export type FailureKind = 'throttled' | 'service-fault' | 'network' | 'request-error' | 'unknown';

export interface ClassifiedFailure {
  kind: FailureKind;
  retryable: boolean;
  /** The platform's own error code when it sent one (MTurk's AWS.MechanicalTurk.*, hence the name). */
  turkErrorCode?: string;
  message: string;
}

/** A platform call that failed for good: not retryable, or retried `attempts` times. */
export class CrowdCallError extends Error {
  constructor(
    readonly operation: string,
    readonly failure: ClassifiedFailure,
    readonly attempts: number,
  ) {
    super(
      `${operation} failed${attempts > 1 ? ` after ${attempts} attempts` : ''}: ${failure.turkErrorCode ? `${failure.turkErrorCode}: ` : ''}${failure.message}`,
    );
    this.name = 'CrowdCallError';
  }
}

/**
 * Capped, jittered exponential backoff ("full jitter"): attempt n waits a random time in
 * [0, min(cap, base * 2^n)]. A platform's SDK retries are turned off so that this is the
 * one retry policy, with no shared retry quota to run dry in a long publish.
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}
