import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seededRng } from '../hits/random.js';
import { agreementInterval, agreementIntervalIndexed, quantile } from './agreement-interval.js';
import { fleissKappa } from './fleiss-kappa.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';
import { indexVotes, type Vote } from './votes.js';

const fixture = JSON.parse(readFileSync(new URL('../../test/fixtures/aggregate/fleiss-unequal.json', import.meta.url), 'utf8')) as {
  sets: { name: string; categories: string[]; votes: Vote[]; irrCAC: { fleissKappa: number; standardError: number } }[];
};
const set = (name: string) => fixture.sets.find((s) => s.name === name)!;
const random = (seed: string) => {
  const rng = seededRng(seed);
  return () => rng.next();
};

describe('agreementInterval', () => {
  it('is repeated exactly by its seed and brackets the point estimate', () => {
    const { votes, categories } = set('adaptive');
    const a = agreementInterval('fleissKappa', votes, categories, { random: random('s1') });
    const b = agreementInterval('fleissKappa', votes, categories, { random: random('s1') });
    expect(a).toEqual(b);
    const kappa = fleissKappa.compute(votes, categories).value!;
    expect(a.low!).toBeLessThan(kappa);
    expect(a.high!).toBeGreaterThan(kappa);
    expect(a).toMatchObject({ measure: 'fleissKappa', level: 0.95, replicates: 1000, undefinedReplicates: 0 });
    const alpha = agreementInterval('krippendorffAlpha', votes, categories, { random: random('s1') });
    const value = krippendorffAlpha.compute(votes, categories).value!;
    expect(alpha.low!).toBeLessThan(value);
    expect(alpha.high!).toBeGreaterThan(value);
  });

  it.each(['adaptive', 'midbatch', 'equal-3', 'synthetic-binary'])(
    "has the width that Gwet's analytic standard error (irrCAC) implies, within 20%: %s",
    (name) => {
      const { votes, categories, irrCAC } = set(name);
      const interval = agreementInterval('fleissKappa', votes, categories, { random: random(name), replicates: 4000 });
      const implied = 2 * 1.959964 * irrCAC.standardError;
      expect((interval.high! - interval.low!) / implied).toBeGreaterThan(0.8);
      expect((interval.high! - interval.low!) / implied).toBeLessThan(1.2);
    },
  );

  it('gives the same interval from votes indexed already, whatever their order', () => {
    for (const measure of ['fleissKappa', 'krippendorffAlpha'] as const) {
      const { votes, categories } = set('adaptive');
      const indexed = indexVotes([...votes].reverse(), categories);
      const fromVotes = agreementInterval(measure, votes, categories, { random: random('i'), replicates: 200 });
      expect(agreementIntervalIndexed(measure, indexed, { random: random('i'), replicates: 200 })).toEqual(fromVotes);
      expect(fromVotes.low).not.toBeNull();
    }
  });

  it('narrows as items are added', () => {
    const small = set('equal-3');
    const twice = [...small.votes, ...small.votes.map((v) => ({ ...v, item: `${v.item}-copy` }))];
    const a = agreementInterval('fleissKappa', small.votes, small.categories, { random: random('n') });
    const b = agreementInterval('fleissKappa', twice, small.categories, { random: random('n') });
    expect(b.high! - b.low!).toBeLessThan(a.high! - a.low!);
  });

  it('gives no interval when the measure is undefined on most replicates, and says so', () => {
    const votes: Vote[] = [1, 2, 3].flatMap((i) => ['a', 'b', 'c'].map((worker) => ({ item: `i${i}`, worker, label: 'yes' })));
    const result = agreementInterval('fleissKappa', votes, ['yes', 'no'], { random: random('u'), replicates: 50 });
    expect(result).toEqual({ measure: 'fleissKappa', level: 0.95, low: null, high: null, replicates: 50, undefinedReplicates: 50 });
    expect(agreementInterval('krippendorffAlpha', [], ['yes', 'no'], { random: random('u') }).low).toBeNull();
  });

  it('refuses impossible options with the option named', () => {
    const { votes, categories } = set('equal-3');
    expect(() => agreementInterval('fleissKappa', votes, categories, { random: Math.random, replicates: 0 })).toThrow(/replicates: 0/);
    expect(() => agreementInterval('fleissKappa', votes, categories, { random: Math.random, level: 1 })).toThrow(/level: 1/);
  });
});

describe('quantile', () => {
  it("interpolates as numpy's default does", () => {
    // numpy.quantile([1, 2, 3, 4], [0, 0.025, 0.5, 0.975, 1]) = [1, 1.075, 2.5, 3.925, 4]
    const q = [0, 0.025, 0.5, 0.975, 1].map((p) => quantile([1, 2, 3, 4], p));
    [1, 1.075, 2.5, 3.925, 4].forEach((v, i) => expect(q[i]!).toBeCloseTo(v, 12));
  });
});
