import { describe, expect, it } from 'vitest';
import { EVERY_FIT_UP_TO, REFIT_GROWTH } from '../quality/llm-refit.js';
import { reputationDue } from './round-reputation.js';

const round = (assignments: number, last: number | undefined, over: { finished?: boolean; requiresReputation?: boolean } = {}) => ({
  finished: false,
  requiresReputation: false,
  assignments,
  last,
  ...over,
});

describe('reputationDue', () => {
  it("updates in a batch's first round", () => {
    expect(reputationDue(round(2_000, undefined))).toBe(true);
  });

  it('updates in every round of a batch of up to EVERY_FIT_UP_TO assignments', () => {
    expect(reputationDue(round(EVERY_FIT_UP_TO, EVERY_FIT_UP_TO))).toBe(true);
    expect(reputationDue(round(EVERY_FIT_UP_TO - 1, EVERY_FIT_UP_TO - 1))).toBe(true);
  });

  it('in a larger batch, updates when its assignments grew by REFIT_GROWTH since the last update', () => {
    const last = 1_000;
    expect(reputationDue(round(last, last))).toBe(false);
    expect(reputationDue(round(last * (1 + REFIT_GROWTH) - 1, last))).toBe(false);
    expect(reputationDue(round(last * (1 + REFIT_GROWTH), last))).toBe(true);
  });

  it('updates a finished batch, and one whose preset requires a reputation, in every round', () => {
    expect(reputationDue(round(1_001, 1_000, { finished: true }))).toBe(true);
    expect(reputationDue(round(1_001, 1_000, { requiresReputation: true }))).toBe(true);
  });

  it('updates a batch whose assignments went down (read anew) at once', () => {
    expect(reputationDue(round(900, 1_000))).toBe(true);
  });
});
