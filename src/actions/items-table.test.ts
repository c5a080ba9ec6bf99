import { describe, expect, it } from 'vitest';
import type { AssignmentDoc, HitDoc, LabelDoc } from '../db/models/index.js';
import type { EscalatedCase } from '../domain/cases.js';
import { itemsTable } from './items-table.js';

const label = (id: string, over: Partial<LabelDoc>): LabelDoc => ({
  _id: id,
  batch: 'b',
  queryId: id.split('|')[1]!.split(':')[0]!,
  chunkId: id.split(':')[1]!,
  label: 'yes',
  method: 'majority',
  decidedBy: 'clear',
  votes: { yes: 3, no: 0 },
  validVotes: 3,
  workers: ['A', 'B', 'C'],
  probabilities: null,
  complete: true,
  updatedAt: new Date(0),
  ...over,
});

const vote = (
  id: string,
  worker: string,
  item: string,
  answer: 'yes' | 'no',
  extra: { difficult?: boolean; comment?: string; counts?: boolean } = {},
) =>
  ({
    _id: id,
    workerId: worker,
    review: { countsVotes: extra.counts ?? true },
    answers: [
      { position: 0, key: 'k', kind: 'real', item, answer, difficult: extra.difficult ?? false, comment: extra.comment ?? '', ms: null },
    ],
  }) as unknown as AssignmentDoc;

const kase = (q: string, c: string): EscalatedCase => ({
  query_id: q,
  query: `query ${q}`,
  answers: [],
  chunk_id: c,
  chunk: `chunk ${c}`,
  dataset: 'd',
  debate: [
    { round: 1, agent: 'pro', stance: 'relevant', label: 'yes', reasoning: 'it says so', references: [] },
    { round: 1, agent: 'con', stance: 'irrelevant', label: 'no', reasoning: 'it does not', references: [] },
  ],
});

describe('itemsTable', () => {
  const labels = [
    label('b|q1:c1', {}),
    label('b|q2:c2', { label: 'yes', votes: { yes: 2, no: 1 } }),
    label('b|q3:c3', { label: null, decidedBy: 'unresolved', votes: { yes: 1, no: 1 }, validVotes: 2, complete: false }),
    label('b|q4:c4', { label: null, decidedBy: 'no-votes', votes: { yes: 0, no: 0 }, validVotes: 0, complete: false }),
  ];
  const assignments = [
    vote('A1', 'A', 'b|q2:c2', 'yes', { difficult: true, comment: 'borderline <b>' }),
    vote('A2', 'B', 'b|q2:c2', 'no'),
    vote('A3', 'C', 'b|q2:c2', 'yes', { counts: false }),
  ];
  const valid = new Set(['b|q2:c2\u0000A', 'b|q2:c2\u0000B', 'b|q2:c2\u0000C']);
  const cases = new Map(labels.map((l) => [l._id, kase(l.queryId, l.chunkId)]));

  it('shows votes with comments and difficult marks, the debate, the label and its source', () => {
    const rows = itemsTable({ hits: [] as HitDoc[], assignments, labels, valid, cases, manual: new Map() });
    const byId = new Map(rows.map((r) => [r.item, r]));
    expect(byId.get('b|q1:c1')).toMatchObject({ label: 'yes', source: 'crowd', unresolved: false, contested: false });
    expect(byId.get('b|q2:c2')).toMatchObject({
      source: 'crowd',
      contested: true,
      difficult: 1,
      comments: 1,
      yes: 2,
      no: 1,
      query: 'query q2',
      agents: [
        { agent: 'pro', label: 'yes' },
        { agent: 'con', label: 'no' },
      ],
    });
    expect(byId.get('b|q2:c2')!.votes).toEqual([
      { workerId: 'A', assignmentId: 'A1', answer: 'yes', counts: true, difficult: true, comment: 'borderline <b>' },
      { workerId: 'B', assignmentId: 'A2', answer: 'no', counts: true, difficult: false, comment: '' },
      { workerId: 'C', assignmentId: 'A3', answer: 'yes', counts: false, difficult: false, comment: '' },
    ]);
    expect(byId.get('b|q3:c3')).toMatchObject({ label: null, source: 'unresolved', unresolved: true });
    expect(byId.get('b|q4:c4')).toMatchObject({ label: null, source: 'pending', unresolved: false, contested: false });
  });

  it('a manual decision wins and takes the item off the list to decide', () => {
    const rows = itemsTable({
      hits: [],
      assignments,
      labels,
      valid,
      cases,
      manual: new Map([['b|q3:c3', { label: 'no' as const, note: 'read it', who: 'console', at: new Date(0) }]]),
    });
    expect(rows.find((r) => r.item === 'b|q3:c3')).toMatchObject({
      label: 'no',
      source: 'manual',
      crowdLabel: null,
      unresolved: false,
      manual: { label: 'no', note: 'read it', who: 'console', at: '1970-01-01T00:00:00.000Z' },
    });
  });
});
