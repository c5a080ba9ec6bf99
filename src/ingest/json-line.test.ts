import { describe, expect, it } from 'vitest';
import { jsonSyntaxReason, parseJsonObject, qrelsLineFormat } from './json-line.js';

function reasonOf(text: string): string {
  const parsed = parseJsonObject(text);
  if (parsed.ok) throw new Error('expected a failure');
  return parsed.reason;
}

describe('parseJsonObject', () => {
  it('returns the object of a line', () => {
    expect(parseJsonObject('{"a": [1, "x"]}')).toEqual({ ok: true, value: { a: [1, 'x'] } });
  });

  it('gives the column of a syntax error when the parser knows it', () => {
    expect(reasonOf('{"a": 1,}')).toBe('invalid JSON at column 9: expected double-quoted property name');
    expect(reasonOf('{"a": 1 "b": 2}')).toMatch(/^invalid JSON at column 9: expected ',' or '}' after property value/);
  });

  it('does not echo the line back', () => {
    const reason = reasonOf(`{"a": tru, "secret": "${'x'.repeat(500)}"}`);
    expect(reason).toMatch(/^invalid JSON/);
    expect(reason).not.toContain('xxxx');
  });

  it('explains a record cut at the end of the line', () => {
    expect(reasonOf('{"a": 1')).toMatch(/^invalid JSON/);
    expect(reasonOf('{')).toMatch(/^invalid JSON/);
    expect(jsonSyntaxReason('Unexpected end of JSON input')).toBe(
      'invalid JSON: the line ends before the record does (each record must be on one line)',
    );
  });

  it('refuses lines that are JSON but not an object', () => {
    expect(reasonOf('[1, 2]')).toBe('expected one JSON object ({...}) per line, got a list');
    expect(reasonOf('"text"')).toBe('expected one JSON object ({...}) per line, got a string');
    expect(reasonOf('null')).toBe('expected one JSON object ({...}) per line, got null');
    expect(reasonOf('3')).toBe('expected one JSON object ({...}) per line, got a number');
  });

  it('strips the position suffix newer V8 versions add', () => {
    expect(jsonSyntaxReason("Expected ',' or '}' after property value in JSON at position 7 (line 1 column 8)")).toBe(
      "invalid JSON at column 8: expected ',' or '}' after property value",
    );
  });

  it('names a line of qrels and says where qrels go', () => {
    expect(reasonOf('q1 0 doc7 2')).toBe(
      "this is TREC qrels, not a JSON record: qrelay import takes JSONL (escalated cases, gold items, consensus labels); give qrels to `qrelay export-qrels --base <file>` (the base the crowd's labels are merged into) or to `qrelay evaluate --qrels <file>`",
    );
    expect(reasonOf('query-id\tcorpus-id\tscore')).toMatch(
      /^this is BEIR tsv qrels, not a JSON record: .*export-qrels --base .*evaluate --qrels/,
    );
  });
});

describe('qrelsLineFormat', () => {
  it('tells TREC and BEIR qrels lines from other text', () => {
    expect(qrelsLineFormat('q1 0 doc7 1')).toBe('TREC');
    expect(qrelsLineFormat('q1\tQ0\tdoc7\t-1\r')).toBe('TREC');
    expect(qrelsLineFormat('query-id\tcorpus-id\tscore')).toBe('BEIR tsv');
    expect(qrelsLineFormat('q1\tdoc7\t2')).toBe('BEIR tsv');
    // a TREC run line (six columns), four words of prose, a broken JSON record
    expect(qrelsLineFormat('q1 Q0 doc7 1 12.5 bm25')).toBeUndefined();
    expect(qrelsLineFormat('this is not qrels')).toBeUndefined();
    expect(qrelsLineFormat('{"query_id": "q1" 0 d 1')).toBeUndefined();
  });
});
