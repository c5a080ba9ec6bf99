import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { ASSIGNMENT_ID_FIELD, parseItemField } from './fields.js';
import type { PlannedItem } from './plan-schema.js';
import { createXmlParser, decodeXmlEntities, isXmlChar, readXml } from './xml.js';

/**
 * Reads a worker's submission (MTurk's `Assignment.Answer`) back into per-item answers.
 * The XML is `QuestionFormAnswers`: one `<Answer>` per submitted form field, holding
 * `<QuestionIdentifier>` and `<FreeText>` (or `<SelectionIdentifier>`s for QuestionForm
 * selections). A crowd-form page submits one field, `taskAnswers`, holding JSON.
 */

export class AnswerFormatError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'AnswerFormatError';
  }
}

export interface ItemAnswer {
  position: number;
  key: string;
  kind: PlannedItem['kind'];
  /** null: the worker left the item unanswered. */
  answer: Judgment | null;
  difficult: boolean;
  comment: string;
  /** Time on the item in whole milliseconds; null when absent or not a number. */
  ms: number | null;
  /** Page events the HIT page counted on the item (0 when absent or not a count). */
  copies: number;
  pastes: number;
  focusLosses: number;
}

export interface ParsedAssignment {
  /** One entry per planned item, in page order. */
  items: ItemAnswer[];
  /** Positions without an answer. */
  missing: number[];
  /** Submitted fields the page does not define (ignored). */
  unknownFields: string[];
}

const parser = createXmlParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  trimValues: false,
  isArray: (name) => ['Answer', 'SelectionIdentifier'].includes(name),
});

const asText = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** Every submitted field and its value, in order. Throws AnswerFormatError on bad XML. */
export function parseAnswerFields(answerXml: string): Map<string, string> {
  const fields = canonicalAnswerFields(answerXml) ?? readAnswerFields(answerXml);
  if (fields.has('taskAnswers')) return crowdFormFields(fields.get('taskAnswers') as string);
  return fields;
}

// A QuestionFormAnswers document as MTurk (and the marketplace) writes it: ASCII, one line,
// its prolog, the root with its namespace, then <Answer>s of a QuestionIdentifier and an
// optional FreeText, without whitespace between elements.
const CANONICAL_HEAD = /^<\?xml version="1\.0" encoding="(?:ASCII|UTF-8)"\?><QuestionFormAnswers xmlns="[^"<>&]*">/;
const CANONICAL_TEXT = '[^<&]*(?:&(?:lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9a-fA-F]{1,6});[^<&]*)*';
const CANONICAL_ANSWER = new RegExp(
  `<Answer><QuestionIdentifier>(${CANONICAL_TEXT})</QuestionIdentifier>(?:<FreeText>(${CANONICAL_TEXT})</FreeText>)?</Answer>`,
  'y',
);
const CANONICAL_TAIL = '</QuestionFormAnswers>';
/** Printable ASCII, tabs and line feeds: no carriage return (XML reads CR LF as LF) nor control character. */
const CANONICAL_CHARS = /^[\t\n\x20-\x7e]*$/;
const NUMERIC_REFERENCE = /&#(x[0-9a-fA-F]+|[0-9]+);/g;

/** Whether every numeric character reference in `text` names a character XML allows. */
function referencesAllowed(text: string): boolean {
  for (const m of text.matchAll(NUMERIC_REFERENCE)) {
    const ref = m[1]!;
    if (!isXmlChar(ref.startsWith('x') ? parseInt(ref.slice(1), 16) : parseInt(ref, 10))) return false;
  }
  return true;
}

/**
 * The fields of a canonical QuestionFormAnswers document (see above) read without the XML
 * parser, or undefined for any other document, which the parser reads (pure). A round reads
 * every new assignment's answer: with the parser's check and parse about 0.85 ms a HIT of the
 * paper's batch. Anything the canonical form leaves out (whitespace between elements, CDATA,
 * comments, prefixes, selections, a field named twice or without a name, a carriage return,
 * a reference to a character XML forbids) goes to the parser, which gives its answer or its
 * error; what this reads, it reads as the parser does (tested on random documents).
 */
export function canonicalAnswerFields(xml: string): Map<string, string> | undefined {
  if (!CANONICAL_CHARS.test(xml) || xml.includes(']]>') || (xml.includes('&#') && !referencesAllowed(xml))) return undefined;
  const head = CANONICAL_HEAD.exec(xml);
  if (!head) return undefined;
  const fields = new Map<string, string>();
  let at = head[0].length;
  for (;;) {
    CANONICAL_ANSWER.lastIndex = at;
    const m = CANONICAL_ANSWER.exec(xml);
    if (!m) break;
    at = CANONICAL_ANSWER.lastIndex;
    const name = decodeXmlEntities(m[1]!).trim();
    if (!name || fields.has(name)) return undefined;
    fields.set(name, m[2] === undefined ? '' : decodeXmlEntities(m[2]));
  }
  return xml.length - at === CANONICAL_TAIL.length && xml.endsWith(CANONICAL_TAIL) ? fields : undefined;
}

