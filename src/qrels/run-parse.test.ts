import { describe, expect, it } from 'vitest';
import { parseRunText, rankingOrder } from './run-parse.js';

const order = (text: string, qid = 'q1') =>
  parseRunText(text, 'run.txt')
    .run.get(qid)!
    .map((d) => d.docid);

describe('TREC run parsing', () => {
  it('orders by score descending, ignoring the rank column', () => {
    expect(order('q1 Q0 a 1 0.1 t\nq1 Q0 b 2 0.9 t\nq1 Q0 c 3 -2 t\n')).toEqual(['b', 'a', 'c']);
  });

  it('breaks score ties by document id descending in byte order, as trec_eval does', () => {
    // d2 > d11 > d10 > d1 in byte order; 2.5, 2.50 and 25e-1 are the same score
    expect(order('q1 Q0 d1 1 2.5 t\nq1 Q0 d10 2 2.50 t\nq1 Q0 d2 3 25e-1 t\nq1 Q0 d11 4 2.5 t\nq1 Q0 z 5 3 t\n')).toEqual([
      'z',
      'd2',
      'd11',
      'd10',
      'd1',
    ]);
    expect(order('q Q0 e\u{1F600} 1 1 t\nq Q0 e\uFF01 2 1 t\n', 'q')).toEqual(['e\u{1F600}', 'e\uFF01']);
    expect(rankingOrder({ docid: 'a', score: 1 }, { docid: 'b', score: 1 })).toBeGreaterThan(0);
  });

  it('collects queries, tags and the number of ranked lines', () => {
    const parsed = parseRunText('q1 Q0 a 1 1 bm25\n\nq2 Q0 a 1 1 bm25\nq1 Q0 b 2 0 bm25-b\n', 'run.txt');
    expect([...parsed.run.keys()]).toEqual(['q1', 'q2']);
    expect(parsed.tags).toEqual(['bm25', 'bm25-b']);
    expect(parsed.documents).toBe(3);
  });

  it('names file and line of a wrong column count, a bad score, a repeated document', () => {
    expect(() => parseRunText('q1 Q0 a 1 1 t\nq1 Q0 b 2 1\n', 'r.run')).toThrow(
      'r.run:2: expected 6 columns "qid Q0 docid rank score tag" of a TREC run, found 5',
    );
    expect(() => parseRunText('q1 0 a 1\n', 'r.run')).toThrow(/^r\.run:1: .*found 4 \(4 columns look like a qrels line/);
    for (const bad of ['high', 'nan', 'inf', '0x10', '1,5']) {
      expect(() => parseRunText(`q1 Q0 a 1 ${bad} t\n`, 'r.run')).toThrow(
        `r.run:1: score (5th column) must be a decimal number, found "${bad}"`,
      );
    }
    expect(() => parseRunText('q1 Q0 a 1 3 t\nq2 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 a 3 1 t\n', 'r.run')).toThrow(
      'r.run:4: document "a" appears twice in the ranking of query "q1" (also on line 1); keep one line per (query, document)',
    );
  });

  it('reports the earliest repeated document when there are several', () => {
    expect(() => parseRunText('q2 Q0 x 1 1 t\nq1 Q0 a 1 1 t\nq1 Q0 a 2 1 t\nq2 Q0 x 2 1 t\n', 'r.run')).toThrow(/^r\.run:3: document "a"/);
  });
});
