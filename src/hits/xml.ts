import type { XMLParser } from 'fast-xml-parser';
import { checkXml } from '@qrelay/marketplace/xml';
import { UserError } from '../errors.js';

/**
 * XML reading shared by answer parsing and qualification tests, with the decisions of the
 * one XML reader (`@qrelay/marketplace/xml`: no DOCTYPE, exactly XML's entities, line and
 * column of a malformation); here its problems become qrelay's errors.
 */

export { createXmlParser, decodeXmlEntities, isXmlChar } from '@qrelay/marketplace/xml';

/** Checks `xml` and parses it; problems become `ErrorType` naming `what`. */
export function readXml(xml: string, parser: XMLParser, what: string, ErrorType: new (message: string) => Error = UserError): unknown {
  const problem = checkXml(xml);
  if (problem?.kind === 'declaration') throw new ErrorType(`${what} must not contain a DOCTYPE`);
  if (problem) throw new ErrorType(`${what} is not well-formed XML: line ${problem.line}, column ${problem.column}: ${problem.message}`);
  return parser.parse(xml);
}
