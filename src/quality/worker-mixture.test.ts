import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { DEFAULT_MIXTURE_FIT, fitVerdictPolicy } from './worker-mixture.js';
import { DEFAULT_VERDICT_POLICY, workerVerdict, type WorkerEvidence } from './worker-verdict.js';

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

/**
 * Constructed evidence, no randomness: `agreed` of `compared` answers agree with the
 * reference, spread evenly over both reference classes (40% "yes"), and `passed` of
 * `checks` checks passed, alternating polarities. A random clicker's answers are "yes" about
 * half the time whatever the reference, which this spreading keeps.
 */
function evidence(checks: number, passed: number, compared: number, agreed: number): WorkerEvidence {
  const ref = (i: number): Judgment => (i % 5 < 2 ? 'yes' : 'no');
  // Bresenham-style: the i-th answer agrees when floor((i+1)·agreed/compared) steps up
  const agrees = (i: number) => Math.floor(((i + 1) * agreed) / compared) > Math.floor((i * agreed) / compared);
  return {
    checks: Array.from({ length: checks }, (_, i) => {
      const expected: Judgment = i % 2 === 0 ? 'yes' : 'no';
      return { expected, answer: i < passed ? expected : flip(expected) };
    }),
    compared: Array.from({ length: compared }, (_, i) => ({ reference: ref(i), answer: agrees(i) ? ref(i) : flip(ref(i)) })),
  };
}

/** A batch: `careful` workers agreeing on 93% of 45 items and passing their 5 checks, `clickers` agreeing on half and passing 3 of 5. */
function batch(careful: number, clickers: number): WorkerEvidence[] {
  return [
    ...Array.from({ length: careful }, (_, i) => evidence(5, i % 7 === 0 ? 4 : 5, 45, 40 + (i % 5))),
    ...Array.from({ length: clickers }, (_, i) => evidence(5, 3, 45, 21 + (i % 5))),
  ];
}

// the random clicker who escaped the fixed prior (issue 16): 6 of 8 checks, 36 of 65 answers agreeing
const lucky = evidence(8, 6, 65, 36);

describe('fitVerdictPolicy', () => {
  it('keeps the fixed policy until the batch has enough workers and compared answers', () => {
    const few = fitVerdictPolicy(batch(5, 1));
    expect(few).toMatchObject({ fitted: false, workers: 6, compared: 270 });
    expect(few.policy).toBe(DEFAULT_VERDICT_POLICY);
    const short = fitVerdictPolicy(Array.from({ length: 20 }, () => evidence(1, 1, 5, 5)));
    expect(short).toMatchObject({ fitted: false, workers: 20, compared: 100 });
  });

  it("finds the careful workers' agreement and the share of those who do not work", () => {
    const fit = fitVerdictPolicy(batch(30, 10));
    expect(fit.fitted).toBe(true);
    // the careful workers agree on 40..44 of 45: 93.3% on average
    expect(fit.agreementMean).toBeCloseTo(42 / 45, 2);
    expect(fit.notWorkingShare).toBeCloseTo(10 / 40, 2);
    const { alpha, beta, min } = fit.policy.agreement;
    expect(alpha / (alpha + beta)).toBeCloseTo(fit.agreementMean, 12);
    expect(alpha + beta).toBeCloseTo(fit.concentration, 12);
    expect(min).toBeGreaterThan(DEFAULT_VERDICT_POLICY.agreement.min);
    expect(min).toBeLessThan(40 / 45);
    // the rest of the policy is the base one
    expect(fit.policy.checkAccuracy).toBe(DEFAULT_VERDICT_POLICY.checkAccuracy);
    expect(fit.policy.confidence).toBe(DEFAULT_VERDICT_POLICY.confidence);
  });

  it('stops the lucky random clicker the fixed prior kept, and keeps careful workers with a slip', () => {
    expect(workerVerdict(lucky).stop).toBe(false);
    const { policy } = fitVerdictPolicy([...batch(30, 10), lucky]);
    expect(workerVerdict(lucky, policy).stop).toBe(true);
    for (const careful of [evidence(2, 1, 18, 16), evidence(4, 3, 36, 30), evidence(8, 7, 65, 56), evidence(3, 3, 27, 22)])
      expect(workerVerdict(careful, policy).probabilityNotWorking).toBeLessThan(0.2);
  });

  it('keeps its bounds: a batch of identical careful workers gives the widest spread allowed, not a spike', () => {
    const fit = fitVerdictPolicy(Array.from({ length: 20 }, () => evidence(5, 5, 45, 42)));
    expect(fit.concentration).toBe(DEFAULT_MIXTURE_FIT.concentration[1]);
    expect(fit.notWorkingShare).toBe(DEFAULT_MIXTURE_FIT.notWorkingShare[0]);
    const hard = fitVerdictPolicy(Array.from({ length: 20 }, (_, i) => evidence(5, 5, 45, 20 + (i % 3))));
    expect(hard.agreementMean).toBeGreaterThanOrEqual(DEFAULT_MIXTURE_FIT.mean[0]);
    expect(hard.policy.agreement.min).toBeGreaterThanOrEqual(DEFAULT_MIXTURE_FIT.chance);
  });

  it('takes a wider prior when careful workers differ more', () => {
    const alike = fitVerdictPolicy(batch(30, 5));
    const spread = fitVerdictPolicy([
      ...Array.from({ length: 30 }, (_, i) => evidence(5, 5, 45, 33 + (i % 12))),
      ...Array.from({ length: 5 }, () => evidence(5, 3, 45, 22)),
    ]);
    expect(spread.concentration).toBeLessThan(alike.concentration);
    expect(spread.policy.agreement.min).toBeLessThan(alike.policy.agreement.min);
  });

  it('is deterministic and ignores workers without evidence', () => {
    const a = fitVerdictPolicy(batch(20, 6));
    const b = fitVerdictPolicy([...batch(20, 6), { checks: [], compared: [] }]);
    expect(b).toEqual(a);
  });
});
