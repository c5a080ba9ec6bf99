import type { HitDoc, StoredAnswer } from '../db/models/index.js';
import { AnswerFormatError, parseAssignmentAnswer } from '../hits/index.js';
import { caseKey } from '../ingest/index.js';
import { checkItemId, itemId } from './names.js';

/**
 * A submitted Answer XML read against the HIT's plan: one answer per planned item (null
 * when unanswered). Unreadable XML is not an error of ours to stop on: the assignment is
 * kept with no answers and its reason, and fails its checks like an unanswered one.
 */
export function readAnswers(hit: Pick<HitDoc, 'batch' | 'items'>, xml: string): { answers: StoredAnswer[]; parseError: string | null } {
  try {
    const parsed = parseAssignmentAnswer(xml, hit.items);
    const answers = parsed.items.map((a, i): StoredAnswer => {
      const planned = hit.items[i]!;
      const key = caseKey(planned.queryId, planned.chunkId);
      return {
        position: a.position,
        key: a.key,
        kind: a.kind,
        item: planned.kind === 'real' ? itemId(hit.batch, key) : checkItemId(key),
        answer: a.answer,
        difficult: a.difficult,
        comment: a.comment,
        ms: a.ms,
        copies: a.copies,
        pastes: a.pastes,
        focusLosses: a.focusLosses,
      };
    });
    return { answers, parseError: null };
  } catch (err) {
    if (err instanceof AnswerFormatError) return { answers: [], parseError: err.message };
    throw err;
  }
}
