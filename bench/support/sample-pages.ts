import { XMLParser } from 'fast-xml-parser';
import type { EscalatedCase, GoldItem } from '../../src/domain/cases.js';
import { readRecords } from '../../src/ingest/index.js';

/** The records of an escalations or gold file, parsed as `qrelay import` parses them. */
export async function loadRecords<K extends 'escalations' | 'gold'>(file: string, kind: K) {
  const out: (K extends 'gold' ? GoldItem : EscalatedCase)[] = [];
  for await (const { record } of readRecords(file, kind)) out.push(record as K extends 'gold' ? GoldItem : EscalatedCase);
  return out;
}

const xmlParser = new XMLParser({ parseTagValue: false, trimValues: false });

/** The HTML page inside an HTMLQuestion's XML. */
export const htmlOfQuestion = (xml: string): string =>
  (xmlParser.parse(xml) as { HTMLQuestion: { HTMLContent: string } }).HTMLQuestion.HTMLContent;
