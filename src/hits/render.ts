import Handlebars from 'handlebars';
import type { DebateTurn, Judgment, Stance } from '../domain/cases.js';
import { canaryText } from './canary.js';
import { summariseDebate } from './debate-view.js';
import { COMMENT_MAX_LENGTH, itemFields } from './fields.js';
import { highlightChunk, type EvidenceQuote } from './highlight.js';
import { loadHitTemplates, type HitTemplates } from './templates.js';

/** MTurk's limit on a Question (and on a qualification Test or AnswerKey), in UTF-8 bytes. */
export const MAX_QUESTION_BYTES = 65_535;

export const HTML_QUESTION_NS = 'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd';

export const DEFAULT_PAGE_TITLE = 'Does the chunk hold the evidence? Judge query–chunk pairs';

/** One judged item as the page shows it; real items and attention checks alike. */
export interface HitPageItem {
  /** 1-based position on the page; names the item's form fields. */
  position: number;
  /** The opaque `data-sim-key`. */
  key: string;
  query: string;
  answers: readonly string[];
  chunk: string;
  debate: readonly DebateTurn[];
}

export interface HitPageInput {
  items: readonly HitPageItem[];
  /** Hide the agents' debate (and its highlights): the paper's "without history" arm. */
  hideDebate: boolean;
  /** Carry each item's hidden canary instruction (canary.ts); default true. */
  canary?: boolean;
  title?: string;
}

const STANCE_TEXT: Record<Stance, string> = { relevant: 'relevant', irrelevant: 'not relevant' };
const LABEL_TEXT: Record<Judgment, string> = { yes: 'yes, enough evidence', no: 'no, not enough evidence' };

function checkItems(items: readonly HitPageItem[]): void {
  if (items.length === 0) throw new RangeError('a HIT page needs at least one item');
  const keys = new Set<string>();
  items.forEach((item, i) => {
    if (item.position !== i + 1)
      throw new RangeError(`HIT page items must be in positions 1..${items.length} in order; item ${i + 1} has position ${item.position}`);
    if (keys.has(item.key)) throw new RangeError(`two items of one HIT page share the key ${item.key}`);
    keys.add(item.key);
  });
}

/**
 * The HIT page (a full HTML document) for these items. Every text from a case goes through
 * Handlebars' escaping or the highlighter's; the page loads nothing from the network.
 */
export function renderHitPage(input: HitPageInput, templates: HitTemplates = loadHitTemplates()): string {
  checkItems(input.items);
  const items = input.items.map((item) => {
    const agents = input.hideDebate ? [] : summariseDebate(item.debate);
    const quotes: EvidenceQuote[] = agents.flatMap((a) => a.references.map((text) => ({ text, agent: a.index })));
    return {
      position: item.position,
      key: item.key,
      query: item.query,
      answers: item.answers,
      chunkHtml: new Handlebars.SafeString(highlightChunk(item.chunk, quotes)),
      agents: agents.map((a) => ({ ...a, stanceText: STANCE_TEXT[a.initialStance], labelText: LABEL_TEXT[a.finalLabel] })),
      fields: itemFields(item.position),
      canary: input.canary === false ? '' : canaryText(item.key),
    };
  });
  return narrowPage(
    templates.page({
      title: input.title ?? DEFAULT_PAGE_TITLE,
      hideDebate: input.hideDebate,
      commentMaxLength: COMMENT_MAX_LENGTH,
      items,
      style: templates.style,
      script: templates.script,
      csp: templates.csp,
    }),
  );
}

/**
 * Characters that make a JavaScript string two bytes a character (above U+00FF), astral ones
 * as their surrogate pair; not U+FFFE, U+FFFF nor lone surrogates, which toXmlChars replaces.
 */
const WIDE_CHAR = /[\u0100-\uD7FF\uE000-\uFFFD]|[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Pages with more wide characters than this are left as they are (written as references they would grow by half or more). */
export const NARROW_UP_TO = 64;

/**
 * A page with a few characters above U+00FF (a title's en dash, a chunk's curly quotes)
 * with each of them written as a numeric character reference (pure): the same page to a
 * browser and to an HTML parser, whose text is then one byte a character. One such
 * character makes a whole page a two-byte string: twice the memory, and every encoding,
 * decoding and copy of it slower (UTF-8 decoding of a 42 KB page 0.29 ms against 0.03 ms),
 * for every HIT frame served and read, every question listed. The page's templates are
 * ASCII, so these characters only come from the escaped texts of its items and title, in
 * text and attribute values, where references are read as the characters they name (the
 * page has no comment, and its style and script are the templates' own).
 */
export function narrowPage(html: string): string {
  const wide = html.match(WIDE_CHAR);
  if (!wide || wide.length > NARROW_UP_TO) return html;
  return html.replace(WIDE_CHAR, (c) => `&#${c.codePointAt(0)!};`);
}

// Characters XML 1.0 forbids anywhere, even in CDATA: C0 controls other than tab/LF/CR,
// lone surrogates, U+FFFE and U+FFFF. Chunks scraped from the web do contain them.
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces characters XML cannot carry with U+FFFD. */
export const toXmlChars = (text: string): string => text.replace(NOT_XML_CHAR, '\uFFFD');

/**
 * Wraps an HTML document as MTurk's HTMLQuestion. The HTML goes in one CDATA section;
 * a `]]>` inside it is split across two sections so it cannot end the first one early.
 * `frameHeight` 0 lets MTurk size the frame to the worker's window.
 */
export function toHtmlQuestionXml(html: string, frameHeight: number): string {
  if (!Number.isSafeInteger(frameHeight) || frameHeight < 0)
    throw new RangeError(`frameHeight must be a whole number of pixels >= 0, got ${frameHeight}`);
  const cdata = toXmlChars(html).replaceAll(']]>', ']]]]><![CDATA[>');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<HTMLQuestion xmlns="${HTML_QUESTION_NS}"><HTMLContent><![CDATA[\n${cdata}\n]]></HTMLContent>` +
    `<FrameHeight>${frameHeight}</FrameHeight></HTMLQuestion>`
  );
}

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
