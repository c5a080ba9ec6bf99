import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { scoreAttentionChecks } from './attention-checks.js';
import { decideReview, DEFAULT_REVIEW_POLICY, type ReviewPolicy } from './review.js';
import type { KnownAnswer } from './types.js';

const checks: KnownAnswer[] = [
  { item: 'gold-rel', expected: 'yes' },
  { item: 'gold-nonrel', expected: 'no' },
];
const passed = scoreAttentionChecks(
  [
    { item: 'gold-rel', label: 'yes' },
    { item: 'gold-nonrel', label: 'no' },
  ],
  checks,
);
const alwaysYes = scoreAttentionChecks(
  [
    { item: 'gold-rel', label: 'yes' },
    { item: 'gold-nonrel', label: 'yes' },
  ],
  checks,
);
const bothWrong = scoreAttentionChecks(
  [
    { item: 'gold-rel', label: 'no' },
    { item: 'gold-nonrel', label: 'yes' },
  ],
  checks,
);

describe('review decision', () => {
  it('approves an assignment that passed every check, whatever the policy', () => {
    for (const policy of [DEFAULT_REVIEW_POLICY, { onFailure: 'reject' } as const]) {
      expect(decideReview(passed, policy)).toEqual({
        action: 'approve',
        countsVotes: true,
        reason: 'passed all 2 attention checks',
        feedback: null,
      });
    }
  });

  it('approves a HIT without checks and says so in the record', () => {
    expect(decideReview(scoreAttentionChecks([], []))).toMatchObject({
      action: 'approve',
      countsVotes: true,
      reason: 'no attention checks in this HIT: approved unchecked',
    });
  });

  it('approves and discards a failure by default, and tells the worker kindly', () => {
    const decision = decideReview(alwaysYes);
    expect(decision).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
    expect(decision.reason).toBe('failed 1 of 2 attention checks: "gold-nonrel" expected no, got yes');
    expect(decision.feedback).toContain('You answered 1 of 2 of them incorrectly (1 whose passage clearly supports none)');
    expect(decision.feedback).toContain('approved and paid, but its answers are not used');
  });

  it('rejects under the reject policy, with feedback that never names the check items', () => {
    const decision = decideReview(bothWrong, { onFailure: 'reject' });
    expect(decision).toMatchObject({ action: 'reject', countsVotes: false });
    expect(decision.feedback).toContain(
      'You answered 2 of 2 of them incorrectly (1 whose passage clearly supports an answer and 1 whose passage clearly supports none)',
    );
    expect(decision.feedback).toContain('contact us quoting the assignment ID');
    expect(decision.feedback).not.toMatch(/gold/);
    expect(decision.reason).toContain('"gold-rel" expected yes, got no');
    expect(decision.feedback!.length).toBeLessThanOrEqual(1024);
  });

  it('rejects only from the configured number of failures, discarding below it', () => {
    const policy: ReviewPolicy = { onFailure: 'reject', rejectFromFailures: 2 };
    expect(decideReview(alwaysYes, policy).action).toBe('approve-and-discard');
    expect(decideReview(bothWrong, policy).action).toBe('reject');
  });

  it('reports an unanswered check', () => {
    const score = scoreAttentionChecks([{ item: 'gold-rel', label: 'yes' }], checks);
    expect(decideReview(score).reason).toBe('failed 1 of 2 attention checks: "gold-nonrel" expected no, got no answer');
  });

  it('refuses a malformed policy', () => {
    expect(() => decideReview(passed, { onFailure: 'ignore' } as unknown as ReviewPolicy)).toThrow(UserError);
    expect(() => decideReview(passed, { onFailure: 'ignore' } as unknown as ReviewPolicy)).toThrow(
      'reviewPolicy.onFailure: "ignore" is not "reject" or "approve-and-discard"',
    );
    expect(() => decideReview(passed, { onFailure: 'reject', rejectFromFailures: 0 })).toThrow(
      'reviewPolicy.rejectFromFailures: 0 is not a whole number >= 1',
    );
  });
});
