import { describe, expect, it } from 'vitest';
import { detectQrelsFormat, parseQrelsText } from './qrels-parse.js';

const grades = (text: string, file = 'q.txt') => {
  const { qrels } = parseQrelsText(text, file);
  return Object.fromEntries([...qrels].map(([q, docs]) => [q, Object.fromEntries(docs)]));
};

describe('TREC qrels', () => {
  it('reads qid iter docid rel with any whitespace, graded and negative grades, CRLF and a BOM', () => {
    const text = '\uFEFFq1 0 d1 2\r\nq1\t0  d2 0\r\n\r\nq2 Q0 d1 -1\n';
    expect(grades(text)).toEqual({ q1: { d1: 2, d2: 0 }, q2: { d1: -1 } });
    const result = parseQrelsText(text, 'q.txt');
    expect(result).toMatchObject({ format: 'trec', pairs: 3, duplicates: 0 });
  });

  it('keeps a pair repeated with the same grade once and counts it', () => {
    const result = parseQrelsText('q1 0 d1 1\nq1 0 d1 1\n', 'q.txt');
    expect(result.pairs).toBe(1);
    expect(result.duplicates).toBe(1);
  });

  it('refuses a pair repeated with another grade, naming both lines', () => {
    expect(() => parseQrelsText('q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n', 'base.txt')).toThrow(
      'base.txt:3: query "q1" document "d1" has grade 2 here but grade 1 on line 1; keep one grade per (query, document)',
    );
  });

  it('names file, line and reason for malformed lines', () => {
    expect(() => parseQrelsText('q1 0 d1 1\nq1 0 d2\n', 'b.txt')).toThrow(
      'b.txt:2: expected 4 columns "qid iter docid rel" of TREC qrels ("qid iter docid rel"), found 3',
    );
    expect(() => parseQrelsText('q1 0 d1 yes\n', 'b.txt')).toThrow(
      'b.txt:1: rel (4th column) must be an integer relevance grade, found "yes"',
    );
    expect(() => parseQrelsText('q1 0 d1 1.5\n', 'b.txt')).toThrow(/b\.txt:1: .*found "1\.5"/);
  });

  it('refuses lines of another format in the same file', () => {
    expect(() => parseQrelsText('q1 0 d1 1\n{"q_id": "q2", "doc_id": ["d1"]}\n', 'b.txt')).toThrow(
      /^b\.txt:2: a JSON line in a file read as TREC qrels .*it looks like BRIDGE jsonl .*one format per file/,
    );
    expect(() => parseQrelsText('q1 0 d1 1\nq1\td2\t1\n', 'b.txt')).toThrow(/^b\.txt:2: .*it looks like BEIR tsv/);
    expect(() => parseQrelsText('q1 0 d1 1\nq1 Q0 d2 1 0.5 bm25\n', 'b.txt')).toThrow(/^b\.txt:2: .*looks like a TREC run line/);
  });
});

