import { createHash } from 'node:crypto';

/**
 * Request tokens (<= 64 chars; MTurk's UniqueRequestToken) derived from what identifies a
 * request, recorded before the call, so a publisher killed at any moment repeats the very
 * same token and the platform answers with the task it made (MTurk: HitAlreadyExists)
 * instead of posting a second one; a repeated bonus or extension takes effect once. `attempt` changes only
 * when a HIT is deliberately posted anew (e.g. republishing after an expiry).
 */
function token(kind: string, parts: (string | number)[]): string {
  const digest = createHash('sha256').update(parts.map(String).join('\u0000')).digest('hex').slice(0, 48);
  return `qr${kind}-${digest}`;
}

export const hitRequestToken = (batchId: string, hitIndex: number, attempt: number) => token('h', [batchId, hitIndex, attempt]);
export const extraAssignmentsToken = (hitId: string, round: number) => token('x', [hitId, round]);
export const bonusRequestToken = (assignmentId: string, purpose: string) => token('b', [assignmentId, purpose]);
