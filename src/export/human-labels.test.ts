import { describe, expect, it } from 'vitest';
import type { PlannedItem } from '../hits/index.js';
import { datasetsOf, describeUnresolved, holesFound, toHumanLabels, type HumanLabelsInput } from './human-labels.js';

type Label = HumanLabelsInput['labels'][number];

const label = (id: string, over: Partial<Label> = {}): Label => ({
  _id: `b|${id}`,
  queryId: id.split(':')[0]!,
  chunkId: id.split(':')[1]!,
  label: 'yes',
  votes: { yes: 2, no: 1 },
  validVotes: 3,
  workers: ['A1', 'A2', 'A3'],
  complete: true,
  ...over,
});

const input = (labels: Label[], state: HumanLabelsInput['state'] = 'complete'): HumanLabelsInput => ({
  batch: 'b',
  state,
  voteTarget: 3,
  labels,
  datasets: new Map([['b|q1:d1', 'msmarco']]),
});

describe('toHumanLabels', () => {
  it('maps a decided item to a human-majority label with its votes, workers, batch and dataset', () => {
    const r = toHumanLabels(input([label('q1:d1')]));
    expect(r.labels).toEqual([
      {
        query_id: 'q1',
        chunk_id: 'd1',
        label: 'yes',
        votes: { yes: 2, no: 1 },
        workers: 3,
        batch: 'b',
        dataset: 'msmarco',
        source: 'human-majority',
      },
    ]);
    expect(r.unresolved).toEqual([]);
  });

  it('lists ties and items without votes as unresolved, never as labels', () => {
    const r = toHumanLabels(
      input([
        label('q2:d2', { label: null, votes: { yes: 1, no: 1 }, validVotes: 2, workers: ['A1', 'A2'], complete: false }),
        label('q3:d3', { label: null, votes: { yes: 0, no: 0 }, validVotes: 0, workers: [], complete: false }),
      ]),
    );
    expect(r.labels).toEqual([]);
    expect(r.unresolved.map((u) => [u.query_id, u.reason, u.dataset])).toEqual([
      ['q2', 'tie', 'default'],
      ['q3', 'no-votes', 'default'],
    ]);
    expect(describeUnresolved(r.unresolved[0]!)).toBe('query "q2" chunk "d2" (dataset "default"): votes tied 1-1');
    expect(describeUnresolved(r.unresolved[1]!)).toBe('query "q3" chunk "d3" (dataset "default"): no valid vote');
  });

  it('holds back a label short of its votes while the batch still collects, and takes it once the batch takes no more work', () => {
    const short = label('q4:d4', { votes: { yes: 2, no: 0 }, validVotes: 2, workers: ['A1', 'A2'], complete: false });
    const collecting = toHumanLabels(input([short], 'collecting'));
    expect(collecting.labels).toEqual([]);
    expect(collecting.unresolved[0]).toMatchObject({ reason: 'votes-pending', validVotes: 2, voteTarget: 3 });
    expect(describeUnresolved(collecting.unresolved[0]!)).toContain('2 of 3 valid votes so far');
    for (const state of ['complete', 'expired', 'closed'] as const) {
      expect(toHumanLabels(input([short], state)).labels).toMatchObject([{ query_id: 'q4', label: 'yes', workers: 2 }]);
    }
  });

  it('sorts by item id, whatever the order of the input', () => {
    const r = toHumanLabels(
      input([label('q9:d1'), label('q1:d1'), label('q5:d1', { label: null, validVotes: 0, workers: [], complete: false })]),
    );
    expect(r.labels.map((l) => l.query_id)).toEqual(['q1', 'q9']);
  });
});

describe('datasetsOf', () => {
  it('takes the dataset of every real item of the HITs, checks left out', () => {
    const real: PlannedItem = { kind: 'real', position: 1, queryId: 'q1', chunkId: 'd:1', dataset: 'nq', key: '0123456789abcdef' };
    const check: PlannedItem = {
      kind: 'check',
      position: 2,
      queryId: 'g1',
      chunkId: 'gd',
      dataset: 'gold',
      key: 'fedcba9876543210',
      expected: 'yes',
    };
    expect(datasetsOf([{ batch: 'b', items: [real, check] }])).toEqual(new Map([['b|q1:d%3A1', 'nq']]));
  });
});

describe('holesFound', () => {
  it('counts human "yes" labels on pairs the base did not judge, and nothing else', () => {
    const base = new Map([
      [
        'q1',
        new Map([
          ['d1', 0],
          ['d2', 1],
        ]),
      ],
    ]);
    const labels = [
      { query_id: 'q1', chunk_id: 'd1', label: 'yes' as const }, // a flip, not a hole
      { query_id: 'q1', chunk_id: 'd3', label: 'yes' as const }, // a hole
      { query_id: 'q2', chunk_id: 'd1', label: 'yes' as const }, // a hole (query unknown to the base)
      { query_id: 'q1', chunk_id: 'd4', label: 'no' as const }, // judged non-relevant: no hole
    ];
    expect(holesFound(base, labels)).toBe(2);
    expect(holesFound(new Map(), [])).toBe(0);
  });
});
