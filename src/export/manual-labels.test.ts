import { describe, expect, it } from 'vitest';
import { mergeQrels } from '../qrels/index.js';
import { applyManualLabels, type BatchHumanLabels } from './human-labels.js';

const human: BatchHumanLabels = {
  batch: 'b',
  state: 'complete',
  labels: [
    {
      query_id: 'q1',
      chunk_id: 'd1',
      label: 'yes',
      votes: { yes: 2, no: 1 },
      workers: 3,
      batch: 'b',
      dataset: 'ms',
      source: 'human-majority',
    },
  ],
  unresolved: [
    {
      item: 'b|q2:d2',
      query_id: 'q2',
      chunk_id: 'd2',
      dataset: 'ms',
      reason: 'tie',
      votes: { yes: 1, no: 1 },
      validVotes: 2,
      voteTarget: 3,
    },
  ],
};

describe('applyManualLabels', () => {
  it('replaces the crowd label and settles an unresolved item, with source manual', () => {
    const out = applyManualLabels(
      human,
      [
        { item: 'b|q1:d1', queryId: 'q1', chunkId: 'd1', label: 'no' },
        { item: 'b|q2:d2', queryId: 'q2', chunkId: 'd2', label: 'yes' },
      ],
      new Map(),
    );
    expect(out.unresolved).toEqual([]);
    expect(out.labels).toEqual([
      { query_id: 'q1', chunk_id: 'd1', label: 'no', votes: { yes: 2, no: 1 }, workers: 3, batch: 'b', dataset: 'ms', source: 'manual' },
      { query_id: 'q2', chunk_id: 'd2', label: 'yes', votes: { yes: 1, no: 1 }, workers: 0, batch: 'b', dataset: 'ms', source: 'manual' },
    ]);
  });

  it('changes nothing without manual decisions', () => {
    expect(applyManualLabels(human, [], new Map())).toBe(human);
  });

  it('reaches the merged qrels with source manual, over the base and the consensus', () => {
    const out = applyManualLabels(human, [{ item: 'b|q1:d1', queryId: 'q1', chunkId: 'd1', label: 'no' }], new Map());
    const merged = mergeQrels({
      base: new Map([['q1', new Map([['d1', 1]])]]),
      consensus: [{ query_id: 'q1', chunk_id: 'd1', label: 'yes', dataset: 'ms' }],
      human: out.labels,
    });
    expect(merged.entries.find((e) => e.query_id === 'q1' && e.doc_id === 'd1')).toMatchObject({ rel: 0, source: 'manual' });
    expect(merged.summary.overall.bySource.manual).toBe(1);
  });
});