/** Every field of any QuestionFormAnswers document, read by the XML parser (pure). Throws AnswerFormatError on bad XML. */
export function readAnswerFields(answerXml: string): Map<string, string> {
  const doc = readXml(answerXml, parser, 'assignment answer', AnswerFormatError) as Record<string, unknown>;
  const root = doc.QuestionFormAnswers;
  if (root === undefined) {
    const found = Object.keys(doc).filter((k) => !k.startsWith('#'))[0] ?? 'nothing';
    throw new AnswerFormatError(`assignment answer must be a QuestionFormAnswers document, found <${found}>`);
  }
  const answers =
    typeof root === 'object' && root !== null ? (((root as Record<string, unknown>).Answer as unknown[] | undefined) ?? []) : [];
  const fields = new Map<string, string>();
  answers.forEach((entry, i) => {
    const answer = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const name = asText(answer.QuestionIdentifier)?.trim();
    if (!name) throw new AnswerFormatError(`assignment answer: <Answer> number ${i + 1} has no QuestionIdentifier`);
    if (fields.has(name)) throw new AnswerFormatError(`assignment answer: field ${JSON.stringify(name)} appears twice`);
    const free = answer.FreeText;
    const selections = answer.SelectionIdentifier as unknown[] | undefined;
    let value: string;
    if (free !== undefined) value = asText(free) ?? '';
    else if (selections) value = selections.map((s) => asText(s) ?? '').join('|');
    else value = '';
    fields.set(name, value);
  });
  return fields;
}

/**
 * crowd-form's `taskAnswers`: a JSON array holding one object of fields. A field is a
 * string or number, a checkbox `{on: true}`, a radio group `{yes: true, no: false}`, a
 * classifier `{label: "yes"}`, or (native radios) one key per value, `"name.value": true`.
 */
function crowdFormFields(json: string): Map<string, string> {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (err) {
    throw new AnswerFormatError(`assignment answer: taskAnswers is not JSON (${(err as Error).message})`);
  }
  const record = Array.isArray(data) ? data[0] : data;
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new AnswerFormatError('assignment answer: taskAnswers must be a JSON array holding one object of fields');
  }
  const fields = new Map<string, string>();
  const isOn = (v: unknown) => v === true || (typeof v === 'object' && v !== null && (v as Record<string, unknown>).on === true);
  for (const [name, value] of Object.entries(record as Record<string, unknown>)) {
    const dotted = /^(.+)\.([^.]+)$/.exec(name);
    if (dotted && parseItemField(dotted[1] as string) && typeof value !== 'string') {
      if (isOn(value)) fields.set(dotted[1] as string, dotted[2] as string);
      continue;
    }
    const text = asText(value);
    if (text !== undefined) fields.set(name, text);
    else if (typeof value === 'boolean') fields.set(name, value ? 'yes' : '');
    else if (typeof value === 'object' && value !== null) {
      const obj = value as Record<string, unknown>;
      if (typeof obj.label === 'string') fields.set(name, obj.label);
      else if (obj.on === true) fields.set(name, 'yes');
      else {
        const chosen = Object.entries(obj)
          .filter(([, v]) => isOn(v))
          .map(([k]) => k);
        if (chosen.length > 0) fields.set(name, chosen.join('|'));
      }
    }
  }
  return fields;
}

const TRUE_WORDS = new Set(['yes', 'on', 'true', '1']);

/**
 * The answers to one HIT's planned items. A missing answer is `null` (see `missing`);
 * an answer other than yes/no, or a field of a position the HIT does not have, is an error.
 */
export function parseAssignmentAnswer(
  answerXml: string,
  items: readonly Pick<PlannedItem, 'position' | 'key' | 'kind'>[],
): ParsedAssignment {
  const fields = parseAnswerFields(answerXml);
  const byPosition = new Map(items.map((item) => [item.position, item]));
  const unknownFields: string[] = [];
  for (const name of fields.keys()) {
    const field = parseItemField(name);
    if (field && !byPosition.has(field.position)) {
      throw new AnswerFormatError(
        `assignment answer has field ${JSON.stringify(name)}, but the HIT has items at positions 1..${items.length} only`,
      );
    }
    if (!field && name !== ASSIGNMENT_ID_FIELD) unknownFields.push(name);
  }
  const parsed = items.map((item): ItemAnswer => {
    const get = (kind: string) => fields.get(`item${item.position}_${kind}`);
    const raw = get('answer')?.trim().toLowerCase();
    if (raw !== undefined && raw !== '' && raw !== 'yes' && raw !== 'no') {
      throw new AnswerFormatError(
        `assignment answer: item${item.position}_answer must be "yes" or "no", got ${JSON.stringify(get('answer'))}`,
      );
    }
    const ms = get('ms')?.trim();
    const events = (kind: string) => {
      const v = get(kind)?.trim();
      return v !== undefined && /^\d{1,6}$/.test(v) ? Number(v) : 0;
    };
    return {
      position: item.position,
      key: item.key,
      kind: item.kind,
      answer: raw === 'yes' || raw === 'no' ? raw : null,
      difficult: TRUE_WORDS.has(get('difficult')?.trim().toLowerCase() ?? ''),
      comment: get('comment')?.trim() ?? '',
      ms: ms !== undefined && /^\d{1,12}$/.test(ms) ? Number(ms) : null,
      copies: events('copies'),
      pastes: events('pastes'),
      focusLosses: events('focus_losses'),
    };
  });
  return { items: parsed, missing: parsed.filter((p) => p.answer === null).map((p) => p.position), unknownFields };
}

/** Throws when any item is unanswered, naming them; for callers that need a complete assignment. */
export function assertComplete(parsed: ParsedAssignment, where = 'assignment'): void {
  if (parsed.missing.length === 0) return;
  const fields = parsed.missing.map((p) => `item${p}_answer`).join(', ');
  throw new AnswerFormatError(`${where} is incomplete: no answer for ${parsed.missing.length} of ${parsed.items.length} items (${fields})`);
}
