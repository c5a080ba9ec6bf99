import { describe, expect, it } from 'vitest';
import { outputFormatFor, qrelsLines } from './write.js';

const entries = [
  { query_id: 'q2', doc_id: 'd1', rel: 1 },
  { query_id: 'q10', doc_id: 'd2', rel: 0 },
  { query_id: 'q10', doc_id: 'd10', rel: 2 },
];

describe('qrels lines', () => {
  it('writes TREC "qid 0 docid rel" sorted by query id then document id', () => {
    expect([...qrelsLines(entries, 'trec')]).toEqual(['q10 0 d10 2', 'q10 0 d2 0', 'q2 0 d1 1']);
  });

  it('writes BEIR tsv with its header', () => {
    expect([...qrelsLines(entries, 'beir')]).toEqual(['query-id\tcorpus-id\tscore', 'q10\td10\t2', 'q10\td2\t0', 'q2\td1\t1']);
  });

  it('writes JSONL with provenance, plain entries counting as base judgments', () => {
    const lines = [
      ...qrelsLines(
        [
          entries[0]!,
          { ...entries[1]!, source: 'human-majority', base_rel: null, votes: { yes: 1, no: 2 }, workers: 3, batch: 'b', dataset: 'ds' },
        ],
        'jsonl',
      ),
    ];
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        query_id: 'q10',
        doc_id: 'd2',
        rel: 0,
        source: 'human-majority',
        base_rel: null,
        votes: { yes: 1, no: 2 },
        workers: 3,
        batch: 'b',
        dataset: 'ds',
      },
      { query_id: 'q2', doc_id: 'd1', rel: 1, source: 'base', base_rel: 1, votes: null, workers: null, batch: null, dataset: null },
    ]);
  });

  it('refuses ids that would break TREC or BEIR lines, repeated pairs and non-integer grades', () => {
    expect(() => [...qrelsLines([{ query_id: 'q 1', doc_id: 'd', rel: 1 }], 'trec')]).toThrow(
      /query id "q 1" to TREC qrels: .*use --format jsonl/,
    );
    expect(() => [...qrelsLines([{ query_id: 'q', doc_id: 'd\t1', rel: 1 }], 'beir')]).toThrow(/document id "d\\t1" to BEIR qrels/);
    expect(() => [...qrelsLines([{ query_id: 'q', doc_id: ' d', rel: 1 }], 'beir')]).toThrow(/document id " d" to BEIR qrels/);
    expect([...qrelsLines([{ query_id: 'q', doc_id: 'doc 2', rel: 1 }], 'beir')]).toEqual(['query-id\tcorpus-id\tscore', 'q\tdoc 2\t1']);
    expect([...qrelsLines([{ query_id: 'q 1', doc_id: 'd\t1', rel: 1 }], 'jsonl')]).toHaveLength(1);
    expect(() => [...qrelsLines([entries[0]!, entries[0]!], 'trec')]).toThrow(
      'query "q2" document "d1" appears twice in the qrels to write',
    );
    expect(() => [...qrelsLines([{ query_id: 'q', doc_id: 'd', rel: 0.5 }], 'trec')]).toThrow(/grade 0\.5 is not an integer/);
  });

  it('picks the format from the output file name', () => {
    expect(outputFormatFor('out/qrels.tsv')).toBe('beir');
    expect(outputFormatFor('out/qrels.JSONL')).toBe('jsonl');
    expect(outputFormatFor('out/qrels.txt')).toBe('trec');
  });
});