describe('BEIR tsv', () => {
  it('reads the header and tab-separated rows', () => {
    expect(grades('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\tdoc 2\t0\n', 'test.tsv')).toEqual({ q1: { d1: 1, 'doc 2': 0 } });
  });

  it('is detected by content in a file without the .tsv extension', () => {
    expect(parseQrelsText('query-id\tcorpus-id\tscore\nq1\td1\t1\n', 'qrels.txt').format).toBe('beir');
  });

  it('names the tabs when a BEIR file was written with spaces', () => {
    expect(() => parseQrelsText('query-id corpus-id score\nq1 d1 1\n', 'qrels.txt')).toThrow(
      'qrels.txt:2: expected 3 tab-separated columns "query-id corpus-id score", found 1',
    );
  });

  it('requires the header, once, and three columns', () => {
    expect(() => parseQrelsText('q1\td1\t1\n', 'test.tsv')).toThrow(/^test\.tsv:1: a BEIR tsv file starts with the header/);
    expect(() => parseQrelsText('query-id\tcorpus-id\tscore\nq1\td1\t1\nquery-id\tcorpus-id\tscore\n', 'test.tsv')).toThrow(
      'test.tsv:3: a second BEIR header line',
    );
    expect(() => parseQrelsText('query-id\tcorpus-id\tscore\nq1 0 d1 1\n', 'test.tsv')).toThrow(
      /^test\.tsv:2: expected 3 tab-separated columns.*found 1 \(it looks like TREC qrels/,
    );
    expect(() => parseQrelsText('query-id\tcorpus-id\tscore\nq1\t\t1\n', 'test.tsv')).toThrow('test.tsv:2: empty query-id or corpus-id');
  });

  it('refuses conflicting grades with both lines', () => {
    expect(() => parseQrelsText('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td1\t0\n', 'test.tsv')).toThrow(
      /^test\.tsv:3: .*grade 0 here but grade 1 on line 2/,
    );
  });
});

describe('BRIDGE jsonl', () => {
  it('gives every listed document grade 1, merges lines of a query, accepts integer ids', () => {
    const text =
      '{"q_id": "q1", "doc_id": ["d1", "d2"]}\n{"q_id": 7, "doc_id": [3]}\n{"q_id": "q1", "doc_id": ["d3", "d1"], "extra": true}\n';
    expect(grades(text, 'gold.jsonl')).toEqual({ q1: { d1: 1, d2: 1, d3: 1 }, '7': { '3': 1 } });
    expect(parseQrelsText(text, 'gold.jsonl')).toMatchObject({ format: 'bridge', pairs: 4, duplicates: 1 });
  });

  it('names the line and the field of bad records', () => {
    expect(() => parseQrelsText('{"q_id": "q1", "doc_id": "d1"}\n', 'g.jsonl')).toThrow(
      'g.jsonl:1: field "doc_id" must be a list of the relevant document ids',
    );
    expect(() => parseQrelsText('{"doc_id": ["d1"]}\n', 'g.jsonl')).toThrow(
      'g.jsonl:1: field "q_id" must be a non-empty string or an integer',
    );
    expect(() => parseQrelsText('{"q_id": "q", "doc_id": ["d", 1.5]}\n', 'g.jsonl')).toThrow(
      'g.jsonl:1: field "doc_id" item 1 must be a non-empty string or an integer',
    );
    expect(() => parseQrelsText('{"q_id": "q1", "doc_id": [}\n', 'g.jsonl')).toThrow(/^g\.jsonl:1: not valid JSON/);
    expect(() => parseQrelsText('{"q_id": "q1", "doc_id": []}\nq1 0 d1 1\n', 'g.jsonl')).toThrow(
      /^g\.jsonl:2: expected a JSON object .*it looks like TREC qrels/,
    );
  });
});

describe("qrelay's JSONL with provenance", () => {
  it('reads one graded pair per line, as export-qrels --format jsonl writes it', () => {
    const text =
      '{"query_id":"q1","doc_id":"d1","rel":2,"source":"base","base_rel":2,"votes":null,"workers":null,"batch":null,"dataset":null}\n' +
      '{"query_id":"q1","doc_id":"d2","rel":0,"source":"human-majority","base_rel":1,"votes":{"yes":1,"no":2},"workers":3,"batch":"b","dataset":"x"}\n' +
      '{"query_id":7,"doc_id":3,"rel":1}\n';
    expect(grades(text, 'merged.jsonl')).toEqual({ q1: { d1: 2, d2: 0 }, '7': { '3': 1 } });
    expect(parseQrelsText(text, 'merged.jsonl')).toMatchObject({ format: 'bridge', pairs: 3, duplicates: 0 });
  });

  it('names the line and the field of bad records', () => {
    expect(() => parseQrelsText('{"query_id":"q1","doc_id":["d1"],"rel":1}\n', 'm.jsonl')).toThrow(
      'm.jsonl:1: field "doc_id" must be a non-empty string or an integer (one document per line in qrelay JSONL)',
    );
    expect(() => parseQrelsText('{"query_id":"q1","doc_id":"d1","rel":"1"}\n', 'm.jsonl')).toThrow(
      'm.jsonl:1: field "rel" must be an integer relevance grade, found "\\"1\\""',
    );
    expect(() => parseQrelsText('{"query_id":"q1","doc_id":"d1"}\n', 'm.jsonl')).toThrow(
      'm.jsonl:1: field "rel" must be an integer relevance grade, found "nothing"',
    );
    expect(() => parseQrelsText('{"query_id":"q1","doc_id":"d1","rel":1}\n{"query_id":"q1","doc_id":"d1","rel":0}\n', 'm.jsonl')).toThrow(
      /^m\.jsonl:2: query "q1" document "d1" has grade 0 here but grade 1 on line 1/,
    );
  });
});

describe('format detection', () => {
  it('uses the extension, then the first line', () => {
    expect(detectQrelsFormat('a.jsonl', '{"q_id": 1}')).toBe('bridge');
    expect(detectQrelsFormat('a.tsv', 'query-id\tcorpus-id\tscore')).toBe('beir');
    expect(detectQrelsFormat('a.qrels', '{"q_id": 1}')).toBe('bridge');
    expect(detectQrelsFormat('a.txt', 'q1 0 d1 1')).toBe('trec');
    expect(detectQrelsFormat('a.txt', undefined)).toBe('trec');
  });

  it('refuses an extension that contradicts the content', () => {
    expect(() => detectQrelsFormat('qrels.jsonl', 'q1 0 d1 1')).toThrow(
      'qrels.jsonl: the extension .jsonl says BRIDGE jsonl ({"q_id": ..., "doc_id": [...]}) but the first line looks like TREC qrels ("qid iter docid rel"); rename the file or give the format explicitly',
    );
  });

  it('takes an explicit format over detection', () => {
    expect(() => parseQrelsText('query-id\tcorpus-id\tscore\n', 'x.txt', 'trec')).toThrow(/^x\.txt:1: expected 4 columns/);
  });
});
