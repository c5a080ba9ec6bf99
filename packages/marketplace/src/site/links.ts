import { PREVIEW_ASSIGNMENT_ID, previewToken, submitBase, withParams, workToken } from './capabilities.js';
import type { SiteKeys } from './keys.js';

/**
 * The addresses a HIT's frame opens, with the query parameters MTurk gives a HIT page:
 * `assignmentId`, `hitId`, `workerId`, `turkSubmitTo` (previews: the placeholder
 * assignment id and the HIT id only). The work frame's address is the same for every
 * kind of question: for an ExternalQuestion it redirects to the ExternalURL with the
 * parameters appended, so a browser and a simulated worker follow one path.
 */

export interface AssignmentRef {
  assignmentId: string;
  hitId: string;
  workerId: string;
}

export function workFrameUrl(keys: SiteKeys, origin: string, a: AssignmentRef): string {
  const token = workToken(keys, a.assignmentId, a.workerId);
  return withParams(`${origin}/worker/frame/${token}`, workParams(origin, token, a));
}

export function workParams(origin: string, token: string, a: AssignmentRef): Record<string, string> {
  return { assignmentId: a.assignmentId, hitId: a.hitId, workerId: a.workerId, turkSubmitTo: submitBase(origin, token) };
}

export function previewFrameUrl(keys: SiteKeys, origin: string, hitId: string, workerId: string, externalUrl?: string): string {
  const params = { assignmentId: PREVIEW_ASSIGNMENT_ID, hitId };
  if (externalUrl !== undefined) return withParams(externalUrl, params);
  return withParams(`${origin}/worker/preview/${hitId}/${previewToken(keys, hitId, workerId)}`, params);
}
