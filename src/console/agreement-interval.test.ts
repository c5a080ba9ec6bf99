import { describe, expect, it } from 'vitest';
import { fleissKappa } from '../aggregate/fleiss-kappa.js';
import type { Vote } from '../aggregate/votes.js';
import { bootstrapAgreement } from './agreement-interval.js';

const CATS = ['yes', 'no'] as const;

function votes(pattern: string[]): Vote<'yes' | 'no'>[] {
  // one string per item: "yyn" = two yes and one no
  return pattern.flatMap((p, i) =>
    [...p].map((c, w) => ({ item: `i${i}`, worker: `w${w}`, label: c === 'y' ? ('yes' as const) : ('no' as const) })),
  );
}

const mixed = votes(['yyy', 'nnn', 'yyn', 'nny', 'yyy', 'nnn', 'yny', 'nnn', 'yyy', 'ynn', 'yyy', 'nnn']);

describe('bootstrapAgreement', () => {
  it('brackets the point value and is reproducible from its seed', () => {
    for (const measure of ['fleissKappa', 'krippendorffAlpha'] as const) {
      const a = bootstrapAgreement(measure, mixed, CATS, { seed: 's', resamples: 300 });
      expect(a.low).not.toBeNull();
      expect(a.low!).toBeLessThanOrEqual(a.value!);
      expect(a.high!).toBeGreaterThanOrEqual(a.value!);
      expect(a.high! - a.low!).toBeGreaterThan(0);
      expect(bootstrapAgreement(measure, mixed, CATS, { seed: 's', resamples: 300 })).toEqual(a);
      expect(a).toMatchObject({ measure, level: 0.95, resamples: 300, items: 12 });
    }
    expect(bootstrapAgreement('fleissKappa', mixed, CATS, { seed: 's' }).value).toBeCloseTo(
      fleissKappa.compute(mixed, [...CATS]).value!,
      12,
    );
  });

  it('narrows as the same pattern repeats over more items', () => {
    const pattern = ['yyy', 'nnn', 'yyn', 'nny', 'yyy', 'nnn', 'yny', 'nnn', 'yyy', 'ynn', 'yyy', 'nnn'];
    const small = bootstrapAgreement('fleissKappa', mixed, CATS, { seed: 's', resamples: 300 });
    const big = bootstrapAgreement('fleissKappa', votes(Array.from({ length: 10 }, () => pattern).flat()), CATS, {
      seed: 's',
      resamples: 300,
    });
    expect(big.high! - big.low!).toBeLessThan(small.high! - small.low!);
  });

  it('gives no interval when the measure is undefined or a single item has votes', () => {
    const none = bootstrapAgreement('fleissKappa', [], CATS, { seed: 's' });
    expect(none).toMatchObject({ value: null, low: null, high: null, items: 0 });
    expect(none.reason).toEqual(expect.any(String));
    expect(bootstrapAgreement('krippendorffAlpha', votes(['yyn']), CATS, { seed: 's' })).toMatchObject({ low: null, high: null, items: 1 });
  });
});
