import { createXmlParser } from '../xml-reader.js';
import type { QuestionForm } from '../domain/question-form.js';
import { sanitizeFormattedContent } from './sanitize.js';

/**
 * A QuestionForm (a HIT's question or a qualification test) as the worker site shows it.
 * The domain's parse (domain/question-form.ts) gives the questions and what answers they
 * take; the content is read again here in document order, because a person needs it in
 * order (text, then a list of answers, then more text), with titles and lists. The XML
 * was validated when the requester sent it. FormattedContent is sanitised; Binary,
 * Application and EmbeddedBinary content is left out.
 */

export type ContentBlock =
  | { kind: 'title'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'formatted'; html: string }
  | { kind: 'omitted'; what: string };

export type AnswerView =
  | { kind: 'selection'; multiple: boolean; dropdown: boolean; options: { id: string; text: string; inputId: string }[] }
  | { kind: 'freeText'; lines: number; defaultText: string }
  | { kind: 'fileUpload' };

export interface QuestionView {
  id: string;
  number: number;
  /** The form field's name. */
  field: string;
  displayName?: string;
  required: boolean;
  content: ContentBlock[];
  answer: AnswerView;
}

export interface QuestionFormView {
  overview: ContentBlock[];
  questions: QuestionView[];
}

type Ordered = Record<string, unknown>[];

const parser = createXmlParser({
  preserveOrder: true,
  ignoreAttributes: true,
  removeNSPrefix: true,
  trimValues: true,
  cdataPropName: '__cdata',
});

function tagOf(node: Record<string, unknown>): string | undefined {
  return Object.keys(node).find((k) => k !== ':@');
}

function kids(node: Record<string, unknown> | undefined): Ordered {
  const tag = node ? tagOf(node) : undefined;
  const value = tag ? node![tag] : undefined;
  return Array.isArray(value) ? (value as Ordered) : [];
}

function textOf(nodes: Ordered): string {
  return nodes
    .map((n) => {
      const tag = tagOf(n);
      if (tag === '#text') return String(n['#text']);
      if (tag === '__cdata') return textOf(kids(n));
      return '';
    })
    .join('');
}

function find(nodes: Ordered, tag: string): Record<string, unknown> | undefined {
  return nodes.find((n) => tagOf(n) === tag);
}

function contentBlocks(nodes: Ordered): ContentBlock[] {
  const out: ContentBlock[] = [];
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === 'Title') out.push({ kind: 'title', text: textOf(kids(n)) });
    else if (tag === 'Text') out.push({ kind: 'text', text: textOf(kids(n)) });
    else if (tag === 'List')
      out.push({
        kind: 'list',
        items: kids(n)
          .filter((i) => tagOf(i) === 'ListItem')
          .map((i) => textOf(kids(i))),
      });
    else if (tag === 'FormattedContent') out.push({ kind: 'formatted', html: sanitizeFormattedContent(textOf(kids(n))) });
    else if (tag === 'Binary' || tag === 'Application' || tag === 'EmbeddedBinary') out.push({ kind: 'omitted', what: tag });
  }
  return out;
}

const MULTIPLE_STYLES = new Set(['checkbox', 'multichooser']);
const DROPDOWN_STYLES = new Set(['dropdown', 'combobox', 'list']);

/** `fieldName` names each question's form field (default: its QuestionIdentifier). */
export function questionFormView(
  xml: string,
  form: QuestionForm,
  fieldName: (id: string, index: number) => string = (id) => id,
): QuestionFormView {
  const doc = parser.parse(xml) as Ordered;
  const root = kids(find(doc, 'QuestionForm'));
  const overview = root.filter((n) => tagOf(n) === 'Overview').flatMap((o) => contentBlocks(kids(o)));
  const contentById = new Map<string, ContentBlock[]>();
  for (const q of root.filter((n) => tagOf(n) === 'Question')) {
    const id = textOf(kids(find(kids(q), 'QuestionIdentifier')));
    contentById.set(id, contentBlocks(kids(find(kids(q), 'QuestionContent'))));
  }
  return {
    overview,
    questions: form.questions.map((q, i) => {
      const field = fieldName(q.id, i);
      let answer: AnswerView;
      if (q.answer.kind === 'selection') {
        const multiple = q.answer.maxSelections > 1 || MULTIPLE_STYLES.has(q.answer.style ?? '');
        answer = {
          kind: 'selection',
          multiple,
          dropdown: !multiple && DROPDOWN_STYLES.has(q.answer.style ?? ''),
          options: q.answer.selections.map((s, j) => ({ id: s.id, text: s.text, inputId: `q${i + 1}-${j + 1}` })),
        };
      } else if (q.answer.kind === 'freeText') {
        answer = { kind: 'freeText', lines: Math.min(Math.max(q.answer.lines ?? 1, 1), 20), defaultText: q.answer.defaultText ?? '' };
      } else {
        answer = { kind: 'fileUpload' };
      }
      return {
        id: q.id,
        number: i + 1,
        field,
        ...(q.displayName !== undefined ? { displayName: q.displayName } : {}),
        required: q.required,
        content: contentById.get(q.id) ?? q.text.map((text) => ({ kind: 'text' as const, text })),
        answer,
      };
    }),
  };
}
