import { checkXml, createXmlParser } from '../xml-reader.js';
import { DomainError } from './errors.js';

/** Parsing of the XML documents MTurk exchanges (questions, tests, answer keys, answers). */

export type XmlNode = string | { [tag: string]: XmlNode | XmlNode[] | undefined };

export function parseError(what: string, detail: string): DomainError {
  return new DomainError(
    'XMLParseError',
    `There was an error parsing the XML in ${what}. Make sure the data is well-formed and validates against the appropriate schema. Details: ${detail}`,
  );
}

/** Parses `xml` with the one XML reader (xml-reader.ts), reporting where it is malformed; elements named in `arrays` are always lists. */
export function parseXml(xml: string, what: string, arrays: readonly string[]): Record<string, XmlNode> {
  const problem = checkXml(xml);
  if (problem?.kind === 'declaration') throw parseError(what, 'DOCTYPE and ENTITY declarations are not allowed');
  if (problem) throw parseError(what, `line ${problem.line}, column ${problem.column}: ${problem.message}`);
  const parser = createXmlParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    trimValues: true,
    isArray: (name) => arrays.includes(name),
  });
  return parser.parse(xml) as Record<string, XmlNode>;
}

export function child(node: XmlNode | XmlNode[] | undefined, tag: string): XmlNode | XmlNode[] | undefined {
  if (node === undefined || typeof node === 'string' || Array.isArray(node)) return undefined;
  return node[tag];
}

export function children(node: XmlNode | XmlNode[] | undefined, tag: string): XmlNode[] {
  const c = child(node, tag);
  if (c === undefined) return [];
  return Array.isArray(c) ? c : [c];
}

/** The text of an element (empty elements parse as ''). */
export function text(node: XmlNode | XmlNode[] | undefined): string | undefined {
  if (node === undefined) return undefined;
  if (typeof node === 'string') return node;
  if (Array.isArray(node)) return text(node[0]);
  const t = node['#text'];
  return typeof t === 'string' ? t : Object.keys(node).length === 0 ? '' : undefined;
}

export function childText(node: XmlNode | XmlNode[] | undefined, tag: string): string | undefined {
  return text(child(node, tag));
}

export function rootOf(doc: Record<string, XmlNode>): { name: string; node: XmlNode } | undefined {
  const names = Object.keys(doc).filter((k) => !k.startsWith('?') && k !== '#text');
  if (names.length !== 1) return undefined;
  const name = names[0]!;
  return { name, node: doc[name]! };
}

/** Escapes text for XML, writing every non-ASCII character as a character reference (MTurk answers are ASCII). */
export function escapeXml(value: string): string {
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else if (cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp < 0x7f)) out += ch;
    else if (cp < 0x20 || (cp >= 0xfffe && cp <= 0xffff))
      continue; // not allowed in XML 1.0 at all
    else out += `&#${cp};`;
  }
  return out;
}
