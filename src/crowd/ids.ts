import { NotFound } from '../errors.js';
import { CrowdCallError } from './call-error.js';

/**
 * The shapes the platforms document for their identifiers. MTurk (API reference):
 * WorkerId `^A[A-Z0-9]+$`, AssignmentId and HITId `^[A-Z0-9]+$`, 1 to 64 characters.
 * Prolific: participants, submissions and studies are 24 hexadecimal digits. qrelay puts
 * these ids in URLs, file names and audit entries, so an id is checked wherever it
 * enters: what a person types (a path, a form, a command-line argument: any platform's
 * shape) and what a platform returns (its own shape; the bundled marketplace, Amazon, or
 * an MTurk-compatible URL nobody vouches for).
 */
export const MTURK_WORKER_ID = /^A[A-Z0-9]{1,63}$/;
export const MTURK_ENTITY_ID = /^[A-Z0-9]{1,64}$/;
export const PROLIFIC_ID = /^[0-9a-f]{24}$/;

/** A worker id some platform could have made: what a person may give. */
export const WORKER_ID_PATTERN = /^(?:A[A-Z0-9]{1,63}|[0-9a-f]{24})$/;
/** An assignment (MTurk) or submission (Prolific) id. */
export const ENTITY_ID_PATTERN = /^(?:[A-Z0-9]{1,64}|[0-9a-f]{24})$/;

export const isWorkerId = (value: unknown): value is string => typeof value === 'string' && WORKER_ID_PATTERN.test(value);
export const isEntityId = (value: unknown): value is string => typeof value === 'string' && ENTITY_ID_PATTERN.test(value);

/**
 * The ASCII control characters MTurk refuses in reasons and messages (all but tab, line feed
 * and carriage return; a ValidationException), as the body of a character class: the one
 * copy, for the REST schemas (actions/schemas.ts) and the commands (actions/scope.ts).
 */
export const CONTROL_CHARACTERS = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F';

/** What a person must be told when an id they gave has the wrong shape. */
export const WORKER_ID_RULE =
  'a worker id is an MTurk WorkerId (A followed by capital letters and digits, at most 64: ^A[A-Z0-9]+$) or a Prolific participant id (24 hexadecimal digits)';
export const ENTITY_ID_RULE =
  'an assignment id is an MTurk AssignmentId (capital letters and digits, at most 64: ^[A-Z0-9]+$) or a Prolific submission id (24 hexadecimal digits)';

/**
 * A worker id a person gave, about to be sent to an MTurk target: refused unless it has
 * MTurk's shape. A Prolific participant id is a well-formed worker id, of a worker MTurk
 * cannot have: NotFound (a UserError; 404 over REST), never the ValidationException MTurk
 * would answer (a 502 from qrelay).
 */
export function mturkWorkerId(value: string): string {
  if (MTURK_WORKER_ID.test(value)) return value;
  throw new NotFound(
    `WORKER: ${JSON.stringify(value.slice(0, 80))} is not an MTurk WorkerId (^A[A-Z0-9]+$, at most 64 characters), and the target is MTurk: give the worker's MTurk id (a Prolific participant id names a worker of a Prolific batch)`,
  );
}

/**
 * An id the MTurk API answered with, refused unless it has MTurk's documented shape: a
 * platform that answers `../batches/x/delete?` as a worker id fails its call (a
 * CrowdCallError, as any other bad answer) instead of reaching a page or a path.
 */
export function platformId(operation: string, field: 'WorkerId' | 'AssignmentId' | 'HITId', value: string | undefined): string {
  const ok = typeof value === 'string' && (field === 'WorkerId' ? MTURK_WORKER_ID : MTURK_ENTITY_ID).test(value);
  if (ok) return value as string;
  const shown = JSON.stringify(String(value ?? '')).slice(0, 80);
  throw new CrowdCallError(
    operation,
    {
      kind: 'request-error',
      retryable: false,
      message: `the platform answered ${field} ${shown}, which is not an MTurk id (${field === 'WorkerId' ? '^A[A-Z0-9]+$' : '^[A-Z0-9]+$'}, at most 64 characters); nothing of it was used`,
    },
    1,
  );
}
