import { createHash, randomBytes } from 'node:crypto';

/**
 * Identifiers, shaped like MTurk's (EntityId `^[A-Z0-9]+$`, WorkerId `^A[A-Z0-9]+$`).
 * Entity ids start with the creation time in base 36, so sorting by `_id` is creation
 * order: pagination by `_id` is stable under inserts, and a lookup by `_id` is all the
 * dev database can do quickly.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const ENTITY_ID_LENGTH = 30;
const TIME_CHARS = 9;
const SEQ_CHARS = 6;

export function randomChars(n: number, bytes: (n: number) => Buffer = randomBytes): string {
  const buf = bytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALPHABET[buf[i]! % ALPHABET.length];
  return out;
}

/** A 30-character id whose first 9 characters order it by `nowMs`. */
export function newEntityId(nowMs: number = Date.now(), bytes?: (n: number) => Buffer): string {
  const time = Math.floor(nowMs).toString(36).toUpperCase().padStart(TIME_CHARS, '0').slice(-TIME_CHARS);
  return time + randomChars(ENTITY_ID_LENGTH - TIME_CHARS, bytes);
}

/** A 30-character id ordered by `nowMs` like `newEntityId`, the rest derived from `text` (repeatable). */
export function seededEntityId(nowMs: number, text: string): string {
  return newEntityId(nowMs, (n) => Buffer.from(hashId(text, n), 'latin1'));
}

/** Assignment ids are their HIT's id plus a sequence number, so a lookup finds the HIT. */
export function assignmentIdFor(hitId: string, seq: number): string {
  return hitId + seq.toString(36).toUpperCase().padStart(SEQ_CHARS, '0');
}

export function hitIdOfAssignment(assignmentId: string): string | undefined {
  if (assignmentId.length !== ENTITY_ID_LENGTH + SEQ_CHARS || !/^[A-Z0-9]+$/.test(assignmentId)) return undefined;
  return assignmentId.slice(0, ENTITY_ID_LENGTH);
}

export function newWorkerId(bytes?: (n: number) => Buffer): string {
  return `A${randomChars(13, bytes)}`;
}

/** A stable id of `length` characters derived from `text` (HIT type ids, customer ids, ...). */
export function hashId(text: string, length = ENTITY_ID_LENGTH): string {
  const digest = createHash('sha256').update(text).digest();
  let n = BigInt(`0x${digest.toString('hex')}`);
  let out = '';
  while (out.length < length) {
    out += ALPHABET[Number(n % 36n)];
    n /= 36n;
  }
  return out;
}
