import { child, childText, children, parseError, text, type XmlNode } from './xml.js';

/** The QuestionForm data structure: questions of HITs and qualification tests. */

export interface Selection {
  id: string;
  text: string;
}

export type AnswerSpecification =
  | { kind: 'selection'; minSelections: number; maxSelections: number; style?: string; selections: Selection[]; otherSelection: boolean }
  | { kind: 'freeText'; defaultText?: string; lines?: number }
  | { kind: 'fileUpload' };

export interface FormQuestion {
  id: string;
  displayName?: string;
  required: boolean;
  /** The plain Text elements of the question content. */
  text: string[];
  /** FormattedContent elements (XHTML subset), as written. */
  formattedContent: string[];
  answer: AnswerSpecification;
}

export interface QuestionForm {
  overview: { text: string[]; formattedContent: string[] };
  questions: FormQuestion[];
}

export const QUESTION_FORM_ARRAYS = ['Question', 'Selection', 'Text', 'FormattedContent', 'Overview'] as const;

function contentOf(node: XmlNode | XmlNode[] | undefined) {
  return {
    text: children(node, 'Text').map((t) => text(t) ?? ''),
    formattedContent: children(node, 'FormattedContent').map((t) => text(t) ?? ''),
  };
}

function count(value: string | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw parseError(what, `expected a whole number, got "${value}"`);
  return Number(value);
}

/** Reads a parsed QuestionForm root; `what` names the parameter in error messages. */
export function readQuestionForm(root: XmlNode, what: string): QuestionForm {
  const questions: FormQuestion[] = [];
  const seen = new Set<string>();
  for (const q of children(root, 'Question')) {
    const id = childText(q, 'QuestionIdentifier');
    if (!id) throw parseError(what, 'every Question needs a QuestionIdentifier');
    if (seen.has(id)) throw parseError(what, `QuestionIdentifier "${id}" is used twice`);
    seen.add(id);
    const spec = child(q, 'AnswerSpecification');
    let answer: AnswerSpecification;
    const selection = child(spec, 'SelectionAnswer');
    if (selection !== undefined) {
      const selectionsNode = child(selection, 'Selections');
      const selections = children(selectionsNode, 'Selection').map((s) => {
        const sid = childText(s, 'SelectionIdentifier');
        if (!sid) throw parseError(what, `question "${id}": every Selection needs a SelectionIdentifier`);
        return { id: sid, text: childText(s, 'Text') ?? text(child(s, 'FormattedContent')) ?? sid };
      });
      if (selections.length === 0) throw parseError(what, `question "${id}": a SelectionAnswer needs at least one Selection`);
      const ids = new Set(selections.map((s) => s.id));
      if (ids.size !== selections.length) throw parseError(what, `question "${id}": SelectionIdentifiers must be unique`);
      const style = childText(selection, 'StyleSuggestion');
      const multiple = style === 'checkbox' || style === 'multichooser';
      answer = {
        kind: 'selection',
        minSelections: count(childText(selection, 'MinSelectionCount'), 1, what),
        maxSelections: count(childText(selection, 'MaxSelectionCount'), multiple ? selections.length : 1, what),
        ...(style ? { style } : {}),
        selections,
        otherSelection: child(selectionsNode, 'OtherSelection') !== undefined,
      };
    } else if (child(spec, 'FreeTextAnswer') !== undefined) {
      const free = child(spec, 'FreeTextAnswer');
      const defaultText = childText(free, 'DefaultText');
      const lines = childText(free, 'NumberOfLinesSuggestion');
      answer = { kind: 'freeText', ...(defaultText ? { defaultText } : {}), ...(lines ? { lines: count(lines, 1, what) } : {}) };
    } else if (child(spec, 'FileUploadAnswer') !== undefined) {
      answer = { kind: 'fileUpload' };
    } else {
      throw parseError(what, `question "${id}" needs an AnswerSpecification with a SelectionAnswer, FreeTextAnswer or FileUploadAnswer`);
    }
    const displayName = childText(q, 'DisplayName');
    questions.push({
      id,
      ...(displayName ? { displayName } : {}),
      required: childText(q, 'IsRequired') !== 'false',
      ...contentOf(child(q, 'QuestionContent')),
      answer,
    });
  }
  if (questions.length === 0) throw parseError(what, 'a QuestionForm needs at least one Question');
  const overviews = children(root, 'Overview');
  return {
    overview: {
      text: overviews.flatMap((o) => contentOf(o).text),
      formattedContent: overviews.flatMap((o) => contentOf(o).formattedContent),
    },
    questions,
  };
}
