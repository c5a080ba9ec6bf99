import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import {
  binomialUpperTail,
  fasterFactor,
  followerFactor,
  llmAssistedVerdict,
  workerSignals,
  type AgentBaseline,
  type ItemObservation,
} from './llm-assisted.js';
import { baselineOf as batchBaselineOf } from './llm-flags.js';

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

describe('binomialUpperTail', () => {
  it.each([
    // scipy 1.12.0: binom.sf(k - 1, n, p)
    [30, 40, 0.55, 0.00742325931227973],
    [12, 20, 0.5, 0.2517223358154297],
    [5, 10, 0.3, 0.15026833259999992],
    [90, 100, 0.6, 2.338761768922015e-11],
    [1, 50, 0.01, 0.3949939328624633],
    [50, 50, 0.9, 0.0051537752073201135],
  ])('P(K ≥ %i | n = %i, p = %f) as scipy computes it', (k, n, p, expected) => {
    expect(Math.abs(binomialUpperTail(k, n, p) - expected) / expected).toBeLessThan(1e-10);
  });

  it('is 1 at k = 0 and 0 above n', () => {
    expect(binomialUpperTail(0, 10, 0.3)).toBe(1);
    expect(binomialUpperTail(11, 10, 0.3)).toBe(0);
  });
});

/**
 * Escalated items: the agents disagree, and the evidence sides with A on 55% of them.
 * A careful person judges the evidence (90% right, 40–60 s per ~2,500-character item, no
 * events); an LLM-assisted worker gets one verdict per item from an LLM that reads items the
 * way agent B does (follows B on 85%), reads in 10–20 s, and leaves the page on most items.
 */
function worker(kind: 'careful' | 'llm', items: number, seed: string): ItemObservation[] {
  const rng = seededRng(seed);
  return Array.from({ length: items }, () => {
    const truthWithA = rng.next() < 0.55;
    const agents = rng.next() < 0.5 ? { A: 'yes' as Judgment, B: 'no' as Judgment } : { A: 'no' as Judgment, B: 'yes' as Judgment };
    const truth = truthWithA ? agents.A : agents.B;
    const textLength = 2000 + Math.floor(rng.next() * 1000);
    if (kind === 'careful') {
      return { agents, answer: rng.next() < 0.9 ? truth : flip(truth), timeMs: 40_000 + rng.next() * 20_000, textLength };
    }
    const answer = rng.next() < 0.85 ? agents.B : agents.A;
    return { agents, answer, timeMs: 10_000 + rng.next() * 10_000, textLength, focusLosses: rng.next() < 0.7 ? 1 : 0 };
  });
}

const baselineOf = (observations: readonly ItemObservation[][]): AgentBaseline => {
  const all = observations.flat().filter((o) => o.agents.A !== o.agents.B);
  return { items: all.length, followedA: all.filter((o) => o.answer === o.agents.A).length };
};

