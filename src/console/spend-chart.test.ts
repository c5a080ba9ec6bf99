import { describe, expect, it } from 'vitest';
import { spendChart, spendSeries } from './spend-chart.js';

describe('spendSeries', () => {
  it('accumulates work and bonuses in time order from (0, 0)', () => {
    expect(
      spendSeries([
        { atMs: 120_000, cents: 120, kind: 'work' },
        { atMs: 60_000, cents: 120, kind: 'work' },
        { atMs: 180_000, cents: 60, kind: 'bonus' },
        { atMs: -5, cents: 1, kind: 'work' },
      ]),
    ).toEqual([
      { seconds: 0, cents: 0 },
      { seconds: 0, cents: 1 },
      { seconds: 60, cents: 121 },
      { seconds: 120, cents: 241 },
      { seconds: 180, cents: 301 },
    ]);
  });
});

describe('spendChart', () => {
  it('draws the spend as a step line with budget and quote lines, escaped', () => {
    const svg = spendChart([{ atMs: 60_000, cents: 240, kind: 'work' }], { budgetCents: 1000, quoteCents: 720 });
    expect(svg).toMatch(/^<svg [^>]*id="chart-spend"/);
    expect(svg).toContain('data-series="spend"');
    expect(svg).toContain('data-ref="budget"');
    expect(svg).toContain('data-ref="quote"');
    expect(svg).toContain('$2.40 paid');
    expect(svg).not.toMatch(/NaN|undefined/);
  });

  it('says so when nothing was paid', () => {
    const svg = spendChart([], { budgetCents: null, quoteCents: null });
    expect(svg).toContain('Nothing paid yet');
    expect(svg).not.toContain('data-series="spend"');
  });
});
