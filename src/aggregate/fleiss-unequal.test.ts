import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fleissKappa } from './fleiss-kappa.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import type { Vote } from './votes.js';

/**
 * Fleiss' κ for unequal rater counts against Gwet's irrCAC (and statsmodels where the
 * counts are equal), computed by tools/fixtures/agreement_reference.py.
 */
interface Reference {
  name: string;
  categories: string[];
  votes: Vote[];
  irrCAC: { fleissKappa: number; pa: number; pe: number };
  raterCounts: Record<string, number>;
  statsmodels?: number;
  krippendorffAlpha: number;
}

const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/aggregate/fleiss-unequal.json', import.meta.url), 'utf8')) as {
  versions: Record<string, string>;
  sets: Reference[];
};

describe.each(fixture.sets)("Fleiss' κ against irrCAC: $name", (ref) => {
  const result = fleissKappa.compute(ref.votes, ref.categories);

  it('gives the same κ, observed and chance agreement', () => {
    expect(result.value).not.toBeNull();
    expect(Math.abs(result.value! - ref.irrCAC.fleissKappa)).toBeLessThan(1e-12);
    expect(Math.abs(result.observedAgreement! - ref.irrCAC.pa)).toBeLessThan(1e-12);
    expect(Math.abs(result.chanceAgreement! - ref.irrCAC.pe)).toBeLessThan(1e-12);
  });

  it('uses every item with 2 or more ratings and says how many ratings they had', () => {
    const counts = Object.entries(ref.raterCounts).map(([r, n]) => ({ r: Number(r), n }));
    const paired = counts.filter((c) => c.r >= 2);
    expect(result.itemsUsed).toBe(paired.reduce((s, c) => s + c.n, 0));
    expect(result.itemsExcluded).toBe(ref.raterCounts['1'] ?? 0);
    expect(result.ratingsUsed).toBe(paired.reduce((s, c) => s + c.r * c.n, 0));
    expect(result.raters).toMatchObject({ min: Math.min(...paired.map((c) => c.r)), max: Math.max(...paired.map((c) => c.r)) });
    expect(result.ratersPerItem).toBe(paired.length === 1 ? paired[0]!.r : null);
  });

  it("Krippendorff's α agrees with the krippendorff package on the same votes", () => {
    expect(Math.abs(krippendorffAlpha.compute(ref.votes, ref.categories).value! - ref.krippendorffAlpha)).toBeLessThan(1e-12);
  });
});

describe.each(fixture.sets.filter((s) => s.statsmodels !== undefined))(
  "Fleiss' κ against statsmodels where every item has the same count: $name",
  (ref) => {
    it('is the classic κ', () => {
      expect(Math.abs(fleissKappa.compute(ref.votes, ref.categories).value! - ref.statsmodels!)).toBeLessThan(1e-12);
    });
  },
);

describe('the fixture', () => {
  it('covers unequal counts, single ratings and an equal-count control', () => {
    expect(fixture.versions.irrCAC).toBeDefined();
    const names = fixture.sets.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['adaptive', 'midbatch', 'equal-3']));
    expect(Object.keys(fixture.sets.find((s) => s.name === 'midbatch')!.raterCounts)).toContain('1');
  });
});
