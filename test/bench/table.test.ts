import { describe, expect, it } from 'vitest';
import { comparison, formatRows, quantile, type BenchRow } from '../../bench/support/table.js';

const row = (over: Partial<BenchRow>): BenchRow => ({
  figure: 'f',
  ours: 1,
  peer: 'target',
  theirs: 2,
  unit: '%',
  better: 'lower',
  ...over,
});

describe('the bench table', () => {
  it('gives the ratio qrelay / peer beside a peer or a positive target', () => {
    expect(comparison(row({ ours: 0.79, theirs: 2 }))).toBe('0.40× (lower is better)');
    expect(comparison(row({ peer: 'crowd-kit MajorityVote', ours: 12.2, theirs: 49.9, unit: 'ms' }))).toBe('0.24× (lower is better)');
    expect(comparison(row({ peer: 'crowd-kit', ours: 3, theirs: 0 }))).toBe('n/a');
  });

  it('gives the difference from a target of 0 or below, signed, in the figure unit', () => {
    expect(comparison(row({ ours: 0, theirs: 0, unit: '' }))).toBe('0.00 from the target (lower is better)');
    expect(comparison(row({ ours: 1, theirs: 0, unit: '' }))).toBe('+1.00 from the target (lower is better)');
    expect(comparison(row({ ours: -1.1, theirs: -1, unit: 'pt', better: 'higher' }))).toBe('-0.10 pt from the target (higher is better)');
    expect(comparison(row({ ours: -0.2, theirs: -1, unit: 'pt', better: 'higher' }))).toBe('+0.80 pt from the target (higher is better)');
    expect(comparison(row({ ours: 12, theirs: -1, unit: 'pt', better: 'higher' }))).toBe('+13.0 pt from the target (higher is better)');
  });

  it('lays the rows out as a markdown table, one line per row under the head', () => {
    const lines = formatRows([
      row({ figure: 'a', ours: 1, theirs: 2 }),
      row({ figure: 'bb', ours: -0.5, theirs: -1, unit: 'pt', better: 'higher' }),
    ]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^\| figure \| qrelay\s+\| peer\s+\| peer figure \| ratio qrelay\/peer \(or qrelay − target\)\s+\|$/);
    expect(lines[1]).toMatch(/^\|-+\|-+\|-+\|-+\|-+\|$/);
    expect(lines[2]).toMatch(/^\| a\s+\| 1\.00 %\s+\| target \| 2\.00 %\s+\| 0\.50× \(lower is better\)\s+\|$/);
    expect(lines[3]).toMatch(/^\| bb\s+\| -0\.50 pt \| target \| -1\.00 pt\s+\| \+0\.50 pt from the target \(higher is better\)\s+\|$/);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });

  it('takes the nearest-rank quantile of unsorted values', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 1)).toBe(5);
    expect(quantile([5, 1, 3, 2, 4], 0)).toBe(1);
    expect(quantile([], 0.5)).toBeNaN();
  });
});
