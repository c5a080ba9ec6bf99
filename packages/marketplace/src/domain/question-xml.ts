import { readQuestionForm, QUESTION_FORM_ARRAYS, type QuestionForm } from './question-form.js';
import { childText, parseError, parseXml, rootOf } from './xml.js';

/** A HIT's Question: HTMLQuestion, ExternalQuestion or QuestionForm. */
export type Question =
  | { kind: 'HTMLQuestion'; html: string; frameHeight: number }
  | { kind: 'ExternalQuestion'; url: string; frameHeight: number }
  | { kind: 'QuestionForm'; form: QuestionForm };

export const MAX_XML_BYTES = 65_535;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function frameHeight(value: string | undefined, what: string): number {
  if (value === undefined) throw parseError(what, 'FrameHeight is required (0 lets the worker site size the frame)');
  if (!/^\d+$/.test(value)) throw parseError(what, `FrameHeight must be a whole number of pixels, got "${value}"`);
  return Number(value);
}

export function checkXmlSize(xml: string, what: string): void {
  const bytes = Buffer.byteLength(xml, 'utf8');
  if (bytes > MAX_XML_BYTES) throw parseError(what, `it is ${bytes} bytes long; at most ${MAX_XML_BYTES} bytes are allowed`);
}

export function parseQuestion(xml: string, what = 'Question'): Question {
  checkXmlSize(xml, what);
  const root = rootOf(parseXml(xml, what, QUESTION_FORM_ARRAYS));
  switch (root?.name) {
    case 'HTMLQuestion': {
      const html = childText(root.node, 'HTMLContent');
      if (!html) throw parseError(what, 'an HTMLQuestion needs a non-empty HTMLContent');
      return { kind: 'HTMLQuestion', html, frameHeight: frameHeight(childText(root.node, 'FrameHeight'), what) };
    }
    case 'ExternalQuestion': {
      const url = childText(root.node, 'ExternalURL');
      if (!url) throw parseError(what, 'an ExternalQuestion needs an ExternalURL');
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw parseError(what, `ExternalURL is not a URL: ${url}`);
      }
      // MTurk requires HTTPS; plain HTTP is allowed for this machine only (local development)
      if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname))) {
        throw parseError(what, `ExternalURL must use HTTPS (plain HTTP only for localhost), got ${url}`);
      }
      return { kind: 'ExternalQuestion', url, frameHeight: frameHeight(childText(root.node, 'FrameHeight'), what) };
    }
    case 'QuestionForm':
      return { kind: 'QuestionForm', form: readQuestionForm(root.node, what) };
    default:
      throw parseError(what, `the root element must be HTMLQuestion, ExternalQuestion or QuestionForm${root ? `, got ${root.name}` : ''}`);
  }
}

/** A qualification test: a QuestionForm and nothing else. */
export function parseTest(xml: string, what = 'Test'): QuestionForm {
  checkXmlSize(xml, what);
  const root = rootOf(parseXml(xml, what, QUESTION_FORM_ARRAYS));
  if (root?.name !== 'QuestionForm')
    throw parseError(what, `a qualification test must be a QuestionForm${root ? `, got ${root.name}` : ''}`);
  return readQuestionForm(root.node, what);
}
