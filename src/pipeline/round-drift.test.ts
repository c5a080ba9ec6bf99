import { describe, expect, it } from 'vitest';
import { EVERY_FIT_UP_TO, REFIT_GROWTH } from '../quality/llm-refit.js';
import { workersToTest, type DriftTests } from './round-drift.js';

const counts = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('workersToTest', () => {
  it('tests everyone first, and remembers what each worker had', () => {
    const { tested, next } = workersToTest(counts({ a: 3, b: 2 }), undefined);
    expect(tested).toBeUndefined();
    expect(next).toEqual({ wholeAt: 5, byWorker: counts({ a: 3, b: 2 }) });
  });

  it('tests everyone in every round of a batch of up to EVERY_FIT_UP_TO assignments', () => {
    const last: DriftTests = { wholeAt: EVERY_FIT_UP_TO - 10, byWorker: counts({ a: EVERY_FIT_UP_TO - 10 }) };
    expect(workersToTest(counts({ a: EVERY_FIT_UP_TO - 10 }), last).tested).toBeUndefined();
    expect(workersToTest(counts({ a: EVERY_FIT_UP_TO - 10, b: 10 }), last).tested).toBeUndefined();
  });

  it('in a larger batch, tests only the workers whose assignments changed since their last test', () => {
    const last: DriftTests = { wholeAt: 1_000, byWorker: counts({ a: 600, b: 400 }) };
    const { tested, next } = workersToTest(counts({ a: 605, b: 400, c: 2 }), last);
    expect([...tested!].sort()).toEqual(['a', 'c']);
    expect(next).toEqual({ wholeAt: 1_000, byWorker: counts({ a: 605, b: 400, c: 2 }) });
    // nothing new: nobody is tested
    expect(workersToTest(counts({ a: 605, b: 400, c: 2 }), next).tested).toEqual(new Set());
  });

  it('tests everyone again when the batch grew by REFIT_GROWTH since the last test of everyone', () => {
    const last: DriftTests = { wholeAt: 1_000, byWorker: counts({ a: 600, b: 400 }) };
    const grown = 1_000 * (1 + REFIT_GROWTH);
    const { tested, next } = workersToTest(counts({ a: 600 + grown - 1_000, b: 400 }), last);
    expect(tested).toBeUndefined();
    expect(next.wholeAt).toBe(grown);
  });
});
