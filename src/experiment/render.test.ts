import { describe, expect, it } from 'vitest';
import type { ExperimentSummary } from './compare.js';
import { renderExperiment } from './render.js';

const test = 'two-sided permutation test over workers (1000 relabelings)';
const summary: ExperimentSummary = {
  factor: 'debate',
  design: 'between-subjects',
  arms: [
    {
      arm: 'debate',
      workers: 30,
      items: 270,
      balancedAccuracy: { value: 0.95, low: 0.93, high: 0.97 },
      kappa: { value: 0.62, low: 0.55, high: 0.68 },
      secondsPerItem: { value: 48.25, low: 44, high: 52.5 },
    },
    {
      arm: 'no-debate',
      workers: 30,
      items: 270,
      balancedAccuracy: { value: 0.9, low: null, high: null },
      kappa: { value: 0.5, low: 0.44, high: 0.57 },
      secondsPerItem: { value: null, low: null, high: null },
    },
  ],
  difference: {
    balancedAccuracy: { value: 0.05, low: 0.01, high: 0.09, p: 0.012, test },
    kappa: { value: 0.12, low: 0.03, high: 0.21, p: 0.004, test },
    secondsPerItem: { value: null, low: null, high: null, p: null, test },
  },
};

describe('renderExperiment', () => {
  const text = renderExperiment(summary);
  const lines = text.split('\n');

  it('prints one row per arm with each statistic and its interval', () => {
    expect(lines[2]).toMatch(/^debate\s+30\s+270\s+95\.0% \[93\.0%, 97\.0%\]\s+0\.620 \[0\.550, 0\.680\]\s+48\.3 s \[44\.0 s, 52\.5 s\]$/);
    expect(lines[3]).toMatch(/^no-debate\s+30\s+270\s+90\.0% \[n\/a\]\s+0\.500 \[0\.440, 0\.570\]\s+n\/a$/);
  });

  it('prints the difference, signed, with its interval and p-value, and names the test', () => {
    expect(lines[4]).toMatch(
      /^difference\s+\+5\.0 pts \[\+1\.0 pts, \+9\.0 pts\] p=0\.012\s+\+0\.120 \[\+0\.030, \+0\.210\] p=0\.004\s+n\/a$/,
    );
    expect(text).toContain(`test: ${test}`);
  });

  it('heads the columns, aligned', () => {
    expect(lines[0]).toContain('between-subjects');
    expect(lines[1]).toMatch(/^\s+workers\s+items\s+balanced accuracy \(checks\)\s+Fleiss κ\s+seconds per item$/);
    expect(lines[1]!.indexOf('Fleiss κ')).toBe(lines[2]!.indexOf('0.620'));
  });
});
