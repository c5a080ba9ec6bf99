import { describe, expect, it } from 'vitest';
import type { ExperimentSummary } from '../../experiment/compare.js';
import { experimentSection } from './experiment-section.js';

const none = { value: null, low: null, high: null };
const summary: ExperimentSummary = {
  factor: 'debate',
  design: 'between-subjects',
  arms: [
    {
      arm: 'debate',
      workers: 12,
      items: 40,
      balancedAccuracy: { value: 0.92, low: 0.88, high: 0.95 },
      kappa: { value: 0.62, low: 0.55, high: 0.7 },
      secondsPerItem: { value: 21.5, low: 18, high: 25.25 },
    },
    {
      arm: 'no-debate',
      workers: 11,
      items: 40,
      balancedAccuracy: { value: 0.873, low: 0.8, high: 0.9 },
      kappa: none,
      secondsPerItem: none,
    },
  ],
  difference: {
    balancedAccuracy: { value: 0.047, low: -0.01, high: 0.1, p: 0.0004, test: 'permutation' },
    kappa: { ...none, p: null, test: 'permutation' },
    secondsPerItem: { ...none, p: null, test: 'permutation' },
  },
};

describe('the report section of the debate experiment', () => {
  it('gives each figure per arm with its interval, and the difference with its interval and p', () => {
    const section = experimentSection(summary);
    expect(section).toMatchObject({ id: 'experiment', title: 'Debate experiment' });
    expect(section.blocks[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('Workers: 12 with the debate, 11 without.') });
    const table = section.blocks[1]!;
    if (table.kind !== 'table') throw new Error('the second block is the table');
    expect(table.table.rows.map((r) => r.cells)).toEqual([
      [
        'balanced accuracy on the checks',
        '92.0%',
        '[88.0%, 95.0%]',
        '87.3%',
        '[80.0%, 90.0%]',
        '+4.7 pts',
        '[-1.0 pts, +10.0 pts]',
        '4.0e-4',
      ],
      ["Fleiss' κ", '0.620', '[0.550, 0.700]', '—', '—', '—', '—', '—'],
      ['seconds per item', '21.5 s', '[18.0 s, 25.3 s]', '—', '—', '—', '—', '—'],
    ]);
  });
});
