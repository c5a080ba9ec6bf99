import { describe, expect, it } from 'vitest';
import { ConsensusLabel } from '../domain/cases.js';
import { entriesFromQrels, HumanLabel, mergeQrels, MergeInputError, qrelsFromEntries, type QrelsEntry } from './merge.js';
import type { Qrels } from './types.js';

const qrels = (rows: Array<[string, string, number]>): Qrels => {
  const q: Qrels = new Map();
  for (const [qid, docid, rel] of rows) {
    if (!q.has(qid)) q.set(qid, new Map());
    q.get(qid)!.set(docid, rel);
  }
  return q;
};

const human = (query_id: string, chunk_id: string, label: 'yes' | 'no', extra: Partial<HumanLabel> = {}): HumanLabel =>
  HumanLabel.parse({
    query_id,
    chunk_id,
    label,
    votes: label === 'yes' ? { yes: 2, no: 1 } : { yes: 1, no: 2 },
    workers: 3,
    batch: 'b1',
    ...extra,
  });

const consensus = (query_id: string, chunk_id: string, label: 'yes' | 'no', dataset = 'default') =>
  ConsensusLabel.parse({ query_id, chunk_id, label, dataset });

const find = (entries: QrelsEntry[], qid: string, docid: string) => entries.find((e) => e.query_id === qid && e.doc_id === docid);

describe('mergeQrels precedence and provenance', () => {
  const base = qrels([
    ['q1', 'd1', 2],
    ['q1', 'd2', 0],
    ['q1', 'd3', 1],
    ['q2', 'd1', 1],
  ]);

  const result = mergeQrels({
    base,
    consensus: [consensus('q1', 'd4', 'yes'), consensus('q1', 'd2', 'no'), consensus('q1', 'd5', 'yes'), consensus('q2', 'd1', 'no')],
    human: [
      human('q1', 'd1', 'yes'), // confirms a grade-2 base judgment: the grade stays 2
      human('q1', 'd3', 'no', { dataset: 'msmarco' }), // contradicts the base: kept, listed
      human('q1', 'd5', 'no', { source: 'llm-adjudicator', votes: { yes: 1, no: 1 }, workers: 2, batch: 'b2' }), // overrides the consensus
      human('q3', 'd9', 'yes'), // a query the base never judged
    ],
  });

  it('applies human over consensus over base, keeping confirmed base grades', () => {
    const rel = (qid: string, docid: string) => find(result.entries, qid, docid)?.rel;
    expect(rel('q1', 'd1')).toBe(2);
    expect(rel('q1', 'd2')).toBe(0);
    expect(rel('q1', 'd3')).toBe(0);
    expect(rel('q1', 'd4')).toBe(1);
    expect(rel('q1', 'd5')).toBe(0);
    expect(rel('q2', 'd1')).toBe(0);
    expect(rel('q3', 'd9')).toBe(1);
  });

  it('records the source, votes, workers, batch and dataset of every pair', () => {
    expect(find(result.entries, 'q1', 'd3')).toEqual({
      query_id: 'q1',
      doc_id: 'd3',
      rel: 0,
      source: 'human-majority',
      base_rel: 1,
      votes: { yes: 1, no: 2 },
      workers: 3,
      batch: 'b1',
      dataset: 'msmarco',
    });
    expect(find(result.entries, 'q1', 'd5')).toMatchObject({
      source: 'llm-adjudicator',
      base_rel: null,
      votes: { yes: 1, no: 1 },
      workers: 2,
      batch: 'b2',
    });
    expect(find(result.entries, 'q1', 'd4')).toMatchObject({
      source: 'dream-consensus',
      base_rel: null,
      votes: null,
      workers: null,
      batch: null,
      dataset: 'default',
    });
    expect(find(result.entries, 'q1', 'd2')).toMatchObject({ source: 'dream-consensus', base_rel: 0 });
  });

  it('lists every contradiction with all values', () => {
    expect(result.summary.conflicts).toEqual([
      {
        query_id: 'q1',
        doc_id: 'd3',
        dataset: 'msmarco',
        base: 1,
        consensus: null,
        human: 'no',
        kept: { source: 'human-majority', rel: 0 },
      },
      {
        query_id: 'q1',
        doc_id: 'd5',
        dataset: 'default',
        base: null,
        consensus: 'yes',
        human: 'no',
        kept: { source: 'llm-adjudicator', rel: 0 },
      },
      {
        query_id: 'q2',
        doc_id: 'd1',
        dataset: 'default',
        base: 1,
        consensus: 'no',
        human: null,
        kept: { source: 'dream-consensus', rel: 0 },
      },
    ]);
  });

  it('summarises holes filled, flips, unchanged and new non-relevant, per dataset and overall', () => {
    const { summary } = result;
    expect(summary).toMatchObject({ basePairs: 4, outputPairs: 7, baseOnly: 0, duplicates: { consensus: 0, human: 0 } });
    expect(summary.overall).toEqual({
      labelled: 7,
      holesFilled: 2, // q1/d4 (consensus), q3/d9 (human)
      flips: 2, // q1/d3 (human), q2/d1 (consensus)
      unchanged: 2, // q1/d1 (human), q1/d2 (consensus)
      newNonRelevant: 1, // q1/d5
      bySource: { 'dream-consensus': 3, 'human-majority': 3, 'human-dawid-skene': 0, 'llm-adjudicator': 1, manual: 0 },
    });
    expect(summary.datasets.map((d) => [d.dataset, d.labelled, d.flips])).toEqual([
      ['default', 6, 1],
      ['msmarco', 1, 1],
    ]);
  });

  it('sorts output by query id then document id in code point order', () => {
    expect(result.entries.map((e) => `${e.query_id}/${e.doc_id}`)).toEqual(['q1/d1', 'q1/d2', 'q1/d3', 'q1/d4', 'q1/d5', 'q2/d1', 'q3/d9']);
  });
});

