import { describe, expect, it } from 'vitest';
import { EVERY_FIT_UP_TO, llmRefitDue, REFIT_GROWTH } from './llm-refit.js';

describe('llmRefitDue', () => {
  it('fits when nothing was fitted yet, whatever the size', () => {
    expect(llmRefitDue(0, undefined)).toBe(true);
    expect(llmRefitDue(50_000, undefined)).toBe(true);
  });

  it('fits in every round up to EVERY_FIT_UP_TO assignments, also with none new', () => {
    expect(llmRefitDue(EVERY_FIT_UP_TO, EVERY_FIT_UP_TO)).toBe(true);
    expect(llmRefitDue(10, 10)).toBe(true);
  });

  it('keeps the last fit of a larger batch until its assignments grew by REFIT_GROWTH', () => {
    const last = 10_000;
    expect(llmRefitDue(last, last)).toBe(false);
    expect(llmRefitDue(Math.ceil(last * (1 + REFIT_GROWTH)) - 1, last)).toBe(false);
    expect(llmRefitDue(Math.ceil(last * (1 + REFIT_GROWTH)), last)).toBe(true);
  });

  it('fits again when the batch has fewer assignments than the last fit saw', () => {
    expect(llmRefitDue(9_000, 10_000)).toBe(true);
  });

  it('fits a batch growing tenfold beyond EVERY_FIT_UP_TO about log(10) / log(1 + REFIT_GROWTH) times, not once a round', () => {
    let last = EVERY_FIT_UP_TO;
    let fits = 0;
    let rounds = 0;
    // rounds a hundredth of EVERY_FIT_UP_TO apart
    const step = EVERY_FIT_UP_TO / 100;
    for (let a = EVERY_FIT_UP_TO + step; a <= 10 * EVERY_FIT_UP_TO; a += step, rounds++)
      if (llmRefitDue(a, last)) {
        last = a;
        fits++;
      }
    const expected = Math.log(10) / Math.log(1 + REFIT_GROWTH);
    expect(fits).toBeGreaterThanOrEqual(Math.floor(expected) - 1);
    expect(fits).toBeLessThanOrEqual(Math.ceil(expected) + 1);
    expect(rounds).toBe(900);
  });
});
