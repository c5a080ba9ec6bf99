import { describe, expect, it } from 'vitest';
import { goldErrorBound, pairKey } from '../qrels/index.js';
import { posteriorModelOf } from './posterior-model.js';

describe('posteriorModelOf', () => {
  it("keys the Dawid–Skene posteriors by pair and bounds the crowd's error on every check answered", () => {
    const model = posteriorModelOf(
      [
        { queryId: 'q1', chunkId: 'c1', probabilities: { yes: 0.8, no: 0.2 } },
        { queryId: 'q1', chunkId: 'c2', probabilities: null },
      ],
      [
        { checks: 2, correct: 2 },
        { checks: 2, correct: 1 },
        { checks: 0, correct: 0 },
      ],
    );
    expect([...model.crowd]).toEqual([[pairKey('q1', 'c1'), 0.8]]);
    expect(model.gold).toEqual({ checks: 4, wrong: 1 });
    expect(model.voteError).toBe(goldErrorBound(1, 4));
  });
});
