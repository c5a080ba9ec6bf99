import { describe, expect, it } from 'vitest';
import {
  boundedMemo,
  checkCounts,
  checkGainBound,
  DEFAULT_LLM_GROUP_POLICY,
  firstAnswers,
  outcomeLogLikelihood,
  pairFactor,
  pairs,
  prefersGroup,
  seedGroups,
  type Answered,
  type CheckAnswer,
  type Outcome,
  type Pair,
} from './llm-groups.js';

const answer = (worker: string, item: string, yes: boolean): Answered => ({ worker, item, answer: yes ? 'yes' : 'no' });
const check = (worker: string, item: string, right: boolean, expected: 'yes' | 'no' = 'yes'): CheckAnswer => ({
  worker,
  item,
  expected,
  answer: right ? expected : expected === 'yes' ? 'no' : 'yes',
});

describe('checkCounts', () => {
  it("counts each worker's first answer to each check, and those answered right", () => {
    const counts = checkCounts([check('A', 'g1', true), check('A', 'g2', false, 'no'), check('A', 'g1', false), check('B', 'g1', true)]);
    expect(counts.get('A')).toEqual({ right: 1, total: 2 });
    expect(counts.get('B')).toEqual({ right: 1, total: 1 });
    expect(counts.has('C')).toBe(false);
  });
});

describe('pairFactor', () => {
  const poor = { right: 3, total: 6 };
  const perfect = { right: 6, total: 6 };

  it('favours one model where two workers agree on everything and their checks say they are often wrong', () => {
    expect(pairFactor(20, 20, poor, poor)).toBeGreaterThan(1000);
  });

  it('says less where the checks allow accurate workers, who agree on most items anyway', () => {
    const accurate = pairFactor(20, 20, perfect, perfect);
    expect(accurate).toBeLessThan(pairFactor(20, 20, poor, poor));
    // two checks cannot tell a 0.95 worker from a model: the pair still looks alike (decision 0014)
    expect(accurate).toBeGreaterThan(1);
  });

  it('clears workers who disagree as independent workers do, and grows with the agreement', () => {
    expect(pairFactor(14, 20, poor, poor)).toBeLessThan(0.01);
    const factors = [16, 17, 18, 19, 20].map((k) => pairFactor(k, 20, poor, poor));
    for (let i = 1; i < factors.length; i++) expect(factors[i]!).toBeGreaterThan(factors[i - 1]!);
  });

  it('is 1 with nothing shared, and a worker without checks counts as any accuracy from ½ up', () => {
    expect(pairFactor(0, 0, poor, poor)).toBeCloseTo(1, 9);
    const none = { right: 0, total: 0 };
    expect(pairFactor(10, 10, none, none)).toBeGreaterThan(1);
    expect(pairFactor(10, 10, none, none)).toBeLessThan(pairFactor(10, 10, poor, poor));
  });

  // the factor as it was computed before its grids were kept: every logarithm taken in the factor itself
  const direct = (k: number, n: number, a: { right: number; total: number }, b: { right: number; total: number }, lo = 0.95) => {
    const lse = (xs: number[]) => {
      const top = Math.max(...xs);
      let s = 0;
      for (const x of xs) s += Math.exp(x - top);
      return top + Math.log(s);
    };
    const grid = (right: number, wrong: number) => {
      const p: number[] = [];
      const logs: number[] = [];
      for (let i = 0; i < 40; i++) {
        const x = 0.5 + (0.49 * (i + 0.5)) / 40;
        p.push(x);
        logs.push(right * Math.log(x) + wrong * Math.log1p(-x));
      }
      const norm = lse(logs);
      return { p, logW: logs.map((l) => l - norm) };
    };
    const m = n - k;
    const model: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = Math.min(1 - 1e-9, lo + ((1 - lo) * (i + 0.5)) / 40);
      model.push(k * Math.log(r) + m * Math.log1p(-r));
    }
    const ga = grid(a.right, a.total - a.right);
    const gb = grid(b.right, b.total - b.right);
    const independent: number[] = [];
    for (let i = 0; i < 40; i++)
      for (let j = 0; j < 40; j++) {
        const r = ga.p[i]! * gb.p[j]! + (1 - ga.p[i]!) * (1 - gb.p[j]!);
        independent.push(ga.logW[i]! + gb.logW[j]! + k * Math.log(r) + m * Math.log1p(-r));
      }
    return Math.exp(lse(model) - Math.log(40) - lse(independent));
  };

  it('is the number the factor computed with every logarithm taken anew, bit for bit, asked once or again', () => {
    const cases: [number, number, { right: number; total: number }, { right: number; total: number }][] = [
      [20, 20, poor, poor],
      [14, 20, poor, perfect],
      [7, 9, { right: 0, total: 0 }, { right: 2, total: 3 }],
      [0, 5, perfect, { right: 1, total: 4 }],
    ];
    for (const [k, n, a, b] of cases) {
      expect(pairFactor(k, n, a, b)).toBe(direct(k, n, a, b));
      expect(pairFactor(k, n, a, b)).toBe(direct(k, n, a, b));
    }
  });

  it("keeps the factors of one policy's model agreement apart from another's", () => {
    const lower = { ...DEFAULT_LLM_GROUP_POLICY, oneModelAgreement: 0.8 };
    expect(pairFactor(18, 20, poor, poor, lower)).toBe(direct(18, 20, poor, poor, 0.8));
    expect(pairFactor(18, 20, poor, poor)).toBe(direct(18, 20, poor, poor));
    expect(pairFactor(18, 20, poor, poor, lower)).not.toBe(pairFactor(18, 20, poor, poor));
  });
});

