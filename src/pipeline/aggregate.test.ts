import { describe, expect, it } from 'vitest';
import type { LabelDoc } from '../db/models/index.js';
import { labelContent, labelContents } from './aggregate.js';

const label = (over: Partial<LabelDoc> = {}): LabelDoc => ({
  _id: 'b|q1:a',
  batch: 'b',
  queryId: 'q1',
  chunkId: 'a',
  label: 'yes',
  method: 'majority',
  decidedBy: 'majority',
  votes: { yes: 2, no: 1 },
  validVotes: 3,
  workers: ['W1', 'W2', 'W3'],
  probabilities: { yes: 2 / 3, no: 1 / 3 },
  complete: true,
  updatedAt: new Date(Date.UTC(2026, 0, 1)),
  ...over,
});

describe('label contents', () => {
  it('is the label without its timestamp, keys sorted at every depth', () => {
    const a = label();
    const reordered = { ...label({ votes: { no: 1, yes: 2 } as LabelDoc['votes'] }), updatedAt: new Date() };
    expect(labelContent(a)).toBe(labelContent(reordered));
    expect(JSON.parse(labelContent(a))).not.toHaveProperty('updatedAt');
  });

  it('reuses the content of a label built the same as last time, and serializes one that changed', () => {
    const before = label();
    const last = { contents: new Map([[before._id, 'the content taken last time']]), built: new Map([[before._id, before]]) };
    // the same label built again (new objects, another time): the content of last time
    const again = label({ updatedAt: new Date(Date.UTC(2026, 0, 2)), workers: ['W1', 'W2', 'W3'] });
    expect(labelContents([again], last).get(again._id)).toBe('the content taken last time');
    for (const changed of [
      label({ workers: ['W1', 'W2', 'W4'] }),
      label({ votes: { yes: 3, no: 0 } }),
      label({ probabilities: null }),
      label({ complete: false }),
    ])
      expect(labelContents([changed], last).get(changed._id)).toBe(labelContent(changed));
    // nothing remembered: serialized
    expect(labelContents([again]).get(again._id)).toBe(labelContent(again));
  });
});
