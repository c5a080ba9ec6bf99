import { parse } from 'parse5';
import { parseAnswersXml } from '../domain/answers-xml.js';
import type { Question } from '../domain/question-xml.js';
import { attr, elements } from '../html-tree.js';

/**
 * A worker's answers as the worker site shows them to the worker (pure): what they entered,
 * not what the requester's page recorded about them. A field that an HTMLQuestion's form
 * holds only as hidden inputs (`<input type="hidden">`: a page's timers and event counts,
 * `assignmentId`) was never the worker's to fill in; the requester still gets every field
 * through the Requester API.
 */

export interface AnswerRow {
  question: string;
  answer: string;
}

/** Names of the page's fields that only hidden inputs carry. */
export function hiddenFieldNames(html: string): Set<string> {
  const hidden = new Set<string>();
  const shown = new Set<string>();
  for (const el of elements(parse(html))) {
    const name = attr(el, 'name');
    if (name === undefined || !['input', 'textarea', 'select', 'button'].includes(el.tagName)) continue;
    const isHidden = el.tagName === 'input' && attr(el, 'type')?.toLowerCase() === 'hidden';
    (isHidden ? hidden : shown).add(name);
  }
  for (const name of shown) hidden.delete(name);
  return hidden;
}

export function workerAnswers(question: Question, answerXml: string): AnswerRow[] {
  const hidden = question.kind === 'HTMLQuestion' ? hiddenFieldNames(question.html) : new Set<string>();
  return parseAnswersXml(answerXml)
    .filter((e) => !hidden.has(e.questionIdentifier))
    .map((e) => ({
      question: e.questionIdentifier,
      answer: [
        ...(e.selections ?? []),
        ...(e.otherSelectionText !== undefined ? [e.otherSelectionText] : []),
        ...(e.freeText !== undefined ? [e.freeText] : []),
      ].join(', '),
    }));
}
