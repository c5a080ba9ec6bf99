import { classifyFailure, type ClassifiedFailure } from './errors.js';

/**
 * Capped, jittered exponential backoff ("full jitter"): attempt n waits a random time in
 * [0, min(cap, base * 2^n)]. The SDK's own retries are turned off so that this is the
 * one retry policy, with no shared retry quota to run dry in a long publish.
 */
export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 200, maxDelayMs: 20_000 };

export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

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

export interface RetryHooks {
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; failure: ClassifiedFailure }) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `call`, retrying throttling, service faults and network errors; a RequestError stops at once. */
export async function withRetries<T>(
  operation: string,
  call: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  hooks: RetryHooks = {},
): Promise<T> {
  const sleep = hooks.sleep ?? realSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const failure = classifyFailure(err);
      if (!failure.retryable || attempt + 1 >= policy.maxAttempts) throw new CrowdCallError(operation, failure, attempt + 1);
      const delayMs = backoffDelayMs(attempt, policy, hooks.random);
      hooks.onRetry?.({ operation, attempt: attempt + 1, delayMs, failure });
      await sleep(delayMs);
    }
  }
}
