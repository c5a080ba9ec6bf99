import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import {
  DEFAULT_VERDICT_POLICY,
  logNotWorkingAnswers,
  verdictLogLikelihoods,
  workerVerdict,
  type WorkerEvidence,
} from './worker-verdict.js';

type Kind = 'diligent' | 'spammer' | 'always-yes' | 'always-no';
const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

/**
 * Workers as the default population draws them (samples/population.json): diligent workers
 * with accuracy Beta(18, 2) on relevant and Beta(17, 3) on not relevant items, 40% of items
 * relevant; checks easier than real items (accuracy + 0.05); the reference for a real item
 * is the majority of two other diligent workers (ties left out). 9 items per HIT, with 3
 * checks in each of a worker's first 3 HITs and 1 after (adaptive checks).
 */
function simulate(kind: Kind, assignments: number, seed: string): WorkerEvidence[] {
  const rng = seededRng(seed);
  const beta = (a: number, b: number) => {
    // mean-matched draw: accuracy around the Beta mean with its spread (sum of uniforms is enough here)
    const mean = a / (a + b);
    const sd = Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1)));
    return Math.min(0.99, Math.max(0.5, mean + sd * (rng.next() + rng.next() + rng.next() - 1.5) * 2));
  };
  const accuracy = { yes: beta(18, 2), no: beta(17, 3) };
  const answerOf = (truth: Judgment, bonus = 0): Judgment => {
    if (kind === 'always-yes') return 'yes';
    if (kind === 'always-no') return 'no';
    if (kind === 'spammer') return rng.next() < 0.5 ? 'yes' : 'no';
    return rng.next() < Math.min(0.99, accuracy[truth] + bonus) ? truth : flip(truth);
  };
  const other = (truth: Judgment): Judgment => (rng.next() < (truth === 'yes' ? 0.9 : 0.85) ? truth : flip(truth));
  const evidence: WorkerEvidence[] = [];
  const checks: WorkerEvidence['checks'][number][] = [];
  const compared: WorkerEvidence['compared'][number][] = [];
  for (let a = 0; a < assignments; a++) {
    for (let c = 0; c < (a < 3 ? 3 : 1); c++) {
      const expected: Judgment = rng.next() < 0.5 ? 'yes' : 'no';
      checks.push({ expected, answer: answerOf(expected, 0.05) });
    }
    for (let i = 0; i < 9; i++) {
      const truth: Judgment = rng.next() < 0.4 ? 'yes' : 'no';
      const answer = answerOf(truth);
      const [x, y] = [other(truth), other(truth)];
      if (x === y) compared.push({ reference: x, answer });
    }
    evidence.push({ checks: [...checks], compared: [...compared] });
  }
  return evidence;
}

/** Share of workers stopped by the evidence after each of their assignments (stopping is final). */
function stoppedShare(kind: Kind, assignments: number, workers = 2000): number {
  let stopped = 0;
  for (let w = 0; w < workers; w++) {
    if (simulate(kind, assignments, `${kind}-${w}`).some((e) => workerVerdict(e).stop)) stopped++;
  }
  return stopped / workers;
}