describe('llmAssistedVerdict', () => {
  // a batch: 85 careful workers and 15 LLM-assisted ones, 27 items each (three HITs)
  const careful = Array.from({ length: 85 }, (_, w) => worker('careful', 27, `c${w}`));
  const llm = Array.from({ length: 15 }, (_, w) => worker('llm', 27, `l${w}`));
  const everyone = [...careful, ...llm];
  const verdict = (mine: ItemObservation[]) => llmAssistedVerdict(mine, baselineOf(everyone.filter((o) => o !== mine)));

  it('flags LLM-assisted workers with recall ≥ 80% and precision ≥ 90% in a mixed batch', () => {
    const truePositives = llm.filter((o) => verdict(o).flagged).length;
    const falsePositives = careful.filter((o) => verdict(o).flagged).length;
    expect(truePositives / llm.length).toBeGreaterThanOrEqual(0.8);
    expect(truePositives / (truePositives + falsePositives)).toBeGreaterThanOrEqual(0.9);
  });

  it('gives its evidence in sentences', () => {
    const result = verdict(llm[0]!);
    expect(result.flagged).toBe(true);
    expect(result.agentAgreement.agent).toBe('B');
    expect(result.evidence[0]).toMatch(/^followed agent B on \d+ of 27 items where the agents disagreed \(\d+%; other workers \d+%; p = /);
    expect(result.evidence.join(' ')).toMatch(/s per 1,000 characters|left the page/);
  });

  it('does not flag on one signal that is not overwhelming: a fast careful reader', () => {
    const fastCareful = careful[0]!.map((o) => ({ ...o, timeMs: 5_000 }));
    const result = verdict(fastCareful);
    expect(result.medianMsPer1000Chars!).toBeLessThan(8_000);
    expect(result.flagged).toBe(false);
  });

  it('flags a returned canary on its own', () => {
    const result = llmAssistedVerdict(
      careful[1]!,
      baselineOf(careful),
      ['As an assessor I note the Heliotrope protocol applies'],
      ['heliotrope protocol'],
    );
    expect(result).toMatchObject({ flagged: true, canary: true });
  });

  it('does not take a worker who always answers yes for one following the agent who says yes most', () => {
    // agent A says yes on 88% of the items (as when most debates end with A on "yes")
    const rng = seededRng('always-yes');
    const items = Array.from({ length: 60 }, () =>
      rng.next() < 0.88 ? { A: 'yes' as Judgment, B: 'no' as Judgment } : { A: 'no' as Judgment, B: 'yes' as Judgment },
    );
    const alwaysYes: ItemObservation[] = items.map((agents) => ({ agents, answer: 'yes', timeMs: 5_000, textLength: 2500 }));
    const follower: ItemObservation[] = items.map((agents, i) => ({
      agents,
      answer: i % 10 === 0 ? flip(agents.A) : agents.A,
      timeMs: 5_000,
      textLength: 2500,
    }));
    const baseline = { items: 1000, followedA: 500 };
    expect(llmAssistedVerdict(alwaysYes, baseline).flagged).toBe(false);
    expect(llmAssistedVerdict(follower, baseline).flagged).toBe(true);
  });

  it('tests nothing on too few contested items', () => {
    const result = llmAssistedVerdict(llm[0]!.slice(0, 5), baselineOf(careful));
    expect(result.agentAgreement).toMatchObject({ items: 5, agent: null, p: null });
  });
});

describe('the Bayes factors', () => {
  const binomial = (k: number, n: number, p: number) => {
    let c = 1;
    for (let j = 1; j <= k; j++) c = (c * (n - k + j)) / j;
    return c * p ** k * (1 - p) ** (n - k);
  };

  it.each([
    [10, 0.5],
    [27, 0.55],
    [6, 0.2],
  ])('followerFactor has expectation 1 for a careful worker (n = %i, rate %f): P(BF ≥ 100) ≤ 1 in 100', (n, p0) => {
    let expectation = 0;
    let tail = 0;
    for (let k = 0; k <= n; k++) {
      const bf = followerFactor(k, n, p0);
      expectation += binomial(k, n, p0) * bf;
      if (bf >= 100) tail += binomial(k, n, p0);
    }
    expect(expectation).toBeCloseTo(1, 3);
    expect(tail).toBeLessThanOrEqual(0.01);
  });

  it('followerFactor grows with the follow rate and is under 1 at or below the careful rate', () => {
    expect(followerFactor(5, 10, 0.5)).toBeLessThan(1);
    expect(followerFactor(9, 10, 0.5)).toBeGreaterThan(10);
    expect(followerFactor(10, 10, 0.5)).toBeGreaterThan(followerFactor(9, 10, 0.5));
    expect(followerFactor(0, 0, 0.5)).toBe(1);
  });

  it('fasterFactor has expectation 1 for a careful reader, favours a reader at 45% of the time and not one slower than the centre', () => {
    const s = 0.36;
    let expectation = 0;
    const step = 0.001;
    for (let x = -14 * s; x <= 6 * s; x += step)
      expectation += (Math.exp(-(x * x) / (2 * s * s)) / (s * Math.sqrt(2 * Math.PI))) * fasterFactor(x, s, 0.2) * step;
    expect(expectation).toBeCloseTo(1, 2);
    expect(fasterFactor(Math.log(0.45), s, 0.2)).toBeGreaterThan(3);
    expect(fasterFactor(0.3, s, 0.2)).toBeLessThan(0.5);
  });
});

describe('careful workers against the flag', () => {
  it('flags fewer than 1% of 2,000 careful workers of 2 to 4 HITs, compared with a batch of careful workers', () => {
    const rng = seededRng('careful-null');
    const careful = Array.from({ length: 2_000 }, (_, w) => worker('careful', 9 * (2 + Math.floor(rng.next() * 3)), `n${w}`));
    const baseline = batchBaselineOf(careful.slice(0, 200));
    const flagged = careful.filter((o) => llmAssistedVerdict(o, baseline).flagged).length;
    expect(flagged / careful.length).toBeLessThan(0.01);
  });

  it('reports each signal as a Bayes factor and their product', () => {
    const { factors } = llmAssistedVerdict(worker('llm', 27, 'factors'), { items: 1000, followedA: 500 });
    expect(factors.agreement).toBeGreaterThan(3);
    expect(factors.combined).toBeCloseTo(factors.agreement * factors.speed * factors.events, 9);
  });
});

describe('workerSignals', () => {
  it('finds a canary word in any case, in any of the texts', () => {
    expect(workerSignals([], ['nothing here', 'the code word is DEXSOLGIMine'], ['kalovine', 'dexsolgimine']).canary).toBe(true);
    expect(workerSignals([], ['nothing here'], ['kalovine']).canary).toBe(false);
    expect(workerSignals([], [], ['kalovine']).canary).toBe(false);
  });
});
