import { describe, expect, it } from 'vitest';
import { makeCases, makeGold, PRICING } from '../../test/hits/fixtures.js';
import type { Judgment } from '../domain/cases.js';
import {
  AdaptiveChecks,
  audienceMoves,
  describeAdaptive,
  groupItems,
  polaritiesPerHit,
  starterChecksFor,
  starterHitsWanted,
  starterRealItems,
  type AudienceHit,
  type HitAudience,
} from './adaptive-checks.js';
import type { PlannedItem } from './plan-schema.js';
import { balancedPolarities, planHits } from './plan.js';
import { seededRng } from './random.js';

const adaptive = (input: Partial<AdaptiveChecks> = {}) => AdaptiveChecks.parse(input);
const checks = (items: readonly PlannedItem[]) => items.filter((i) => i.kind === 'check');

describe('sizes', () => {
  it('defaults: 2 starter HITs a worker, 3 checks in a starter HIT, 50 workers expected', () => {
    expect(adaptive()).toEqual({ starterHits: 2, starterChecks: 3, expectedWorkers: 50 });
    expect(() => AdaptiveChecks.parse({ starterHits: 0 })).toThrow();
    expect(() => AdaptiveChecks.parse({ other: 1 })).toThrow();
  });

  it('keeps the page size of a full regular HIT: 9 real + 1 check makes a 7 + 3 starter', () => {
    expect(starterRealItems(9, 1, { starterChecks: 3 })).toBe(7);
    expect(starterRealItems(9, 1, { starterChecks: 10 })).toBe(1);
    expect(starterRealItems(18, 2, { starterChecks: 4 })).toBe(16);
  });

  it('sizes the starter pool from the expected workers: each does starterHits, assignmentsPerHit to a HIT', () => {
    expect(starterHitsWanted(adaptive({ expectedWorkers: 30, starterHits: 2 }), 3)).toBe(20);
    expect(starterHitsWanted(adaptive({ expectedWorkers: 31, starterHits: 2 }), 3)).toBe(21);
    expect(starterHitsWanted(adaptive({ expectedWorkers: 10, starterHits: 1 }), 1)).toBe(10);
  });

  it('gives a starter HIT its starterChecks, a smaller one (a split) a share, at least one', () => {
    expect(starterChecksFor(7, 7, { starterChecks: 3 })).toBe(3);
    expect(starterChecksFor(4, 7, { starterChecks: 3 })).toBe(2);
    expect(starterChecksFor(1, 7, { starterChecks: 3 })).toBe(1);
  });
});