describe('workerVerdict', () => {
  it('stops at least 95% of always-yes and always-no workers within two assignments', () => {
    for (const kind of ['always-yes', 'always-no'] as const) expect(stoppedShare(kind, 2), kind).toBeGreaterThanOrEqual(0.95);
  });

  it('stops at least 95% of random clickers within ten assignments (their answers cost more evidence: half of them are right)', () => {
    expect(stoppedShare('spammer', 10)).toBeGreaterThanOrEqual(0.95);
    expect(stoppedShare('spammer', 4)).toBeGreaterThanOrEqual(0.6);
  });

  it('stops under 1% of diligent workers over twenty assignments', () => {
    expect(stoppedShare('diligent', 20, 1000)).toBeLessThan(0.01);
  });

  it('keeps a careful worker who missed both checks of their first two HITs', () => {
    const agree = Array.from({ length: 14 }, (_, i) => ({
      reference: (i % 3 === 0 ? 'yes' : 'no') as Judgment,
      answer: (i % 3 === 0 ? 'yes' : 'no') as Judgment,
    }));
    const verdict = workerVerdict({
      checks: [
        { expected: 'yes', answer: 'no' },
        { expected: 'no', answer: 'yes' },
      ],
      compared: agree,
    });
    expect(verdict.stop).toBe(false);
    expect(verdict.probabilityNotWorking).toBeLessThan(0.05);
  });

  it('says nothing without evidence: the prior', () => {
    const verdict = workerVerdict({ checks: [], compared: [] });
    expect(verdict.probabilityNotWorking).toBeCloseTo(DEFAULT_VERDICT_POLICY.priorNotWorking, 12);
    expect(verdict).toMatchObject({ stop: false, evidence: { checks: 0, compared: 0, yesShare: null } });
  });

  it('explains itself with the evidence', () => {
    const checks = [
      { expected: 'no' as Judgment, answer: 'yes' as Judgment },
      { expected: 'yes' as Judgment, answer: 'yes' as Judgment },
    ];
    const compared = Array.from({ length: 12 }, (_, i) => ({ reference: (i < 5 ? 'yes' : 'no') as Judgment, answer: 'yes' as Judgment }));
    const verdict = workerVerdict({ checks, compared });
    expect(verdict.stop).toBe(true);
    expect(verdict.reason).toMatch(
      /^stopped: P\(not doing the task\) (> 99\.99|99\.\d\d)% \(≥ 99\.0%\) from 1 of 2 checks passed, 5 of 12 answers agreeing with the other workers' majority, 14 "yes" of 14$/,
    );
  });

  it('never stops on one assignment when the evidence says how many, and says it waits', () => {
    const yes = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ reference: (i % 2 ? 'yes' : 'no') as Judgment, answer: 'yes' as Judgment }));
    const one = workerVerdict({ checks: [{ expected: 'no', answer: 'yes' }], compared: yes(9), assignments: 1 });
    expect(one.probabilityNotWorking).toBeGreaterThan(DEFAULT_VERDICT_POLICY.confidence);
    expect(one.stop).toBe(false);
    expect(one.reason).toMatch(/^kept: .* \(waits for 2 assignments\)$/);
    const two = workerVerdict({
      checks: [
        { expected: 'no', answer: 'yes' },
        { expected: 'no', answer: 'yes' },
      ],
      compared: yes(18),
      assignments: 2,
    });
    expect(two.stop).toBe(true);
    expect(two.reason).not.toMatch(/waits/);
    // without the count (evidence built by hand) no minimum applies
    expect(workerVerdict({ checks: [{ expected: 'no', answer: 'yes' }], compared: yes(9) }).stop).toBe(true);
  });

  it('is stricter with a higher confidence', () => {
    const [, second] = simulate('spammer', 2, 'strict');
    const loose = workerVerdict(second!, { ...DEFAULT_VERDICT_POLICY, confidence: 0.9 });
    const strict = workerVerdict(second!, { ...DEFAULT_VERDICT_POLICY, confidence: 0.999999 });
    expect(loose.probabilityNotWorking).toBe(strict.probabilityNotWorking);
    expect(strict.stop).toBe(false);
  });

  describe('time per item', () => {
    // a random clicker's first two HITs: half of the checks and of the answers right
    const [, twoHits] = simulate('spammer', 2, 'speed');
    const without = workerVerdict(twoHits!);

    it('raises P(not working) for a worker far faster than the others, and lowers it at the typical pace', () => {
      const fast = workerVerdict({ ...twoHits!, speed: 0.25 });
      const typical = workerVerdict({ ...twoHits!, speed: 1 });
      expect(fast.probabilityNotWorking).toBeGreaterThan(without.probabilityNotWorking);
      expect(typical.probabilityNotWorking).toBeLessThan(without.probabilityNotWorking);
      expect(fast.evidence.speed).toBe(0.25);
      expect(fast.reason).toMatch(/, 0\.25× the typical time per item$/);
      expect(without.evidence.speed).toBeNull();
    });

    it('never stops a worker whose answers follow the items, however fast', () => {
      const careful = simulate('diligent', 3, 'fast-careful').at(-1)!;
      for (const speed of [0.01, 0.05, 0.2]) expect(workerVerdict({ ...careful, speed }).stop).toBe(false);
    });

    it("clamps the ratio: slower than the model's range counts as its slowest end", () => {
      const slow = workerVerdict({ ...twoHits!, speed: 2 });
      const slower = workerVerdict({ ...twoHits!, speed: 20 });
      expect(slower.probabilityNotWorking).toBeCloseTo(slow.probabilityNotWorking, 12);
    });

    it('adds one observation per worker, whatever the number of items', () => {
      const policy = DEFAULT_VERDICT_POLICY.speed;
      const logOdds = (p: number) => Math.log(p / (1 - p));
      const fast = workerVerdict({ checks: [], compared: [], speed: 0.25 });
      // the prior odds times the ratio of the two speed densities
      const z = Math.log(0.25) / policy.sigma;
      const uniform = 1 / Math.log(policy.max / policy.min);
      const working =
        (1 - policy.outliers) * (Math.exp(-0.5 * z * z) / (policy.sigma * Math.sqrt(2 * Math.PI))) + policy.outliers * uniform;
      const expected = logOdds(DEFAULT_VERDICT_POLICY.priorNotWorking) + Math.log(uniform / working);
      expect(logOdds(fast.probabilityNotWorking)).toBeCloseTo(expected, 9);
    });
  });

  describe('the marginal likelihood of the checks and the agreement', () => {
    const evidence: WorkerEvidence = {
      checks: [
        { expected: 'yes', answer: 'yes' },
        { expected: 'no', answer: 'yes' },
      ],
      compared: Array.from({ length: 20 }, (_, i) => ({ reference: 'yes' as const, answer: i < 15 ? ('yes' as const) : ('no' as const) })),
    };

    it('is the integral of the likelihood over the truncated Beta prior (checked against a finer integration)', () => {
      const prior = DEFAULT_VERDICT_POLICY.agreement;
      const steps = 200_000;
      let withData = 0;
      let mass = 0;
      for (let g = 0; g < steps; g++) {
        const p = prior.min + ((g + 0.5) * (1 - prior.min)) / steps;
        const density = p ** (prior.alpha - 1) * (1 - p) ** (prior.beta - 1);
        mass += density;
        withData += density * p ** 15 * (1 - p) ** 5;
      }
      const checks = verdictLogLikelihoods({ ...evidence, compared: [] }, DEFAULT_VERDICT_POLICY).working;
      const both = verdictLogLikelihoods(evidence, DEFAULT_VERDICT_POLICY).working;
      // the 200-point midpoint rule is within a few millionths of it
      expect(both - checks).toBeCloseTo(Math.log(withData / mass), 4);
    });

    it('follows a prior whose numbers were changed in place, and gives the same number when asked again', () => {
      const agreement = { ...DEFAULT_VERDICT_POLICY.agreement };
      const policy = { ...DEFAULT_VERDICT_POLICY, agreement };
      const first = verdictLogLikelihoods(evidence, policy);
      expect(verdictLogLikelihoods(evidence, policy)).toEqual(first);
      agreement.alpha = 4;
      agreement.beta = 4;
      const changed = verdictLogLikelihoods(evidence, policy);
      expect(changed.working).not.toBe(first.working);
      expect(changed).toEqual(
        verdictLogLikelihoods(evidence, { ...DEFAULT_VERDICT_POLICY, agreement: { alpha: 4, beta: 4, min: agreement.min } }),
      );
    });
  });

  describe("the not-working model's rate of yes answers", () => {
    const uniformOnly = { coin: 0, oneButton: 0 };
    const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

    it('is the uniform prior of θ alone without a coin or one button: ∫ θ^yes (1 − θ)^no dθ', () => {
      // 3! 2! / 6! = 1/60
      expect(logNotWorkingAnswers(3, 2, uniformOnly)).toBeCloseTo(Math.log(1 / 60), 12);
      expect(logNotWorkingAnswers(0, 4, uniformOnly)).toBeCloseTo(Math.log(1 / 5), 12);
    });

    it('is a probability: over every sequence of n answers it sums to 1, and to 1 with no answers', () => {
      const rates = DEFAULT_VERDICT_POLICY.notWorkingRates;
      expect(logNotWorkingAnswers(0, 0, rates)).toBeCloseTo(0, 12);
      for (const n of [1, 6, 15]) {
        let total = 0;
        for (let k = 0; k <= n; k++)
          total += (factorial(n) / (factorial(k) * factorial(n - k))) * Math.exp(logNotWorkingAnswers(k, n - k, rates));
        expect(total).toBeCloseTo(1, 10);
      }
    });

    it("gives a coin's answers and one button's answers more than the uniform prior alone, and other rates less", () => {
      const rates = DEFAULT_VERDICT_POLICY.notWorkingRates;
      // a coin's 28 answers, 13 "yes": 1/3 × 2^-28 + 1/3 × the uniform's
      const coin = Math.log(rates.coin * 0.5 ** 28 + (1 / 3) * Math.exp(logNotWorkingAnswers(13, 15, uniformOnly)));
      expect(logNotWorkingAnswers(13, 15, rates)).toBeCloseTo(coin, 12);
      expect(logNotWorkingAnswers(13, 15, rates)).toBeGreaterThan(logNotWorkingAnswers(13, 15, uniformOnly));
      expect(logNotWorkingAnswers(12, 0, rates)).toBeGreaterThan(logNotWorkingAnswers(12, 0, uniformOnly));
      expect(logNotWorkingAnswers(0, 12, rates)).toBeCloseTo(logNotWorkingAnswers(12, 0, rates), 12);
      // 24 "yes" of 30 is neither a coin nor one button
      expect(logNotWorkingAnswers(24, 6, rates)).toBeLessThan(logNotWorkingAnswers(24, 6, uniformOnly));
    });

    it('stops a random clicker of three HITs whom the uniform prior alone kept', () => {
      // as the mixed cell of bench/quality-matrix.ts met one: 2 of 3 checks passed, 12 of 25 agreeing, 13 "yes" of 28, at 0.63x the typical time
      const coinLike: WorkerEvidence = {
        checks: [
          { expected: 'yes', answer: 'yes' },
          { expected: 'no', answer: 'no' },
          { expected: 'no', answer: 'yes' },
        ],
        compared: [
          // 5 of 12 "yes" where the others said yes, 6 of 13 where they said no: 12 agree, 11 "yes"
          ...Array.from({ length: 12 }, (_, i) => ({ reference: 'yes' as const, answer: i < 5 ? ('yes' as const) : ('no' as const) })),
          ...Array.from({ length: 13 }, (_, i) => ({ reference: 'no' as const, answer: i < 6 ? ('yes' as const) : ('no' as const) })),
        ],
        speed: 0.63,
        assignments: 3,
      };
      const policy = { ...DEFAULT_VERDICT_POLICY, agreement: { alpha: 52.3, beta: 7.7, min: 0.686 }, priorNotWorking: 0.204 };
      const before = workerVerdict(coinLike, { ...policy, notWorkingRates: uniformOnly });
      const after = workerVerdict(coinLike, policy);
      expect(before.stop).toBe(false);
      expect(after.stop).toBe(true);
    });

    it('names the field and the fix when the weights are out of range', () => {
      expect(() => logNotWorkingAnswers(1, 1, { coin: 0.7, oneButton: 0.5 })).toThrow(/notWorkingRates .*sum to 1 at most/);
      expect(() => logNotWorkingAnswers(1, 1, { coin: -0.1, oneButton: 0.5 })).toThrow(/at least 0/);
    });
  });
});
