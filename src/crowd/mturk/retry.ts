import { CrowdCallError, type ClassifiedFailure, type RetryPolicy } from '../call-error.js';
import { classifyFailure } from './errors.js';

// callers of the earlier path (the policy and the error are platform-neutral now)
export { CrowdCallError, type RetryPolicy };

/** MTurk's retries: the policy of call-error.ts, run by withRetries below. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 10, baseDelayMs: 200, maxDelayMs: 20_000 };

export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
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
