import { CrowdCallError } from './call-error.js';

/**
 * The shapes MTurk documents for its identifiers (API reference: WorkerId `^A[A-Z0-9]+$`,
 * AssignmentId and HITId `^[A-Z0-9]+$`, 1 to 64 characters). qrelay puts these ids in
 * URLs, file names and audit entries, so an id is checked wherever it enters: what a
 * person types (a path, a form, a command-line argument) and what any platform returns
 * (the bundled marketplace, Amazon, or an MTurk-compatible URL nobody vouches for).
 */
export const WORKER_ID_PATTERN = /^A[A-Z0-9]{1,63}$/;
export const ENTITY_ID_PATTERN = /^[A-Z0-9]{1,64}$/;

export const isWorkerId = (value: unknown): value is string => typeof value === 'string' && WORKER_ID_PATTERN.test(value);
export const isEntityId = (value: unknown): value is string => typeof value === 'string' && ENTITY_ID_PATTERN.test(value);

/** What a person must be told when a worker id they gave has the wrong shape. */
export const WORKER_ID_RULE = 'an MTurk worker id is A followed by capital letters and digits, at most 64 characters (^A[A-Z0-9]+$)';
export const ENTITY_ID_RULE = 'an MTurk assignment or HIT id is capital letters and digits, at most 64 characters (^[A-Z0-9]+$)';

/**
 * An id a platform answered with, refused unless it has MTurk's documented shape: a
 * platform that answers `../batches/x/delete?` as a worker id fails its call (a
 * CrowdCallError, as any other bad answer) instead of reaching a page or a path.
 */
export function platformId(operation: string, field: 'WorkerId' | 'AssignmentId' | 'HITId', value: string | undefined): string {
  const ok = field === 'WorkerId' ? isWorkerId(value) : isEntityId(value);
  if (ok) return value as string;
  const shown = JSON.stringify(String(value ?? '')).slice(0, 80);
  throw new CrowdCallError(
    operation,
    {
      kind: 'request-error',
      retryable: false,
      message: `the platform answered ${field} ${shown}, which is not an MTurk id (${field === 'WorkerId' ? WORKER_ID_RULE : ENTITY_ID_RULE}); nothing of it was used`,
    },
    1,
  );
}