describe('firstAnswers', () => {
  it("keeps each worker's first answer to each item, in order, and no later one", () => {
    const answers = [
      answer('A', 'i1', true),
      answer('B', 'i1', false),
      answer('A', 'i1', false),
      answer('A', 'i2', false),
      answer('B', 'i1', true),
    ];
    expect(firstAnswers(answers)).toEqual([answers[0], answers[1], answers[3]]);
  });

  it('tells workers and items apart whose names would run together', () => {
    const answers = [answer('A', 'Bi', true), answer('AB', 'i', true), answer('A', 'Bi', false)];
    expect(firstAnswers(answers)).toEqual([answers[0], answers[1]]);
    expect(firstAnswers([])).toEqual([]);
  });
});

describe('boundedMemo', () => {
  it('computes a key once and answers it again from memory', () => {
    const computed: string[] = [];
    const memo = boundedMemo(10, (key) => (computed.push(key), key.length));
    expect([memo('ab'), memo('abc'), memo('ab')]).toEqual([2, 3, 2]);
    expect(computed).toEqual(['ab', 'abc']);
  });

  it('forgets everything it holds when it reaches its limit, and computes again', () => {
    const computed: string[] = [];
    const memo = boundedMemo(2, (key) => (computed.push(key), key.toUpperCase()));
    expect([memo('a'), memo('b'), memo('c'), memo('c'), memo('a')]).toEqual(['A', 'B', 'C', 'C', 'A']);
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
  });
});