describe('groupItems', () => {
  const layout = { itemsPerHit: 9, regularChecks: 1 };

  it('without adaptive checks: itemsPerHit to a HIT, no audience', () => {
    expect(groupItems(20, layout, 3)).toEqual([
      { items: [0, 1, 2, 3, 4, 5, 6, 7, 8] },
      { items: [9, 10, 11, 12, 13, 14, 15, 16, 17] },
      { items: [18, 19] },
    ]);
  });

  it('starter HITs first, as many as the expected workers need, then regular HITs; every item once, in order', () => {
    const g = groupItems(50, { ...layout, adaptive: adaptive({ expectedWorkers: 3, starterHits: 2 }) }, 3);
    expect(g.map((x) => [x.audience, x.items.length])).toEqual([
      ['starter', 7],
      ['starter', 7],
      ['regular', 9],
      ['regular', 9],
      ['regular', 9],
      ['regular', 9],
    ]);
    expect(g.flatMap((x) => x.items)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('never more starter HITs than the batch fills', () => {
    const g = groupItems(10, { ...layout, adaptive: adaptive({ expectedWorkers: 100 }) }, 3);
    expect(g.map((x) => [x.audience, x.items.length])).toEqual([
      ['starter', 7],
      ['starter', 3],
    ]);
  });

  it('puts every item in HITs of one kind when asked', () => {
    const a = adaptive();
    expect(groupItems(9, { ...layout, adaptive: a }, 3, 'starter').map((x) => [x.audience, x.items.length])).toEqual([
      ['starter', 7],
      ['starter', 2],
    ]);
    expect(groupItems(9, { ...layout, adaptive: a }, 3, 'regular').map((x) => [x.audience, x.items.length])).toEqual([['regular', 9]]);
  });
});

describe('polaritiesPerHit', () => {
  const count = (p: Judgment[], l: Judgment) => p.filter((x) => x === l).length;

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('seed %i: both polarities in every starter HIT; the batch balanced within one', (seed) => {
    const counts = [3, 3, 3, 2, 3, 1, 1, 1, 1, 1, 1, 1];
    const audiences: HitAudience[] = ['starter', 'starter', 'starter', 'starter', 'starter', ...Array<HitAudience>(7).fill('regular')];
    const p = polaritiesPerHit(counts, audiences, seededRng(`p${seed}`), balancedPolarities);
    expect(p.map((x) => x.length)).toEqual(counts);
    for (const [i, x] of p.entries()) if (audiences[i] === 'starter') expect(new Set(x)).toEqual(new Set(['yes', 'no']));
    const all = p.flat();
    expect(Math.abs(count(all, 'yes') - count(all, 'no'))).toBeLessThanOrEqual(1);
  });

  it('with too few regular checks to make up the tilt, stays as close as it can', () => {
    const p = polaritiesPerHit([3], ['starter'], seededRng('x'), balancedPolarities);
    expect(new Set(p[0])).toEqual(new Set(['yes', 'no']));
  });
});

describe('planHits with adaptive checks', () => {
  const layout = { itemsPerHit: 9, checksPerHit: 1, adaptive: { expectedWorkers: 6, starterHits: 2, starterChecks: 3 } };

  it('plans starter HITs (3 checks of both polarities, 7 real items) then regular ones (1 check); every gold item once', () => {
    const p = planHits({ cases: makeCases(60), gold: makeGold(20, 20) }, { seed: 's', layout, pricing: PRICING });
    // 6 workers x 2 starter HITs / 3 assignments = 4 starter HITs
    expect(p.hits.map((h) => [h.audience, h.realItems, h.checks])).toEqual([
      ['starter', 7, 3],
      ['starter', 7, 3],
      ['starter', 7, 3],
      ['starter', 7, 3],
      ['regular', 9, 1],
      ['regular', 9, 1],
      ['regular', 9, 1],
      ['regular', 5, 1],
    ]);
    for (const h of p.hits.filter((x) => x.audience === 'starter'))
      expect(new Set(checks(h.items).map((c) => c.kind === 'check' && c.expected))).toEqual(new Set(['yes', 'no']));
    expect(p.checks.maxUsesOfOneGoldItem).toBe(1);
    expect(Math.abs(p.checks.yes - p.checks.no)).toBeLessThanOrEqual(1);
    // the quote counts the extra checks: 16 checks among 76 items shown
    expect(p.checks.total).toBe(16);
    expect(p.quote.checkShare).toBeCloseTo(16 / 76, 6);
    expect(p.quote.hits).toBe(8);
  });

  it('says so in the dry run', () => {
    const p = planHits({ cases: makeCases(60), gold: makeGold(20, 20) }, { seed: 's', layout, pricing: PRICING });
    expect(describeAdaptive(p)).toBe(
      "adaptive checks: 4 starter HITs (28 items, 12 checks of both polarities) for workers' first 2 HITs, sized for 6 workers; " +
        'then regular HITs (qualification qrelay-experience); the quote includes the extra checks',
    );
    expect(
      describeAdaptive(planHits({ cases: makeCases(9), gold: makeGold(2, 2) }, { seed: 's', layout: {}, pricing: PRICING })),
    ).toBeUndefined();
  });

  it('plans HITs of one kind for a collection round moving items over', () => {
    const p = planHits({ cases: makeCases(9), gold: makeGold(5, 5), audience: 'starter' }, { seed: 's', layout, pricing: PRICING });
    expect(p.hits.map((h) => [h.audience, h.realItems, h.checks])).toEqual([
      ['starter', 7, 3],
      ['starter', 2, 1],
    ]);
  });
});

describe('audienceMoves', () => {
  const hit = (id: string, audience: HitAudience, available: number, open = true): AudienceHit => ({ id, audience, open, available });
  const both = { starter: true, regular: true };

  it('moves regular HITs to starters when every starter slot is taken, most free slots first', () => {
    const hits = [
      hit('s1', 'starter', 0),
      hit('s2', 'starter', 3, false),
      hit('r1', 'regular', 1),
      hit('r2', 'regular', 3),
      hit('r3', 'regular', 0),
    ];
    expect(audienceMoves(hits, 1, both)).toEqual({ to: 'starter', ids: ['r2'] });
    expect(audienceMoves(hits, 5, both)).toEqual({ to: 'starter', ids: ['r2', 'r1'] });
  });

  it('moves starter HITs to regular ones when the regular slots are taken and experienced workers are there', () => {
    const hits = [hit('s1', 'starter', 2), hit('r1', 'regular', 0)];
    expect(audienceMoves(hits, 2, both)).toEqual({ to: 'regular', ids: ['s1'] });
    // nobody experienced yet: no one wants regular HITs
    expect(audienceMoves(hits, 2, { starter: true, regular: false })).toBeUndefined();
  });

  it('moves nothing while both kinds offer slots, or when nothing can go over', () => {
    expect(audienceMoves([hit('s1', 'starter', 1), hit('r1', 'regular', 1)], 2, both)).toBeUndefined();
    expect(audienceMoves([hit('s1', 'starter', 0), hit('r1', 'regular', 0)], 2, both)).toBeUndefined();
    expect(audienceMoves([], 2, both)).toBeUndefined();
  });
});
