export type JsonObjectLine = { ok: true; value: Record<string, unknown> } | { ok: false; reason: string };

const POSITION = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?$|\s*at position (\d+)(?: \(line \d+ column \d+\))?$/;
const QUOTED_SOURCE = /, ".*" is not valid JSON$/s;

/**
 * A readable reason for a JSON.parse failure: V8's message without the echoed input, and
 * the column (counted from 1) when V8 reports a position.
 */
export function jsonSyntaxReason(message: string): string {
  if (message === 'Unexpected end of JSON input') {
    return 'invalid JSON: the line ends before the record does (each record must be on one line)';
  }
  let text = message.replace(QUOTED_SOURCE, '');
  const position = POSITION.exec(text);
  let where = '';
  if (position) {
    text = text.slice(0, position.index);
    where = ` at column ${Number(position[1] ?? position[2]) + 1}`;
  }
  return `invalid JSON${where}: ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `a ${typeof value}`;
}

const INTEGER = /^[+-]?\d+$/;

/**
 * The qrels format a line not in JSON is written in, if it is one: TREC (`query_id iter
 * doc_id relevance`, four columns, an integer grade) or BEIR tsv (its header, or three
 * tab-separated columns ending in an integer grade).
 */
export function qrelsLineFormat(text: string): 'TREC' | 'BEIR tsv' | undefined {
  const line = text.trim();
  const tabs = line.split('\t');
  if (/^query-id\s+corpus-id\s+score$/.test(line) || (tabs.length === 3 && INTEGER.test(tabs[2]!.trim()))) return 'BEIR tsv';
  const columns = line.split(/\s+/);
  return columns.length === 4 && INTEGER.test(columns[3]!) ? 'TREC' : undefined;
}

/** Why a line of qrels cannot be imported, and where qrels go instead. */
function qrelsReason(format: 'TREC' | 'BEIR tsv'): string {
  return `this is ${format} qrels, not a JSON record: qrelay import takes JSONL (escalated cases, gold items, consensus labels); give qrels to \`qrelay export-qrels --base <file>\` (the base the crowd's labels are merged into) or to \`qrelay evaluate --qrels <file>\``;
}

/** Parses one line, which must hold one JSON object; a line of qrels is named as such. */
export function parseJsonObject(text: string): JsonObjectLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const qrels = qrelsLineFormat(text);
    if (qrels) return { ok: false, reason: qrelsReason(qrels) };
    return { ok: false, reason: jsonSyntaxReason(err instanceof Error ? err.message : String(err)) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, reason: `expected one JSON object ({...}) per line, got ${kindOf(value)}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
