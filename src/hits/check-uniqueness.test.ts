import { describe, expect, it } from 'vitest';
import { makeCases, makeGold, PRICING } from '../../test/hits/fixtures.js';
import { describeShortfall, goldShortfall, goldUses } from './check-uniqueness.js';
import type { PlannedItem } from './plan-schema.js';
import { planHits, type PlanInput, type PlanLayoutInput } from './plan.js';

const plan = (input: PlanInput, layout: PlanLayoutInput = {}, seed = 'uniq') => planHits(input, { seed, layout, pricing: PRICING });

const checkKeys = (hits: readonly { items: readonly PlannedItem[] }[]) =>
  hits.flatMap((h) => h.items.flatMap((i) => (i.kind === 'check' ? [i.key] : [])));

describe('each gold item in at most one HIT while the pool allows', () => {
  it.each([
    [90, 10, 10],
    [45, 3, 2],
    [180, 10, 10],
  ])('%i items with %i yes and %i no gold items: every check unique', (items, yes, no) => {
    const p = plan({ cases: makeCases(items), gold: makeGold(yes, no) });
    const keys = checkKeys(p.hits);
    expect(keys.length).toBe(p.checks.total);
    expect(new Set(keys).size).toBe(keys.length);
    expect(p.checks.maxUsesOfOneGoldItem).toBe(1);
    const need = goldShortfall(p.hits, makeGold(yes, no));
    expect(need.repeats).toBe(0);
    expect(describeShortfall(need)).toBeUndefined();
    // both polarities, balanced
    expect(Math.abs(need.needed.yes - need.needed.no)).toBeLessThanOrEqual(1);
  });

  it("draws a later plan's checks (a collection round's HITs) from the gold the batch has not used yet", () => {
    const gold = makeGold(6, 6);
    const first = plan({ cases: makeCases(36), gold });
    expect(first.checks.total).toBe(4);
    const later = plan({ cases: makeCases(36, { prefix: 'r' }), gold, priorGoldUses: goldUses(first.hits) }, {}, 'uniq|repost-1');
    const all = [...checkKeys(first.hits), ...checkKeys(later.hits)];
    expect(new Set(all).size).toBe(8);
    expect(goldShortfall([...first.hits, ...later.hits], gold).repeats).toBe(0);
    // once the pool is used up, the least used items come back, and the shortfall says so
    const third = plan(
      { cases: makeCases(36, { prefix: 's' }), gold, priorGoldUses: goldUses([...first.hits, ...later.hits]) },
      {},
      'uniq|repost-2',
    );
    const all3 = [...first.hits, ...later.hits, ...third.hits];
    expect(new Set(checkKeys(all3)).size).toBe(12);
    expect(goldShortfall(all3, gold)).toEqual({ needed: { yes: 6, no: 6 }, available: { yes: 6, no: 6 }, repeats: 0 });
  });

  it("reports the plan's own need as `goldNeed`", () => {
    const gold = makeGold(2, 3);
    const p = plan({ cases: makeCases(90), gold });
    expect(p.goldNeed).toEqual(goldShortfall(p.hits, gold));
  });

  it('says how many gold items of each polarity the batch lacks when the pool is too small', () => {
    const gold = makeGold(2, 3);
    const p = plan({ cases: makeCases(90), gold });
    // 10 checks: 5 of each polarity over 2 yes and 3 no items
    const need = goldShortfall(p.hits, gold);
    expect(need.needed).toEqual({ yes: 5, no: 5 });
    expect(need.available).toEqual({ yes: 2, no: 3 });
    expect(need.repeats).toBe(5);
    // least used first: uses spread as evenly as the pool allows
    expect(p.checks.maxUsesOfOneGoldItem).toBe(3);
    expect(describeShortfall(need)).toBe(
      'attention checks repeat: 5 check slots reuse a gold item of another HIT, so a worker may meet a check twice ' +
        '(a repeat counts once in their record, never as new evidence); for every check to be unique the gold pool needs ' +
        '3 more labelled "yes" (5 needed, 2 usable) and 2 more labelled "no" (5 needed, 3 usable)',
    );
  });

  it('counts uses by gold key across HITs', () => {
    const check = (key: string): PlannedItem => ({
      kind: 'check',
      position: 1,
      key,
      queryId: 'q',
      chunkId: 'c',
      dataset: 'd',
      expected: 'yes',
    });
    const uses = goldUses([{ items: [check('a'.repeat(16))] }, { items: [check('a'.repeat(16)), check('b'.repeat(16))] }]);
    expect([...uses]).toEqual([
      ['a'.repeat(16), 2],
      ['b'.repeat(16), 1],
    ]);
  });
});