describe('pairs', () => {
  it('pairs workers who share minShared items, in order, weighed against the accuracies their checks allow', () => {
    const answers = ['i1', 'i2', 'i3', 'i4', 'i5'].flatMap((item) => [
      answer('B', item, true),
      answer('A', item, true),
      answer('C', item, true),
    ]);
    // C shares four items only; A and B failed their checks, C passed
    const few = answers.filter((a) => a.worker !== 'C' || a.item !== 'i5');
    const checks = [check('A', 'g1', false), check('B', 'g1', false), check('B', 'g2', false), check('C', 'g3', true)];
    const found = pairs(few, checks);
    expect(found.map((p) => [p.a, p.b, p.shared, p.agreed])).toEqual([['A', 'B', 5, 5]]);
    expect(found[0]!.factor).toBeCloseTo(pairFactor(5, 5, { right: 0, total: 1 }, { right: 0, total: 2 }), 12);
    // the gold checks are no items in common (a gold item meets most workers of a large batch)
    expect(
      pairs(
        few.filter((a) => a.item !== 'i5'),
        checks,
      ),
    ).toEqual([]);
    // pairs with the same counts have the same factor; a pair who both passed a check, a smaller one
    const all = pairs(answers, [check('A', 'g1', true), check('C', 'g1', true)]);
    expect(all.map((p) => [p.a, p.b])).toEqual([
      ['A', 'B'],
      ['A', 'C'],
      ['B', 'C'],
    ]);
    expect(all[1]!.factor).toBeLessThan(all[0]!.factor);
    expect(all[0]!.factor).toBeCloseTo(all[2]!.factor, 12);
  });

  it("counts a worker's answer to an item once, and disagreements as such", () => {
    const answers = ['i1', 'i2', 'i3', 'i4', 'i5'].flatMap((item, n) => [
      answer('A', item, true),
      answer('B', item, n < 3),
      answer('A', item, false),
    ]);
    const [pair] = pairs(answers, []);
    expect(pair).toMatchObject({ a: 'A', b: 'B', shared: 5, agreed: 3 });
  });
});

describe('seedGroups', () => {
  const pair = (a: string, b: string, factor: number): Pair => ({ a, b, shared: 10, agreed: 10, factor });

  it('joins strong pairs into connected groups of three or more: a star is a group, a pair is not', () => {
    const found = [pair('H', 'X', 50), pair('H', 'Y', 50), pair('H', 'Z', 50), pair('P', 'Q', 1e6), pair('X', 'Q', 2)];
    expect(seedGroups(found)).toEqual([['H', 'X', 'Y', 'Z']]);
  });

  it('orders groups largest first, keeps at most maxGroups, and needs pairFactor', () => {
    const found = [
      pair('A', 'B', 20),
      pair('B', 'C', 20),
      pair('D', 'E', 20),
      pair('E', 'F', 20),
      pair('F', 'G', 20),
      pair('K', 'L', 20),
      pair('L', 'M', 20),
    ];
    expect(seedGroups(found)).toEqual([
      ['D', 'E', 'F', 'G'],
      ['A', 'B', 'C'],
    ]);
    expect(seedGroups(found, { ...DEFAULT_LLM_GROUP_POLICY, maxGroups: 3 })).toHaveLength(3);
    expect(seedGroups(found, { ...DEFAULT_LLM_GROUP_POLICY, pairFactor: 21 })).toEqual([]);
  });
});

describe('outcomeLogLikelihood', () => {
  const outcome = (llm: string[], accuracy: number, alpha: number): Outcome => ({
    llm: new Set(llm),
    accuracy: new Map(['A', 'B', 'C'].map((w) => [w, accuracy])),
    alpha,
    beta: 0.9,
    rho: 0.5,
  });

  it('sums, per item, the four (truth, LLM verdict) states', () => {
    // one item, A careful (0.8) says yes; B an LLM user (β 0.9) says no; α 0.7, ρ ½
    const { votes, checks } = outcomeLogLikelihood([answer('A', 'i', true), answer('B', 'i', false)], [], outcome(['B'], 0.8, 0.7));
    const expected = 0.5 * (0.7 * 0.8 * 0.1 + 0.3 * 0.8 * 0.9 + 0.3 * 0.2 * 0.1 + 0.7 * 0.2 * 0.9);
    expect(votes).toBeCloseTo(Math.log(expected), 12);
    expect(checks).toBe(0);
  });

  it('gives the LLM users who meet on a check one verdict: they fail it together', () => {
    const both = [check('B', 'g', false), check('C', 'g', false)];
    const { checks } = outcomeLogLikelihood([], both, outcome(['B', 'C'], 0.8, 0.7));
    expect(checks).toBeCloseTo(Math.log(0.7 * 0.1 * 0.1 + 0.3 * 0.9 * 0.9), 12);
    // as careful workers, each fails on their own
    expect(outcomeLogLikelihood([], both, outcome([], 0.8, 0.7)).checks).toBeCloseTo(2 * Math.log(0.2), 12);
  });

  it('scores careful workers of the LLM accuracy no better on their checks as LLM users', () => {
    const checks = ['g1', 'g2', 'g3', 'g4', 'g5'].flatMap((g, n) => ['A', 'B', 'C'].map((w, m) => check(w, g, (n + m) % 5 !== 0)));
    const asCareful = outcomeLogLikelihood([], checks, outcome([], 0.8, 0.8)).checks;
    const asLlm = outcomeLogLikelihood([], checks, { ...outcome(['A', 'B', 'C'], 0.8, 0.8), beta: 0.99 }).checks;
    expect(asLlm).toBeLessThan(asCareful);
  });
});

