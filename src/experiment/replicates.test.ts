import { describe, expect, it } from 'vitest';
import type { ArmSummary, Difference, Estimate, ExperimentSummary } from './compare.js';
import { poolEstimates, poolExperiments, renderPower } from './replicates.js';

const Z = 1.959963984540054;
const test = 'two-sided permutation test over workers (1000 relabelings)';
const est = (value: number | null, low: number | null = null, high: number | null = null): Estimate => ({ value, low, high });
const diff = (e: Estimate, p: number | null): Difference => ({ ...e, p, test });
const arm = (name: ArmSummary['arm'], workers: number, ba: Estimate, kappa: Estimate): ArmSummary => ({
  arm: name,
  workers,
  items: 270,
  balancedAccuracy: ba,
  kappa,
  secondsPerItem: est(40, 35, 45),
});
const summary = (kDebate: number, kNo: number, pKappa: number | null, baDiff: number | null = 0.02): ExperimentSummary => ({
  factor: 'debate',
  design: 'between-subjects',
  arms: [
    arm('debate', 7, est(0.9, 0.85, 0.95), est(kDebate, kDebate - 0.1, kDebate + 0.1)),
    arm('no-debate', 8, est(0.88, 0.8, 0.96), est(kNo, kNo - 0.2, kNo + 0.2)),
  ],
  difference: {
    balancedAccuracy: diff(
      est(baDiff, baDiff === null ? null : baDiff - 0.1, baDiff === null ? null : baDiff + 0.1),
      baDiff === null ? null : 0.5,
    ),
    kappa: diff(est(kDebate - kNo, kDebate - kNo - 0.2, kDebate - kNo + 0.2), pKappa),
    secondsPerItem: diff(est(0, -5, 5), 1),
  },
});

describe('poolEstimates (Rubin’s rules)', () => {
  it('with one replicate, is that replicate’s value with the interval of its bootstrap half-width', () => {
    const p = poolEstimates([est(0.6, 0.5, 0.7)], [-1, 1]);
    expect(p.value).toBe(0.6);
    expect(p.low!).toBeCloseTo(0.5, 12);
    expect(p.high!).toBeCloseTo(0.7, 12);
  });

  it('adds (1 + 1/N) times the between-replicate variance to the mean within variance', () => {
    const p = poolEstimates([est(0.4, 0.3, 0.5), est(0.6, 0.4, 0.8)], [-1, 1]);
    const within = ((0.2 / (2 * Z)) ** 2 + (0.4 / (2 * Z)) ** 2) / 2;
    const between = ((0.4 - 0.5) ** 2 + (0.6 - 0.5) ** 2) / 1;
    const half = Z * Math.sqrt(within + 1.5 * between);
    expect(p.value).toBeCloseTo(0.5, 12);
    expect(p.low!).toBeCloseTo(0.5 - half, 12);
    expect(p.high!).toBeCloseTo(0.5 + half, 12);
  });

  it('clips the interval to the statistic’s range', () => {
    const p = poolEstimates([est(0.98, 0.9, 1), est(0.9, 0.8, 1)], [0, 1]);
    expect(p.high).toBe(1);
    expect(p.low!).toBeLessThan(0.94);
  });

  it('leaves out undefined replicates from the mean, and has no interval when one defined replicate has none', () => {
    expect(poolEstimates([est(null), est(0.5, 0.4, 0.6)], [0, 1]).value).toBe(0.5);
    expect(poolEstimates([est(0.5, null, null), est(0.7, 0.6, 0.8)], [0, 1])).toEqual({ value: 0.6, low: null, high: null });
    expect(poolEstimates([est(null), est(null)], [0, 1])).toEqual({ value: null, low: null, high: null });
  });
});

describe('poolExperiments', () => {
  const pooled = poolExperiments([summary(0.6, 0.5, 0.01), summary(0.5, 0.55, 0.2), summary(0.7, 0.4, 0.03, null)]);

  it('keeps the experiment’s shape, arm values the replicates’ means, workers to one decimal', () => {
    const { experiment } = pooled;
    expect(experiment.factor).toBe('debate');
    expect(experiment.design).toBe('between-subjects');
    expect(experiment.arms.map((a) => a.arm)).toEqual(['debate', 'no-debate']);
    expect(experiment.arms[0]!.kappa.value).toBeCloseTo(0.6, 12);
    expect(experiment.arms[1]!.kappa.value).toBeCloseTo(1.45 / 3, 12);
    expect(experiment.arms[0]!.workers).toBe(7);
    expect(experiment.difference.kappa.value).toBeCloseTo((0.1 - 0.05 + 0.3) / 3, 12);
    expect(experiment.difference.kappa.low!).toBeLessThan(experiment.difference.kappa.value!);
    expect(experiment.difference.kappa.test).toContain('3 simulated batches');
  });

  it('gives the median p and the power: the share of replicates with p < 0.05, over those with a test', () => {
    expect(pooled.experiment.difference.kappa.p).toBe(0.03);
    expect(pooled.power.kappa).toEqual({ share: 2 / 3, tested: 3, significant: 2 });
    expect(pooled.power.balancedAccuracy).toEqual({ share: 0, tested: 2, significant: 0 });
    expect(pooled.power.secondsPerItem).toEqual({ share: 0, tested: 3, significant: 0 });
  });

  it('counts the directions per replicate', () => {
    expect(pooled.directions.kappa).toEqual({ higher: 2, lower: 1, equal: 0, undefined: 0 });
    expect(pooled.directions.balancedAccuracy).toEqual({ higher: 2, lower: 0, equal: 0, undefined: 1 });
    expect(pooled.directions.secondsPerItem).toEqual({ higher: 0, lower: 0, equal: 3, undefined: 0 });
    expect(pooled.replicates).toBe(3);
  });

  it('refuses no replicates and a replicate without both arms, saying what to give', () => {
    expect(() => poolExperiments([])).toThrow(/at least one \(--replicates 1 or more\)/);
    const oneArm = { ...summary(0.6, 0.5, 0.01), arms: [summary(0.6, 0.5, 0.01).arms[0]!] };
    expect(() => poolExperiments([oneArm])).toThrow(/no no-debate arm/);
  });

  it('renders the power and the directions', () => {
    const text = renderPower(pooled);
    expect(text).toContain(
      'power: of 3 simulated batches, the test found the difference (p < 0.05) in balanced accuracy 0/2, Fleiss κ 2/3, seconds per item 0/3',
    );
    expect(text).toContain(
      'balanced accuracy 2 higher, 0 lower, 1 n/a; Fleiss κ 2 higher, 1 lower; seconds per item 0 higher, 0 lower, 3 equal',
    );
  });
});
