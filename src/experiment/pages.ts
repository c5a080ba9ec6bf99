import type { ArmName } from './compare.js';

/**
 * How the debate experiment reaches each worker with the page of their arm (pure;
 * docs/experiment.md, "Routing"). A HIT's HTMLQuestion is one page for every worker, so an
 * experiment batch's HITs are ExternalQuestions pointing at qrelay's task page
 * (`GET /tasks/<batch>/<hit>?sig=…`, src/tasks/routes.ts); the platform opens it with the
 * worker's id once they accept, and qrelay records the worker's arm before it answers with
 * the page of that arm. Both pages carry the same items, checks and form fields (the plan
 * renders them together: hits/plan.ts `withoutDebate`), so review is the same for both.
 */

export const EXTERNAL_QUESTION_NS = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd';

/** MTurk's assignment id while a worker previews a HIT (they have not accepted it). */
export const PREVIEW_ASSIGNMENT_ID = 'ASSIGNMENT_ID_NOT_AVAILABLE';

const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/** MTurk's ExternalQuestion for a page at `url`; `frameHeight` 0 lets the worker site size the frame. */
export function externalQuestionXml(url: string, frameHeight: number): string {
  if (!Number.isSafeInteger(frameHeight) || frameHeight < 0)
    throw new RangeError(`externalQuestionXml: frameHeight ${frameHeight} is not a whole number of pixels >= 0`);
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<ExternalQuestion xmlns="${EXTERNAL_QUESTION_NS}"><ExternalURL>${escapeXml(url)}</ExternalURL>` +
    `<FrameHeight>${frameHeight}</FrameHeight></ExternalQuestion>`
  );
}

/** Who opened the task page, as MTurk tells it: a worker who accepted, or a preview (no arm yet). */
export type Visitor = { kind: 'worker'; workerId: string } | { kind: 'preview' };

export function visitorOf(query: { workerId?: string | undefined; assignmentId?: string | undefined }): Visitor {
  const { workerId, assignmentId } = query;
  if (!workerId || !assignmentId || assignmentId === PREVIEW_ASSIGNMENT_ID) return { kind: 'preview' };
  return { kind: 'worker', workerId };
}

/**
 * Which page a visitor sees: a worker the page of their arm; a preview the page without the
 * debate (it shows no worker anything their arm would not, before they are assigned).
 */
export const pageArm = (visitor: Visitor, arm: ArmName | undefined): ArmName =>
  visitor.kind === 'worker' && arm !== undefined ? arm : 'no-debate';
