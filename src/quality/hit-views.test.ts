import { describe, expect, it } from 'vitest';
import { expectedAnswersOf, realItemsOf } from './hit-views.js';
import type { HitRecord } from './types.js';

describe('a HIT record’s items and checks, built once per record', () => {
  const hit: HitRecord = {
    hitId: 'H1',
    items: ['a', 'b', 'a'],
    checks: [
      { item: 'c1', expected: 'yes' },
      { item: 'c2', expected: 'no' },
    ],
  };

  it('gives the real items as a set and the checks as item -> known answer', () => {
    expect([...realItemsOf(hit)]).toEqual(['a', 'b']);
    expect([...expectedAnswersOf(hit)]).toEqual([
      ['c1', 'yes'],
      ['c2', 'no'],
    ]);
    expect(realItemsOf({ hitId: 'H0', items: [], checks: [] }).size).toBe(0);
  });

  it('answers the same objects while the record keeps its arrays, and new ones when it is given others', () => {
    const items = realItemsOf(hit);
    expect(realItemsOf(hit)).toBe(items);
    expect(expectedAnswersOf(hit)).toBe(expectedAnswersOf(hit));
    const changed = hit as { items: readonly string[]; checks: HitRecord['checks'] };
    changed.items = ['z'];
    expect([...realItemsOf(hit)]).toEqual(['z']);
    changed.checks = [{ item: 'c3', expected: 'yes' }];
    expect([...expectedAnswersOf(hit)]).toEqual([['c3', 'yes']]);
  });
});
