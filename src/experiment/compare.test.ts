import { describe, expect, it } from 'vitest';
import { fleissKappa } from '../aggregate/fleiss-kappa.js';
import { seededRandom } from '../qrels/statistics.js';
import { compareArms, type ArmName, type ArmObservations } from './compare.js';

const empty = (arm: ArmName): ArmObservations => ({ arm, checks: [], votes: [], seconds: [] });

/** Votes from a table: one string per item, one character per worker ('y', 'n' or '.' for no vote). */
function votesOf(rows: readonly string[], prefix = 'w'): ArmObservations['votes'] {
  return rows.flatMap((row, i) =>
    [...row].flatMap((c, w) => (c === '.' ? [] : [{ itemId: `item${i}`, workerId: `${prefix}${w}`, answer: c === 'y' }])),
  );
}

/** A worker population: `n` workers, each right on a check with probability `skill`, over 8 checks (4 of each class). */
function population(arm: ArmName, n: number, skill: number, seed: number, secondsPerItem: number): ArmObservations {
  const random = seededRandom(seed);
  const checks: ArmObservations['checks'] = [];
  const seconds: ArmObservations['seconds'] = [];
  const votes: ArmObservations['votes'] = [];
  for (let w = 0; w < n; w++) {
    const workerId = `${arm}-${w}`;
    for (let c = 0; c < 8; c++) {
      const expected = c % 2 === 0;
      checks.push({ workerId, expected, answer: random.next() < skill ? expected : !expected });
    }
    seconds.push({ workerId, items: 10, seconds: 10 * secondsPerItem * (0.5 + random.next()) });
    for (let i = 0; i < 10; i++) {
      const truth = i % 3 !== 0;
      votes.push({ itemId: `${arm}-item${(w * 10 + i) % 30}`, workerId, answer: random.next() < skill ? truth : !truth });
    }
  }
  return { arm, checks, votes, seconds };
}