describe('checkGainBound', () => {
  const asIs = (accuracy: number): Outcome => ({
    llm: new Set(),
    accuracy: new Map(['A', 'B', 'C', 'D'].map((w) => [w, accuracy])),
    alpha: 0.8,
    beta: 0.9,
    rho: 0.5,
  });
  const members = ['A', 'B', 'C'];

  it('is large where the members, taken as accurate, fail the same checks together', () => {
    // six checks, each met by all three: two failed by all of them
    const checks = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'].flatMap((g, n) => members.map((w) => check(w, g, n >= 2)));
    expect(checkGainBound(members, checks, asIs(0.95))).toBeGreaterThan(Math.log(DEFAULT_LLM_GROUP_POLICY.minCheckFactor));
  });

  it('is small where their checks are as good as the fit says, or their failures their own', () => {
    const good = ['g1', 'g2', 'g3', 'g4'].flatMap((g) => members.map((w) => check(w, g, true)));
    expect(checkGainBound(members, good, asIs(0.95))).toBeLessThan(Math.log(DEFAULT_LLM_GROUP_POLICY.minCheckFactor));
    // each fails a different check: no one verdict explains that
    const own = ['g1', 'g2', 'g3'].flatMap((g, n) => members.map((w, m) => check(w, g, n !== m)));
    expect(checkGainBound(members, own, asIs(0.8))).toBeLessThan(0);
  });

  it("counts the members' checks only, each first answer once", () => {
    const checks = [check('A', 'g1', false), check('B', 'g1', false), check('D', 'g2', false)];
    const twice = [...checks, check('A', 'g1', true)];
    expect(checkGainBound(members, twice, asIs(0.9))).toBeCloseTo(checkGainBound(members, checks, asIs(0.9)), 12);
    expect(checkGainBound(members, [check('D', 'g2', false)], asIs(0.9))).toBe(0);
  });
});

describe('prefersGroup', () => {
  const asIs = { votes: -100, checks: -20 };
  const { minCheckFactor, minFactor } = DEFAULT_LLM_GROUP_POLICY;

  it('takes the group outcome where the checks alone and everything together favour it, with three or more added', () => {
    const gain = Math.log(Math.max(minCheckFactor, minFactor)) + 0.01;
    expect(prefersGroup(asIs, { votes: -100, checks: -20 + gain }, 3)).toBe(true);
    expect(prefersGroup(asIs, { votes: -100, checks: -20 + gain }, 2)).toBe(false);
  });

  it('keeps the fit as it is where the votes alone favour the group (they are what the group outcome was fitted to)', () => {
    expect(prefersGroup(asIs, { votes: -50, checks: -20 }, 5)).toBe(false);
  });

  it('keeps the fit as it is where the checks favour the group but the votes outweigh them', () => {
    const checks = Math.log(minCheckFactor) + 1;
    expect(prefersGroup(asIs, { votes: -100 - checks, checks: -20 + checks }, 5)).toBe(false);
  });
});
