import type { SiteKeys } from './keys.js';

/**
 * The links of HIT frames. A HIT's own page runs in a sandboxed frame without cookies
 * (an opaque origin), so the frame's address carries a capability instead: a MAC of the
 * assignment and its worker (to work and submit) or of the HIT and the worker (to
 * preview). Only the worker the marketplace gave the assignment to ever receives its
 * link, so nobody else can open or submit it; assignment ids alone (the HIT id plus a
 * sequence number) are guessable and are never enough.
 */

export const PREVIEW_ASSIGNMENT_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';

export const workToken = (keys: SiteKeys, assignmentId: string, workerId: string): string =>
  `${assignmentId}.${keys.mac('work', assignmentId, workerId)}`;

export function readWorkToken(token: string): { assignmentId: string; mac: string } | undefined {
  const m = /^([A-Z0-9]{1,64})\.([A-Za-z0-9_-]{32})$/.exec(token);
  return m ? { assignmentId: m[1]!, mac: m[2]! } : undefined;
}

export const checkWorkToken = (keys: SiteKeys, mac: string, assignmentId: string, workerId: string): boolean =>
  keys.check(mac, 'work', assignmentId, workerId);

export const previewToken = (keys: SiteKeys, hitId: string, workerId: string): string =>
  `${workerId}.${keys.mac('preview', hitId, workerId)}`;

export function readPreviewToken(keys: SiteKeys, hitId: string, token: string): string | undefined {
  const m = /^(A[A-Z0-9]{1,63})\.([A-Za-z0-9_-]{32})$/.exec(token);
  return m && keys.check(m[2]!, 'preview', hitId, m[1]!) ? m[1] : undefined;
}

/** Where the frame's form posts: MTurk pages post to `<turkSubmitTo>/mturk/externalSubmit`. */
export const submitBase = (origin: string, token: string): string => `${origin}/submit/${token}`;

/** `url` with MTurk's query parameters appended (ExternalQuestion's ExternalURL keeps its own). */
export function withParams(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
