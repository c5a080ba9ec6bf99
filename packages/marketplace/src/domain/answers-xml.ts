import { DomainError } from './errors.js';
import type { QuestionForm } from './question-form.js';
import { childText, children, escapeXml, parseXml, rootOf, text } from './xml.js';

/**
 * QuestionFormAnswers, as MTurk returns it in Assignment.Answer and QualificationRequest.Answer:
 * an ASCII document with one Answer per question or form field.
 */

export const QUESTION_FORM_ANSWERS_NS =
  'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd';

const PROLOG = '<?xml version="1.0" encoding="ASCII"?>';

export type FormFields = Record<string, string | string[]>;

export interface AnswerEntry {
  questionIdentifier: string;
  freeText?: string;
  selections?: string[];
  otherSelectionText?: string;
}

export function answersXml(entries: AnswerEntry[]): string {
  const body = entries
    .map((e) => {
      let inner = `<QuestionIdentifier>${escapeXml(e.questionIdentifier)}</QuestionIdentifier>`;
      for (const s of e.selections ?? []) inner += `<SelectionIdentifier>${escapeXml(s)}</SelectionIdentifier>`;
      if (e.otherSelectionText !== undefined) inner += `<OtherSelectionText>${escapeXml(e.otherSelectionText)}</OtherSelectionText>`;
      if (e.freeText !== undefined) inner += `<FreeText>${escapeXml(e.freeText)}</FreeText>`;
      return `<Answer>${inner}</Answer>`;
    })
    .join('');
  return `${PROLOG}<QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NS}">${body}</QuestionFormAnswers>`;
}

/**
 * A submitted HTML form (HTMLQuestion / ExternalQuestion) as MTurk records it: one FreeText
 * Answer per field, in the form's order; a field sent several times (checkboxes) holds its
 * values joined by `|`; the `assignmentId` field is MTurk's, not an answer.
 */
export function formAnswersXml(fields: FormFields): string {
  return answersXml(
    Object.entries(fields)
      .filter(([name]) => name !== 'assignmentId')
      .map(([name, value]) => ({ questionIdentifier: name, freeText: Array.isArray(value) ? value.join('|') : value })),
  );
}

/**
 * Answers to a QuestionForm (a qualification test, or a HIT asking a QuestionForm):
 * selection ids for multiple-choice questions, text otherwise; questions left
 * unanswered are left out, selections the question does not offer are refused.
 */
export function questionFormAnswerEntries(form: QuestionForm, answers: FormFields): AnswerEntry[] {
  return form.questions
    .filter((q) => answers[q.id] !== undefined)
    .map((q) => {
      const given = answers[q.id]!;
      const values = Array.isArray(given) ? given : [given];
      if (q.answer.kind === 'selection') {
        const known = new Set(q.answer.selections.map((s) => s.id));
        for (const v of values)
          if (!known.has(v))
            throw new DomainError('ValidationException', `answers.${q.id}: "${v}" is not one of the question's selections`);
        return { questionIdentifier: q.id, selections: values };
      }
      return { questionIdentifier: q.id, freeText: values.join('|') };
    });
}

/** Reads a QuestionFormAnswers document back (tests, scoring of qualification tests). */
export function parseAnswersXml(xml: string): AnswerEntry[] {
  const root = rootOf(parseXml(xml, 'Answer', ['Answer', 'SelectionIdentifier']));
  if (root?.name !== 'QuestionFormAnswers') return [];
  return children(root.node, 'Answer').map((a) => {
    const selections = children(a, 'SelectionIdentifier').map((s) => text(s) ?? '');
    const freeText = childText(a, 'FreeText');
    const other = childText(a, 'OtherSelectionText');
    return {
      questionIdentifier: childText(a, 'QuestionIdentifier') ?? '',
      ...(freeText !== undefined ? { freeText } : {}),
      ...(selections.length > 0 ? { selections } : {}),
      ...(other !== undefined ? { otherSelectionText: other } : {}),
    };
  });
}
