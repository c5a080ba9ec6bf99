import type { Config, MturkTarget } from '../config.js';
import type { RetryPolicy } from './call-error.js';
import { MturkBackend } from './mturk/backend.js';
import type { CrowdPlatform } from './platform.js';
import { resolveTarget } from './targets.js';

/**
 * Where a `--target` becomes a platform: the one place that knows the platform folders.
 * Every target name is an MTurk-compatible endpoint today (`local`, `sandbox`,
 * `production` or a URL: targets.ts); a new platform adds its target names here
 * (README.md).
 */

export interface PlatformOptions {
  /** Retry policy of the platform's calls (tests use short delays). */
  retry?: RetryPolicy;
  /** Told of every retried call (throttled, service fault, network) before it waits. */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; kind: string }) => void;
}

/** The platform serving a target name that has been checked already (`parseTargetName`). */
export function createCrowdPlatform(target: MturkTarget, config: Config, opts: PlatformOptions = {}): CrowdPlatform {
  return new MturkBackend(resolveTarget(target, config), {
    ...(opts.retry && { retry: opts.retry }),
    hooks: {
      onRetry: ({ operation, attempt, delayMs, failure }) => opts.onRetry?.({ operation, attempt, delayMs, kind: failure.kind }),
    },
  });
}