describe('mergeQrels with duplicate, conflicting and missing inputs', () => {
  const base = qrels([
    ['q1', 'd1', 1],
    ['q10', 'd1', 0],
  ]);

  it('keeps a repeated label once and counts it', () => {
    const { entries, summary } = mergeQrels({
      base,
      consensus: [consensus('q1', 'd2', 'yes'), consensus('q1', 'd2', 'yes')],
      human: [human('q1', 'd3', 'no'), human('q1', 'd3', 'no', { batch: 'b9' })],
    });
    expect(summary.duplicates).toEqual({ consensus: 1, human: 1 });
    expect(find(entries, 'q1', 'd3')?.batch).toBe('b1');
    expect(entries).toHaveLength(4);
  });

  it('refuses conflicting labels within a tier, naming the pairs', () => {
    const attempt = () => mergeQrels({ base, human: [human('q1', 'd3', 'no'), human('q1', 'd3', 'yes', { batch: 'b2' })] });
    expect(attempt).toThrow(MergeInputError);
    expect(attempt).toThrow(
      '1 (query, chunk) pair has conflicting human labels (query "q1" chunk "d3": no (batch "b1") vs yes (batch "b2")); keep one label per pair before merging',
    );
    try {
      mergeQrels({
        base,
        consensus: [consensus('q1', 'd2', 'yes'), consensus('q1', 'd2', 'no'), consensus('q2', 'd2', 'yes'), consensus('q2', 'd2', 'no')],
      });
      expect.unreachable('conflicting consensus labels must be refused');
    } catch (err) {
      expect(err).toBeInstanceOf(MergeInputError);
      expect((err as MergeInputError).pairs.map((p) => p.query_id)).toEqual(['q1', 'q2']);
      expect((err as Error).message).toMatch(/^2 \(query, chunk\) pairs have conflicting dream-consensus labels/);
    }
  });

  it('passes the base through when there are no labels', () => {
    const { entries, summary } = mergeQrels({ base });
    expect(entries).toEqual(entriesFromQrels(base));
    expect(summary).toMatchObject({ basePairs: 2, outputPairs: 2, baseOnly: 2, conflicts: [], datasets: [] });
    expect(summary.overall.labelled).toBe(0);
  });

  it('builds qrels from labels alone when the base is empty', () => {
    const { entries, summary } = mergeQrels({ base: new Map(), human: [human('q1', 'd1', 'yes'), human('q1', 'd2', 'no')] });
    expect(entries.map((e) => [e.doc_id, e.rel, e.base_rel])).toEqual([
      ['d1', 1, null],
      ['d2', 0, null],
    ]);
    expect(summary.overall).toMatchObject({ holesFilled: 1, newNonRelevant: 1, flips: 0, unchanged: 0 });
  });
});

describe('HumanLabel', () => {
  it('defaults the source to human-majority and the dataset to default', () => {
    expect(human('q', 'd', 'yes')).toMatchObject({ source: 'human-majority', dataset: 'default' });
  });

  it('refuses a majority label that contradicts its votes, but not a tie or an adjudicated label', () => {
    const input = { query_id: 'q', chunk_id: 'd', label: 'no', votes: { yes: 2, no: 1 }, workers: 3, batch: 'b' };
    const parsed = HumanLabel.safeParse(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({
      path: ['label'],
      message: 'a human-majority label must agree with the majority of its votes',
    });
    expect(HumanLabel.safeParse({ ...input, votes: { yes: 1, no: 1 }, workers: 2 }).success).toBe(true);
    expect(HumanLabel.safeParse({ ...input, source: 'llm-adjudicator' }).success).toBe(true);
    expect(HumanLabel.safeParse({ ...input, label: 'yes', workers: 0 }).success).toBe(false);
  });
});

describe('qrels and entries', () => {
  it('round-trip', () => {
    const q = qrels([
      ['q2', 'a', 1],
      ['q1', 'b', 0],
      ['q1', 'a', 2],
    ]);
    expect(entriesFromQrels(q).map((e) => `${e.query_id}/${e.doc_id}=${e.rel}`)).toEqual(['q1/a=2', 'q1/b=0', 'q2/a=1']);
    expect(qrelsFromEntries(entriesFromQrels(q))).toEqual(q);
  });
});
