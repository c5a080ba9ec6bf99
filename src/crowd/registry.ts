import type { Config, MturkTarget } from '../config.js';
import { UserError } from '../errors.js';
import type { RetryPolicy } from './call-error.js';
import type { HostedServices } from './hosted.js';
import { MturkBackend } from './mturk/backend.js';
import type { CrowdPlatform } from './platform.js';
import { ProlificClient } from './prolific/client.js';
import { ProlificPlatform } from './prolific/platform.js';
import { PROLIFIC_TARGET, resolveTarget } from './targets.js';

export { PROLIFIC_TARGET };

/**
 * Where a `--target` becomes a platform: the one place that knows the platform folders.
 * `prolific` is Prolific's researcher API (PROLIFIC_API_URL, PROLIFIC_API_TOKEN); every
 * other target name is an MTurk-compatible endpoint (`local`, `sandbox`, `production` or a
 * URL: targets.ts). A new platform adds its target names here (README.md).
 */

export interface PlatformOptions {
  /** Retry policy of the platform's calls (tests use short delays). */
  retry?: RetryPolicy;
  /** Told of every retried call (throttled, service fault, network) before it waits. */
  onRetry?: (info: { operation: string; attempt: number; delayMs: number; kind: string }) => void;
  /** qrelay's task pages and records, for a platform that links to external pages (Prolific). */
  hosted?: HostedServices;
}

function createProlific(config: Config, opts: PlatformOptions): CrowdPlatform {
  const token = config.env.PROLIFIC_API_TOKEN;
  if (!token) {
    throw new UserError(
      "target prolific needs PROLIFIC_API_TOKEN: set Prolific's researcher API token (for the bundled marketplace, its MARKETPLACE_PROLIFIC_TOKEN, with PROLIFIC_API_URL=<marketplace>/prolific/api/v1/)",
    );
  }
  const endpoint = config.env.PROLIFIC_API_URL;
  const real = /^https:\/\/api\.prolific\.(com|co)(\/|$)/.test(endpoint);
  const client = new ProlificClient({
    baseUrl: endpoint,
    token,
    ...(opts.retry && { retry: opts.retry }),
    onRetry: ({ operation, attempt, delayMs, failure }) => opts.onRetry?.({ operation, attempt, delayMs, kind: failure.kind }),
  });
  return new ProlificPlatform({ name: PROLIFIC_TARGET, kind: real ? 'production' : 'url', endpoint, realMoney: real }, client, opts.hosted);
}

/** The platform serving a target name that has been checked already (`parseTargetName`). */
export function createCrowdPlatform(
  target: MturkTarget | typeof PROLIFIC_TARGET,
  config: Config,
  opts: PlatformOptions = {},
): CrowdPlatform {
  if (target === PROLIFIC_TARGET) return createProlific(config, opts);
  return new MturkBackend(resolveTarget(target, config), {
    ...(opts.retry && { retry: opts.retry }),
    hooks: {
      onRetry: ({ operation, attempt, delayMs, failure }) => opts.onRetry?.({ operation, attempt, delayMs, kind: failure.kind }),
    },
  });
}
