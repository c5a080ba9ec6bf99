import { describe, expect, it } from 'vitest';
import { batchStamp, changedOnlyByRound, RoundMemories, ROUND_OWN_BUMPS, type RoundMemory } from './round-memory.js';

const created = new Date('2026-11-25T10:00:00Z');
const memory = (n: number): RoundMemory => ({ data: { hits: [], assignments: [] }, labels: new Map([[`l${n}`, `c${n}`]]) });

describe('batchStamp and changedOnlyByRound', () => {
  it('stamps the batch by its creation time and revision (absent: 0)', () => {
    expect(batchStamp({ createdAt: created, revision: 7 })).toBe(`${created.getTime()}|0|7`);
    expect(batchStamp({ createdAt: created, publishedAt: created, revision: 7 })).toBe(`${created.getTime()}|${created.getTime()}|7`);
    expect(batchStamp({ createdAt: created })).toBe(batchStamp({ createdAt: created, revision: 0 }));
    expect(batchStamp({ createdAt: new Date(created.getTime() + 1), revision: 7 })).not.toBe(
      batchStamp({ createdAt: created, revision: 7 }),
    );
  });

  it('holds only when the revision moved by exactly the round own bumps, on the same batch', () => {
    expect(changedOnlyByRound({ createdAt: created, revision: 3 }, { createdAt: created, revision: 3 + ROUND_OWN_BUMPS })).toBe(true);
    expect(changedOnlyByRound({ createdAt: created }, { createdAt: created, revision: ROUND_OWN_BUMPS })).toBe(true);
    // another writer (an override's aggregation, a HIT created) bumped it too
    expect(changedOnlyByRound({ createdAt: created, revision: 3 }, { createdAt: created, revision: 4 + ROUND_OWN_BUMPS })).toBe(false);
    expect(changedOnlyByRound({ createdAt: created, revision: 3 }, { createdAt: created, revision: 4 })).toBe(false);
    // the batch was made anew under its name
    expect(changedOnlyByRound({ createdAt: created, revision: 3 }, { createdAt: new Date(0), revision: 3 + ROUND_OWN_BUMPS })).toBe(false);
    // or published anew
    expect(
      changedOnlyByRound(
        { createdAt: created, publishedAt: created, revision: 3 },
        { createdAt: created, publishedAt: new Date(1), revision: 5 },
      ),
    ).toBe(false);
  });
});

describe('RoundMemories', () => {
  it('gives a memory back once, and only at the stamp it was kept at', () => {
    const m = new RoundMemories();
    m.keep('db|b', 's1', memory(1));
    expect(m.take('db|b', 's2')).toBeUndefined();
    // a mismatch forgets it: the batch moved on
    expect(m.take('db|b', 's1')).toBeUndefined();
    m.keep('db|b', 's1', memory(1));
    expect(m.take('db|b', 's1')).toEqual(memory(1));
    expect(m.take('db|b', 's1')).toBeUndefined();
  });

  it('keeps the most recently kept batches up to its limit', () => {
    const m = new RoundMemories(2);
    m.keep('a', 's', memory(1));
    m.keep('b', 's', memory(2));
    m.keep('a', 's', memory(3));
    m.keep('c', 's', memory(4));
    expect(m.size).toBe(2);
    expect(m.take('b', 's')).toBeUndefined();
    expect(m.take('a', 's')).toEqual(memory(3));
    expect(m.take('c', 's')).toEqual(memory(4));
  });
});
