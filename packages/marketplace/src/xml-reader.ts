import { XMLParser, XMLValidator, type X2jOptions } from 'fast-xml-parser';

/**
 * The one XML reader of the marketplace and of qrelay (`@qrelay/marketplace/xml`), for the
 * documents MTurk exchanges (questions, tests, answer keys, answers). Decided once:
 * - no DOCTYPE or ENTITY declaration outside CDATA sections and comments (so no entity
 *   definitions and no entity expansion attacks; MTurk never sends one, while an
 *   HTMLQuestion's CDATA may well hold `<!DOCTYPE html>`);
 * - exactly XML's entities are decoded: the five named ones and numeric character
 *   references, in one pass (`&amp;lt;` reads as `&lt;`); HTML's named entities such as
 *   `&nbsp;` are not XML's and stay as written;
 * - well-formedness is checked first, and a problem names its line and column.
 */

const ENTITY = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Whether XML 1.0 allows the character of this code point. */
export const isXmlChar = (code: number): boolean =>
  code === 0x9 ||
  code === 0xa ||
  code === 0xd ||
  (code >= 0x20 && code <= 0xd7ff) ||
  (code >= 0xe000 && code <= 0xfffd) ||
  (code >= 0x10000 && code <= 0x10ffff);

function decodeEntity(_match: string, name: string): string {
  if (!name.startsWith('#')) return NAMED[name] as string;
  const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return isXmlChar(code) ? String.fromCodePoint(code) : '\uFFFD';
}

export const decodeXmlEntities = (text: string): string => text.replace(ENTITY, decodeEntity);

const entityDecoder: NonNullable<X2jOptions['entityDecoder']> = {
  decode: decodeXmlEntities,
  // entity definitions only come from a DOCTYPE, which checkXml refuses
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
};

/** A parser with the decisions above; `options` add the document's shape (arrays, order, attributes). */
export function createXmlParser(options: X2jOptions): XMLParser {
  return new XMLParser({ ...options, parseTagValue: false, ignoreDeclaration: true, ignorePiTags: true, entityDecoder });
}

export type XmlProblem = { kind: 'declaration' } | { kind: 'malformed'; line: number; column: number; message: string };

/** What is wrong with `xml` before it may be parsed, or null. */
export function checkXml(xml: string): XmlProblem | null {
  const markup = xml.replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  if (/<!DOCTYPE/i.test(markup) || /<!ENTITY/i.test(markup)) return { kind: 'declaration' };
  const valid = XMLValidator.validate(xml);
  if (valid !== true) return { kind: 'malformed', line: valid.err.line, column: valid.err.col, message: valid.err.msg };
  return null;
}
