import { describe, expect, it } from 'vitest';
import { besideTheirQuery, countSources, describeCheckSources, pageQueryShare, queryAffinity } from './check-sources.js';
import { seededRng } from './random.js';

describe('check queries', () => {
  const page = new Set(['q one']);
  const batch = new Set(['q one', 'q two']);

  it('prefer a query shared with the page or not, as wanted, then any of the batch, then any other', () => {
    expect(queryAffinity(' Q  One', true, page, batch)).toBe(0);
    expect(queryAffinity('q two', true, page, batch)).toBe(1);
    expect(queryAffinity('q two', false, page, batch)).toBe(0);
    expect(queryAffinity('q one', false, page, batch)).toBe(1);
    expect(queryAffinity('q three', true, page, batch)).toBe(2);
  });

  it("measure how many of a page's real items share their query with another", () => {
    expect(pageQueryShare(['a', 'a', 'b', 'c'])).toBe(0.5);
    expect(pageQueryShare(['a', 'b'])).toBe(0);
    expect(pageQueryShare([])).toBe(0);
  });
});

describe('besideTheirQuery', () => {
  const item = (query: string, check = false, id = query) => ({ query, check, id });

  it("puts a check into its query's run, keeps real items in order, and leaves other checks where they were", () => {
    for (let s = 0; s < 20; s++) {
      const out = besideTheirQuery(
        [item('x', true, 'c1'), item('a'), item('a', false, 'a2'), item('b'), item('z', true, 'c2')],
        seededRng(`p${s}`),
      );
      const ids = out.map((o) => o.id);
      expect(ids.filter((id) => !id.startsWith('c'))).toEqual(['a', 'a2', 'b']);
      expect(ids[0]).toBe('c1');
      expect(ids.at(-1)).toBe('c2');
    }
    const slots = new Set<number>();
    for (let s = 0; s < 40; s++) {
      const out = besideTheirQuery([item('b'), item('a', true, 'check'), item('a'), item('a', false, 'a2'), item('c')], seededRng(`q${s}`));
      const at = out.findIndex((o) => o.id === 'check');
      slots.add(at);
      expect(at).toBeGreaterThanOrEqual(1);
      expect(at).toBeLessThanOrEqual(3);
    }
    expect(slots.size).toBe(3);
  });

  it('leaves a check in place when its query has no run of side-by-side items', () => {
    const out = besideTheirQuery([item('a'), item('b'), item('a', true, 'check'), item('c'), item('a', false, 'a2')], seededRng('s'));
    expect(out.map((o) => o.id)).toEqual(['a', 'b', 'check', 'c', 'a2']);
  });
});

describe('describeCheckSources', () => {
  it('says how many checks use each debate source and how many use other queries', () => {
    const debateSources = countSources(['derived', 'derived', 'gold']);
    expect(debateSources).toEqual({ gold: 1, derived: 2, template: 0 });
    expect(describeCheckSources({ total: 3, debateSources, otherQueries: 1 })).toBe(
      "check debates: 1 the gold item's own, 2 adapted from the batch's debates, 0 from the template; 1 of 3 use a query outside the batch",
    );
    expect(describeCheckSources({ total: 3 })).toBe('check debate sources not recorded');
  });
});
