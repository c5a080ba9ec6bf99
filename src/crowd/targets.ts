import type { Config, MturkTarget } from '../config.js';
import { UserError } from '../errors.js';
import type { CrowdTarget } from './platform.js';

/**
 * A crowd target: where the MTurk Requester API lives, how to sign for it, and the
 * facts that differ between endpoints (the Masters qualification id, the worker site).
 * Every target is an MTurk-compatible endpoint today (registry.ts); the pipeline reads
 * only its CrowdTarget part.
 */
export interface ResolvedTarget extends CrowdTarget {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  mastersQualificationTypeId: string;
  /** Where workers post answers (the HIT page's `turkSubmitTo`). */
  workerSite: string;
}

/** The target name of Prolific's researcher API (registry.ts); every other name is MTurk-compatible. */
export const PROLIFIC_TARGET = 'prolific';

export const MASTERS_SANDBOX = '2ARFPLSP75KLA8M8DH1HTEQVJT3SY6';
export const MASTERS_PRODUCTION = '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH';

const ENDPOINTS = {
  sandbox: { endpoint: 'https://mturk-requester-sandbox.us-east-1.amazonaws.com', workerSite: 'https://workersandbox.mturk.com' },
  production: { endpoint: 'https://mturk-requester.us-east-1.amazonaws.com', workerSite: 'https://www.mturk.com' },
} as const;

/** Credentials: AWS_* for Amazon's endpoints; MARKETPLACE_* for the bundled marketplace and any other URL. */
export function resolveTarget(target: MturkTarget, config: Config): ResolvedTarget {
  const env = config.env;
  if (target === 'sandbox' || target === 'production') {
    if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) {
      const missing = [!env.AWS_ACCESS_KEY_ID && 'AWS_ACCESS_KEY_ID', !env.AWS_SECRET_ACCESS_KEY && 'AWS_SECRET_ACCESS_KEY']
        .filter(Boolean)
        .join(' and ');
      throw new UserError(`target ${target} needs ${missing}: set the requester's AWS credentials, or use --target local`);
    }
    return {
      name: target,
      kind: target,
      ...ENDPOINTS[target],
      region: 'us-east-1',
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY },
      mastersQualificationTypeId: target === 'sandbox' ? MASTERS_SANDBOX : MASTERS_PRODUCTION,
      realMoney: target === 'production',
    };
  }
  const endpoint = target === 'local' ? env.MARKETPLACE_URL : target;
  return {
    name: target,
    kind: target === 'local' ? 'local' : 'url',
    endpoint,
    workerSite: endpoint,
    region: env.AWS_REGION,
    credentials: { accessKeyId: env.MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: env.MARKETPLACE_SECRET_ACCESS_KEY },
    mastersQualificationTypeId: MASTERS_SANDBOX,
    realMoney: false,
  };
}
