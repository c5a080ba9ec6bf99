import { describe, expect, it } from 'vitest';
import { agreementError, goldErrorBound, pairKey } from '../qrels/index.js';
import { posteriorModelOf } from './posterior-model.js';

describe('posteriorModelOf', () => {
  it("keys the Dawid–Skene posteriors by pair and bounds the crowd's error on every check answered", () => {
    const model = posteriorModelOf(
      [
        { queryId: 'q1', chunkId: 'c1', probabilities: { yes: 0.8, no: 0.2 }, votes: { yes: 3, no: 0 } },
        { queryId: 'q1', chunkId: 'c2', probabilities: null, votes: { yes: 0, no: 3 } },
      ],
      [
        { checks: 2, correct: 2 },
        { checks: 2, correct: 1 },
        { checks: 0, correct: 0 },
      ],
    );
    expect([...model.crowd]).toEqual([[pairKey('q1', 'c1'), 0.8]]);
    expect(model.gold).toEqual({ checks: 4, wrong: 1 });
    // unanimous items: the gold bound is the larger
    expect(model.agreementError).toBe(0);
    expect(model.voteError).toBe(goldErrorBound(1, 4));
    expect(model).not.toHaveProperty('labelError');
  });

  it('takes the items’ disagreement when it says more than the checks, and the forecast’s label error', () => {
    const votes = [
      { yes: 2, no: 1 },
      { yes: 1, no: 2 },
      { yes: 3, no: 0 },
    ];
    const model = posteriorModelOf(
      votes.map((v, i) => ({ queryId: 'q', chunkId: `c${i}`, probabilities: null, votes: v })),
      [{ checks: 1000, correct: 1000 }],
      0.08,
    );
    expect(model.agreementError).toBe(agreementError(votes));
    expect(model.voteError).toBe(model.agreementError);
    expect(model.labelError).toBe(0.08);
  });
});