describe('compareArms', () => {
  it('gives both arms, debate first, a between-subjects design on the debate factor', () => {
    const summary = compareArms([empty('no-debate'), empty('debate')], { seed: 1, resamples: 10 });
    expect(summary.factor).toBe('debate');
    expect(summary.design).toBe('between-subjects');
    expect(summary.arms.map((a) => a.arm)).toEqual(['debate', 'no-debate']);
    expect(summary.arms[0]).toEqual({
      arm: 'debate',
      workers: 0,
      items: 0,
      balancedAccuracy: { value: null, low: null, high: null },
      kappa: { value: null, low: null, high: null },
      secondsPerItem: { value: null, low: null, high: null },
    });
    expect(summary.difference.kappa).toMatchObject({ value: null, low: null, high: null, p: null });
    expect(summary.difference.kappa.test).toMatch(/permutation test over workers/);
  });

  it('lists an arm missing from the input as empty', () => {
    const summary = compareArms([population('debate', 5, 0.9, 3, 20)], { seed: 1, resamples: 20 });
    expect(summary.arms.map((a) => [a.arm, a.workers])).toEqual([
      ['debate', 5],
      ['no-debate', 0],
    ]);
    expect(summary.difference.balancedAccuracy.value).toBeNull();
  });

  it("computes Fleiss' kappa over the arm's items: 7/15 on a hand-worked table", () => {
    // items (y,y) (n,n) (y,y) (y,n): P = 0.75, yes share 0.625, Pe = 0.53125, kappa = 0.21875 / 0.46875
    const arm = { ...empty('debate'), votes: votesOf(['yy', 'nn', 'yy', 'yn']) };
    const summary = compareArms([arm], { seed: 1, resamples: 10 });
    expect(summary.arms[0]!.kappa.value).toBeCloseTo(7 / 15, 12);
    expect(summary.arms[0]!.items).toBe(4);
    expect(summary.arms[0]!.workers).toBe(2);
  });

  it("agrees with the project's Fleiss kappa on uneven rater counts", () => {
    const votes = votesOf(['yyn.', 'nnnn', 'y.yy', 'ynyn', '.nny', 'yyyy']);
    const expected = fleissKappa.compute(
      votes.map((v) => ({ item: v.itemId, worker: v.workerId, label: v.answer ? 'yes' : 'no' })),
      ['yes', 'no'],
    ).value;
    const summary = compareArms([{ ...empty('no-debate'), votes }], { seed: 1, resamples: 10 });
    expect(expected).not.toBeNull();
    expect(summary.arms[1]!.kappa.value).toBeCloseTo(expected!, 12);
  });

  it('computes balanced accuracy on the checks: 3 of 4 relevant and 2 of 2 not relevant right is 0.875', () => {
    const check = (workerId: string, expected: boolean, answer: boolean) => ({ workerId, expected, answer });
    const arm: ArmObservations = {
      ...empty('debate'),
      checks: [
        check('a', true, true),
        check('a', true, false),
        check('b', true, true),
        check('b', true, true),
        check('a', false, false),
        check('b', false, false),
      ],
    };
    expect(compareArms([arm], { seed: 1, resamples: 10 }).arms[0]!.balancedAccuracy.value).toBeCloseTo(0.875, 12);
  });

  it('computes seconds per item as total work time over total items on the pages', () => {
    const arm: ArmObservations = {
      ...empty('debate'),
      seconds: [
        { workerId: 'a', items: 10, seconds: 100 },
        { workerId: 'b', items: 5, seconds: 100 },
      ],
    };
    expect(compareArms([arm], { seed: 1, resamples: 10 }).arms[0]!.secondsPerItem.value).toBeCloseTo(200 / 15, 12);
  });

  it('finds no difference between identical arms: 0 inside the interval and p = 1', () => {
    const debate = population('debate', 12, 0.85, 7, 20);
    const copy = (arm: ArmObservations): ArmObservations => ({ ...arm, arm: 'no-debate' });
    const summary = compareArms([debate, copy(debate)], { seed: 5, resamples: 300 });
    for (const d of Object.values(summary.difference)) {
      expect(d.value).toBeCloseTo(0, 12);
      expect(d.low!).toBeLessThanOrEqual(0);
      expect(d.high!).toBeGreaterThanOrEqual(0);
      expect(d.p).toBe(1);
    }
  });

  it('finds a large difference between very different arms: p small and the interval away from 0', () => {
    const summary = compareArms([population('debate', 15, 0.95, 11, 20), population('no-debate', 15, 0.6, 12, 40)], {
      seed: 5,
      resamples: 300,
    });
    const ba = summary.difference.balancedAccuracy;
    expect(ba.value!).toBeGreaterThan(0.2);
    expect(ba.low!).toBeGreaterThan(0);
    expect(ba.p!).toBeLessThan(0.01);
    expect(summary.difference.kappa.p!).toBeLessThan(0.01);
    const seconds = summary.difference.secondsPerItem;
    expect(seconds.high!).toBeLessThan(0);
    expect(seconds.p!).toBeLessThan(0.01);
    // the smallest p a permutation test of 300 trials can give
    expect(ba.p!).toBeGreaterThanOrEqual(1 / 301);
  });

  it('gives intervals around the estimate, inside [0, 1] for balanced accuracy', () => {
    const summary = compareArms([population('debate', 10, 0.8, 21, 20)], { seed: 9, resamples: 400 });
    const { balancedAccuracy, kappa, secondsPerItem } = summary.arms[0]!;
    for (const e of [balancedAccuracy, kappa, secondsPerItem]) {
      expect(e.low!).toBeLessThanOrEqual(e.value!);
      expect(e.high!).toBeGreaterThanOrEqual(e.value!);
    }
    expect(balancedAccuracy.low!).toBeGreaterThanOrEqual(0);
    expect(balancedAccuracy.high!).toBeLessThanOrEqual(1);
  });

  it('never pairs a resampled worker with their own copy: kappa of independent guessers stays near 0', () => {
    // 6 workers answer 40 items by coin flips; pairing a worker drawn twice with themselves would add
    // agreeing pairs and lift every replicate's kappa well above the estimate
    const random = seededRandom(4);
    const votes = Array.from({ length: 40 }, (_, i) =>
      Array.from({ length: 6 }, (_, w) => ({ itemId: `i${i}`, workerId: `w${w}`, answer: random.next() < 0.5 })),
    ).flat();
    const { kappa } = compareArms([{ ...empty('debate'), votes }], { seed: 2, resamples: 400 }).arms[0]!;
    const middle = (kappa.low! + kappa.high!) / 2;
    expect(Math.abs(middle - kappa.value!)).toBeLessThan(0.05);
  });

  it('is deterministic under the seed, and the seed matters', () => {
    const arms = [population('debate', 8, 0.85, 31, 20), population('no-debate', 8, 0.75, 32, 25)];
    const a = compareArms(arms, { seed: 42, resamples: 200 });
    expect(compareArms(arms, { seed: 42, resamples: 200 })).toEqual(a);
    expect(compareArms(arms, { seed: 43, resamples: 200 })).not.toEqual(a);
  });

  it('names the place and the remedy on bad options', () => {
    expect(() => compareArms([], { seed: 1, resamples: 0 })).toThrow(/compareArms: resamples 0 .* give e\.g\. 1000/);
    expect(() => compareArms([{ ...empty('debate'), arm: 'other' as ArmName }], { seed: 1 })).toThrow(/arms\[0\]\.arm "other"/);
  });
});
