import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { paths } from '../paths.js';
import {
  carefulEventBound,
  correlatedSideFactor,
  DEFAULT_LLM_EVIDENCE_POLICY,
  eventRateFactor,
  sharedErrorFactors,
  sideFactor,
  type CheckAnswer,
  type Vote,
} from './llm-evidence.js';
import { pairs, seedGroups } from './llm-groups.js';

const flip = (j: Judgment): Judgment => (j === 'yes' ? 'no' : 'yes');

/**
 * A batch of `items` items, each answered by 5 workers drawn at random: careful workers right
 * with their own accuracy, independently; LLM users answer one LLM's verdict (right with
 * `llmAccuracy` on each item, the same verdict for all of them); `alwaysNo` workers answer "no".
 */
function batch(
  seed: string,
  options: { careful: readonly number[]; llm: number; llmAccuracy: number; items?: number; alwaysNo?: number },
): Vote[] {
  return crowd(seed, options).votes;
}

/**
 * `batch`, with LLM users drawn `llmWeight` times as often as the others (the majority on many
 * items) and, with `checkEvery`, a gold check with each worker's first answer and every
 * `checkEvery`-th after it, drawn from 40 gold items: careful workers right with their accuracy,
 * LLM users answering the LLM's verdict on the gold item (one verdict for all of them).
 */
function crowd(
  seed: string,
  options: {
    careful: readonly number[];
    llm: number;
    llmAccuracy: number;
    items?: number;
    alwaysNo?: number;
    llmWeight?: number;
    checkEvery?: number;
  },
): { votes: Vote[]; checks: CheckAnswer[] } {
  const rng = seededRng(seed);
  const workers = [
    ...options.careful.map((accuracy, i) => ({ id: `C${i}`, llm: false, accuracy, weight: 1 })),
    ...Array.from({ length: options.llm }, (_, i) => ({ id: `L${i}`, llm: true, accuracy: 0, weight: options.llmWeight ?? 1 })),
    ...Array.from({ length: options.alwaysNo ?? 0 }, (_, i) => ({ id: `N${i}`, llm: false, accuracy: -1, weight: 1 })),
  ];
  const gold = Array.from({ length: options.checkEvery ? 40 : 0 }, (_, g) => {
    const truth: Judgment = rng.next() < 0.5 ? 'yes' : 'no';
    return { item: `g${g}`, truth, llm: rng.next() < options.llmAccuracy ? truth : flip(truth) };
  });
  const answered = new Map<string, number>();
  const votes: Vote[] = [];
  const checks: CheckAnswer[] = [];
  for (let t = 0; t < (options.items ?? 150); t++) {
    const truth: Judgment = rng.next() < 0.4 ? 'yes' : 'no';
    const llmVerdict = rng.next() < options.llmAccuracy ? truth : flip(truth);
    const pool = [...workers];
    for (let k = 0; k < 5; k++) {
      // by weight (with every weight 1, the index is ⌊u × the pool's size⌋)
      let r = rng.next() * pool.reduce((sum, w) => sum + w.weight, 0);
      let at = 0;
      while (at < pool.length - 1 && r >= pool[at]!.weight) r -= pool[at++]!.weight;
      const w = pool.splice(at, 1)[0]!;
      const answer = w.llm ? llmVerdict : w.accuracy < 0 ? 'no' : rng.next() < w.accuracy ? truth : flip(truth);
      votes.push({ worker: w.id, item: `i${t}`, answer });
      const n = (answered.get(w.id) ?? 0) + 1;
      answered.set(w.id, n);
      if (options.checkEvery && n % options.checkEvery === 1) {
        const g = gold[Math.floor(rng.next() * gold.length)]!;
        const right = w.llm ? g.llm === g.truth : w.accuracy >= 0 && rng.next() < w.accuracy;
        checks.push({ worker: w.id, item: g.item, expected: g.truth, answer: w.llm ? g.llm : right ? g.truth : flip(g.truth) });
      }
    }
  }
  return { votes, checks };
}

const spread = (n: number, lo: number, hi: number) => Array.from({ length: n }, (_, i) => lo + ((hi - lo) * i) / Math.max(1, n - 1));

describe('carefulEventBound', () => {
  it('is twice the median worker rate, at least the floor and at most 0.9', () => {
    const careful = Array.from({ length: 9 }, (_, i) => ({ items: 20, eventItems: i < 5 ? 1 : 2 }));
    // median rate 1/20: the floor 0.1 applies
    expect(carefulEventBound(careful)).toBe(0.1);
    const more = Array.from({ length: 9 }, () => ({ items: 20, eventItems: 3 }));
    expect(carefulEventBound(more)).toBeCloseTo(0.3, 12);
    // a batch where everyone tabs away on most items: the bound tops out at 0.9
    expect(carefulEventBound(Array.from({ length: 9 }, () => ({ items: 20, eventItems: 15 })))).toBe(0.9);
  });

  it('leaves out workers with fewer than minItems items, and a batch of LLM users under half does not move it', () => {
    const workers = [
      ...Array.from({ length: 6 }, () => ({ items: 20, eventItems: 1 })),
      ...Array.from({ length: 4 }, () => ({ items: 20, eventItems: 20 })),
      { items: 2, eventItems: 2 },
    ];
    expect(carefulEventBound(workers)).toBe(0.1);
    expect(carefulEventBound([])).toBe(DEFAULT_LLM_EVIDENCE_POLICY.eventFloor);
  });
});

describe('eventRateFactor', () => {
  it('favours a worker with an event on every item, capped, and clears one at the careful rate', () => {
    expect(eventRateFactor(30, 30, 0.1)).toBe(DEFAULT_LLM_EVIDENCE_POLICY.maxEventFactor);
    const careful = eventRateFactor(2, 30, 0.1);
    expect(careful).toBeLessThan(1);
    // a worker the page does not see is as likely an LLM user in a browser extension: the factor is 1 − tabWeight
    expect(eventRateFactor(0, 30, 0.1)).toBeCloseTo(1 - DEFAULT_LLM_EVIDENCE_POLICY.tabWeight, 6);
  });

  it('says nothing under minItems items, and little where everyone leaves the page as often', () => {
    expect(eventRateFactor(4, 4, 0.1)).toBe(1);
    const bound = carefulEventBound(Array.from({ length: 9 }, () => ({ items: 30, eventItems: 15 })));
    expect(eventRateFactor(15, 30, bound)).toBeLessThan(1);
    expect(eventRateFactor(30, 30, bound)).toBeGreaterThan(10);
  });

  it('grows with the events', () => {
    const factors = [0, 5, 10, 15, 20, 25].map((k) => eventRateFactor(k, 25, 0.1));
    for (let i = 1; i < factors.length; i++) expect(factors[i]!).toBeGreaterThanOrEqual(factors[i - 1]!);
  });
});

describe('sideFactor', () => {
  it('mixes fast and slow LLM users: a slow reader is cleared at most by half, a fast one capped', () => {
    expect(sideFactor(0)).toBe(1 - DEFAULT_LLM_EVIDENCE_POLICY.fastWeight);
    expect(sideFactor(1)).toBe(1);
    expect(sideFactor(1e6)).toBe(DEFAULT_LLM_EVIDENCE_POLICY.maxSpeedFactor);
    expect(sideFactor(5)).toBeCloseTo(3, 12);
  });
});

describe('correlatedSideFactor', () => {
  it('counts speed and agent agreement once where they point the same way, never their product', () => {
    const { maxSpeedFactor: cap, fastWeight } = DEFAULT_LLM_EVIDENCE_POLICY;
    expect(correlatedSideFactor(1e6, 1e6)).toBe(cap);
    expect(correlatedSideFactor(5, 1)).toBeCloseTo(3, 12);
    expect(correlatedSideFactor(1, 5)).toBeCloseTo(3, 12);
    expect(correlatedSideFactor(5, 5)).toBeCloseTo(3, 12);
    expect(correlatedSideFactor(5, 2)).toBeCloseTo(3, 12);
    // both clear the worker: the stronger clearing, not the two multiplied
    expect(correlatedSideFactor(0, 0)).toBe(1 - fastWeight);
    expect(correlatedSideFactor(0, 0.5)).toBe(1 - fastWeight);
  });

  it('lets a signal that clears the worker weigh against one that does not: a fast reader who sides with no agent', () => {
    const { maxSpeedFactor: cap, fastWeight } = DEFAULT_LLM_EVIDENCE_POLICY;
    expect(correlatedSideFactor(1e6, 0)).toBeCloseTo(cap * (1 - fastWeight), 12);
    expect(correlatedSideFactor(0, 5)).toBeCloseTo(3 * (1 - fastWeight), 12);
  });
});

describe('sharedErrorFactors', () => {
  it('finds LLM users who show other evidence, leans towards those who share their errors, and clears careful workers', () => {
    for (const llmAccuracy of [0.65, 0.8, 0.9]) {
      const votes = batch(`shared-${llmAccuracy}`, { careful: spread(14, llmAccuracy, 0.95), llm: 4, llmAccuracy });
      // two LLM users copy items into another tab (events); the other two leave no trace on the page
      const side = new Map([
        ['L0', 1000],
        ['L1', 1000],
      ]);
      const fit = sharedErrorFactors(votes, side);
      for (const w of ['L0', 'L1']) expect(fit.posteriors.get(w)!).toBeGreaterThan(0.95);
      // the ones without events: their shared errors point their way, short of a flag on 150 items (the price of
      // the bounded feedback, next test); never a careful worker's
      for (const w of ['L2', 'L3']) expect(fit.factors.get(w)!).toBeGreaterThan(1);
      for (const [w, p] of fit.posteriors) if (!w.startsWith('L')) expect(p).toBeLessThan(0.5);
      // with unbounded feedback the two feed each other up to a flag on this batch
      const unbounded = sharedErrorFactors(votes, side, { ...DEFAULT_LLM_EVIDENCE_POLICY, maxFitFeedback: 1e6 });
      for (const w of ['L2', 'L3']) expect(unbounded.posteriors.get(w)!).toBeGreaterThan(fit.posteriors.get(w)!);
    }
  });

  it("does not let a careful crowd's agreement feed itself into an LLM class (a round of a bot crowd)", () => {
    // bench/crowd-external.ts, seed ext-seed-5: 34 workers, 1,305 votes, the four LLM users paste every item
    const round = JSON.parse(readFileSync(join(paths.root, 'test/fixtures/llm-evidence/crowd-external-round.json'), 'utf8')) as {
      llmUsers: string[];
      votes: Vote[];
      side: [string, number][];
    };
    const side = new Map(round.side);
    const flagged = (fit: ReturnType<typeof sharedErrorFactors>) =>
      [...fit.posteriors].filter(([, p]) => p >= DEFAULT_LLM_EVIDENCE_POLICY.confidence).map(([w]) => w);
    // as long as the fit runs, 25 rounds or 50: the LLM users and no one else
    for (const rounds of [25, 50]) {
      const fit = sharedErrorFactors(round.votes, side, { ...DEFAULT_LLM_EVIDENCE_POLICY, rounds });
      expect(flagged(fit).sort()).toEqual([...round.llmUsers].sort());
      expect(fit.share).toBeLessThan(0.25);
    }
    // unbounded, the careful workers who leaned towards the LLM class made the LLM verdict their own: 8 more flagged
    const unbounded = sharedErrorFactors(round.votes, side, { ...DEFAULT_LLM_EVIDENCE_POLICY, maxFitFeedback: 1e6 });
    expect(flagged(unbounded).length).toBeGreaterThan(round.llmUsers.length + 4);
  });

  /** A recorded last round of bench/crowd-external.ts with the workers' gold checks (its `source` says which run). */
  const recorded = (name: string) =>
    JSON.parse(readFileSync(join(paths.root, 'test/fixtures/llm-evidence', name), 'utf8')) as {
      llmUsers: string[];
      votes: Vote[];
      checks: CheckAnswer[];
      side: [string, number][];
    };
  const flaggedBy = (fit: ReturnType<typeof sharedErrorFactors>) =>
    [...fit.posteriors].filter(([, p]) => p >= DEFAULT_LLM_EVIDENCE_POLICY.confidence).map(([w]) => w);

  it('finds, through their gold checks, the unseen users of one model who were the majority on many items (a bot crowd round)', () => {
    const round = recorded('crowd-external-unseen-round.json');
    const side = new Map(round.side);
    // without the checks, the truth fitted is their verdict: none is found (decision 0014)
    expect(flaggedBy(sharedErrorFactors(round.votes, side))).toEqual([]);
    const fit = sharedErrorFactors(round.votes, side, DEFAULT_LLM_EVIDENCE_POLICY, round.checks);
    const flagged = flaggedBy(fit);
    expect(flagged.filter((w) => round.llmUsers.includes(w)).length).toBeGreaterThanOrEqual(4);
    expect(flagged.filter((w) => !round.llmUsers.includes(w))).toEqual([]);
    expect(fit.group!.checkFactor).toBeGreaterThan(DEFAULT_LLM_EVIDENCE_POLICY.groups.minCheckFactor);
  });

  it('keeps the fit as it is on a bot crowd round where a proposed group held a careful bot', () => {
    const round = recorded('crowd-external-checks-round.json');
    const side = new Map(round.side);
    expect(seedGroups(pairs(round.votes, round.checks)).length).toBeGreaterThan(0);
    const fit = sharedErrorFactors(round.votes, side, DEFAULT_LLM_EVIDENCE_POLICY, round.checks);
    expect(fit.group).toBeUndefined();
    expect(flaggedBy(fit).sort()).toEqual([...round.llmUsers].sort());
  });

  describe('an LLM user the page does not see (a stated limit: what the matrix cell `mixed` misses)', () => {
    /**
     * 150 items, 5 votes each: careful workers C0-C13 (0.80-0.95), X answers one LLM's verdict
     * (right 80% of the time) on items 0-39, and two LLM users the page sees (L0, L1: page events on
     * every item) answer the same verdicts, on X's items when `shared`, else on items 40-79.
     */
    function votes(seed: string, shared: boolean): Vote[] {
      const rng = seededRng(seed);
      const careful = spread(14, 0.8, 0.95).map((accuracy, i) => ({ id: `C${i}`, accuracy }));
      const out: Vote[] = [];
      for (let t = 0; t < 150; t++) {
        const truth: Judgment = rng.next() < 0.4 ? 'yes' : 'no';
        const llm = rng.next() < 0.8 ? truth : flip(truth);
        const mine = t < 40;
        const seen = shared ? mine : t >= 40 && t < 80;
        const llmVoters = [...(mine ? ['X'] : []), ...(seen ? ['L0', 'L1'] : [])];
        for (const w of llmVoters) out.push({ worker: w, item: `i${t}`, answer: llm });
        const pool = [...careful];
        for (let k = llmVoters.length; k < 5; k++) {
          const w = pool.splice(Math.floor(rng.next() * pool.length), 1)[0]!;
          out.push({ worker: w.id, item: `i${t}`, answer: rng.next() < w.accuracy ? truth : flip(truth) });
        }
      }
      return out;
    }
    // X leaves no page event (a factor of 1 − tabWeight) and reads as fast as the side factor allows
    const { confidence, tabWeight, maxSpeedFactor } = DEFAULT_LLM_EVIDENCE_POLICY;
    const side = new Map([
      ['L0', 1000],
      ['L1', 1000],
      ['X', (1 - tabWeight) * maxSpeedFactor],
    ]);

    it('is found through the errors shared with LLM users the page sees', () => {
      for (const seed of ['a', 'b', 'c', 'd'])
        expect(sharedErrorFactors(votes(seed, true), side).posteriors.get('X')!).toBeGreaterThan(confidence);
    });

    it('is not found with the same answers on items no other LLM user answered, however fast', () => {
      for (const seed of ['a', 'b', 'c', 'd']) {
        const fit = sharedErrorFactors(votes(seed, false), side);
        expect(fit.posteriors.get('X')!).toBeLessThan(confidence);
        // the shared-error factor says little either way: the LLM's errors there look like X's own
        expect(fit.factors.get('X')!).toBeLessThan(2);
      }
    });
  });

  describe('a group of LLM users the page does not see, the majority on many items (llm-groups.ts)', () => {
    const { confidence } = DEFAULT_LLM_EVIDENCE_POLICY;
    const llm = ['L0', 'L1', 'L2', 'L3', 'L4', 'L5'];
    const careful = (fit: ReturnType<typeof sharedErrorFactors>) =>
      [...fit.posteriors].filter(([w]) => w.startsWith('C')).map(([, p]) => p);

    it('is found through their gold checks, where their answers alone clear them', () => {
      for (const llmAccuracy of [0.65, 0.75])
        for (const seed of ['group-0', 'group-1', 'group-2', 'group-3']) {
          const { votes, checks } = crowd(seed, { careful: spread(14, 0.8, 0.95), llm: 6, llmAccuracy, llmWeight: 3, checkEvery: 8 });
          const asIs = sharedErrorFactors(votes);
          for (const w of llm) expect(asIs.posteriors.get(w)!).toBeLessThan(0.5);
          const fit = sharedErrorFactors(votes, new Map(), DEFAULT_LLM_EVIDENCE_POLICY, checks);
          for (const w of llm) expect(fit.posteriors.get(w)!).toBeGreaterThan(confidence);
          for (const p of careful(fit)) expect(p).toBeLessThan(0.5);
          expect(fit.group!.checkFactor).toBeGreaterThan(DEFAULT_LLM_EVIDENCE_POLICY.groups.minCheckFactor);
        }
    });

    it('is taken for none in careful crowds (0.80-0.97, or 0.65-0.97 with more checks), though groups are put to the fit', () => {
      let proposed = 0;
      for (let s = 0; s < 6; s++)
        for (const options of [
          { careful: spread(18, 0.8, 0.97), checkEvery: 8 },
          { careful: spread(18, 0.65, 0.97), checkEvery: 4 },
        ]) {
          const { votes, checks } = crowd(`careful-groups-${s}`, { ...options, llm: 0, llmAccuracy: 0 });
          proposed += seedGroups(pairs(votes, checks)).length;
          const fit = sharedErrorFactors(votes, new Map(), DEFAULT_LLM_EVIDENCE_POLICY, checks);
          expect(fit.group).toBeUndefined();
          for (const p of careful(fit)) expect(p).toBeLessThan(0.5);
        }
      expect(proposed).toBeGreaterThan(3);
    });

    it('leaves a copying pair to the other evidence: a pair is no group', () => {
      const { votes, checks } = crowd('copiers', { careful: spread(18, 0.8, 0.97), llm: 0, llmAccuracy: 0, checkEvery: 8 });
      // P copies C3's answers, checks too
      const copied = [...votes, ...votes.filter((v) => v.worker === 'C3').map((v) => ({ ...v, worker: 'P' }))];
      const copiedChecks = [...checks, ...checks.filter((c) => c.worker === 'C3').map((c) => ({ ...c, worker: 'P' }))];
      const fit = sharedErrorFactors(copied, new Map(), DEFAULT_LLM_EVIDENCE_POLICY, copiedChecks);
      expect(fit.group).toBeUndefined();
      for (const w of ['P', 'C3']) expect(fit.posteriors.get(w)!).toBeLessThan(confidence);
    });
  });

  it('does not find LLM users from answers alone when none shows other evidence (no seed: a stated limit)', () => {
    const fit = sharedErrorFactors(batch('unseeded', { careful: spread(14, 0.8, 0.95), llm: 4, llmAccuracy: 0.8 }));
    for (const p of fit.posteriors.values()) expect(p).toBeLessThan(DEFAULT_LLM_EVIDENCE_POLICY.confidence);
  });

  it('flags no one in a batch of careful workers, however their accuracies differ', () => {
    const fit = sharedErrorFactors(batch('careful-only', { careful: spread(18, 0.65, 0.97), llm: 0, llmAccuracy: 0 }));
    for (const p of fit.posteriors.values()) expect(p).toBeLessThan(0.5);
    expect(fit.share).toBeLessThan(0.1);
  });

  it('multiplies in the side factors: strong events make a worker likely, exculpating answers pull back', () => {
    const votes = batch('side', { careful: spread(14, 0.8, 0.95), llm: 0, llmAccuracy: 0 });
    const plain = sharedErrorFactors(votes).posteriors.get('C3')!;
    const withEvents = sharedErrorFactors(votes, new Map([['C3', 1000]])).posteriors.get('C3')!;
    expect(withEvents).toBeGreaterThan(plain);
    // a careful worker whose answers do not share anyone's errors is not flagged on events alone at default confidence
    const careful = sharedErrorFactors(votes, new Map([['C3', 1000]])).factors.get('C3')!;
    expect(careful).toBeLessThanOrEqual(1);
  });

  it('takes workers who answer "no" to everything for workers who do not read, not for users of one LLM', () => {
    const votes = batch('one-button', { careful: spread(14, 0.8, 0.95), llm: 0, llmAccuracy: 0, alwaysNo: 3 });
    // they click fast: the side factor the caller caps reading speed at
    const fast = new Map(['N0', 'N1', 'N2'].map((w) => [w, DEFAULT_LLM_EVIDENCE_POLICY.maxSpeedFactor]));
    const fit = sharedErrorFactors(votes, fast);
    for (const w of ['N0', 'N1', 'N2']) expect(fit.posteriors.get(w)!).toBeLessThan(0.5);
    // without the class of workers who do not read, their shared "errors" had only an LLM to explain them
    const without = sharedErrorFactors(votes, fast, { ...DEFAULT_LLM_EVIDENCE_POLICY, priorNotReading: 0 });
    expect(Math.max(...['N0', 'N1', 'N2'].map((w) => without.posteriors.get(w)!))).toBeGreaterThan(DEFAULT_LLM_EVIDENCE_POLICY.confidence);
  });

  describe('with LLM users and workers who answer "no" to everything in one batch', () => {
    const options = { careful: spread(14, 0.8, 0.95), llm: 4, llmAccuracy: 0.8, alwaysNo: 3 };
    // two LLM users leave page events; the one-button workers click fast
    const side = new Map([
      ['L0', 1000],
      ['L1', 1000],
      ...['N0', 'N1', 'N2'].map((w) => [w, DEFAULT_LLM_EVIDENCE_POLICY.maxSpeedFactor] as [string, number]),
    ]);
    const llm = ['L0', 'L1', 'L2', 'L3'];
    const oneButton = ['N0', 'N1', 'N2'];

    it('finds the LLM users who leave page events and clears the one-button workers', () => {
      const fit = sharedErrorFactors(batch('x4', options), side);
      for (const w of ['L0', 'L1']) expect(fit.posteriors.get(w)!).toBeGreaterThan(DEFAULT_LLM_EVIDENCE_POLICY.confidence);
      for (const w of ['L2', 'L3']) expect(fit.factors.get(w)!).toBeGreaterThan(1);
      for (const w of oneButton) expect(fit.posteriors.get(w)!).toBeLessThan(0.5);
    });

    it('clears the one-button workers whom, without workers who do not read, the fit flagged', () => {
      const votes = batch('x3', options);
      const fit = sharedErrorFactors(votes, side);
      const without = sharedErrorFactors(votes, side, { ...DEFAULT_LLM_EVIDENCE_POLICY, priorNotReading: 0 });
      for (const w of oneButton) expect(without.posteriors.get(w)!).toBeGreaterThan(DEFAULT_LLM_EVIDENCE_POLICY.confidence);
      for (const w of oneButton) expect(fit.posteriors.get(w)!).toBeLessThan(0.5);
      // and the LLM users keep what they had (the two without events are not found on this batch: a stated limit)
      for (const w of llm) expect(fit.posteriors.get(w)!).toBeGreaterThanOrEqual(without.posteriors.get(w)! - 0.01);
    });
  });

  it('is deterministic whatever the order of the votes, and counts a worker once per item', () => {
    const votes = batch('order', { careful: spread(10, 0.8, 0.95), llm: 3, llmAccuracy: 0.75, items: 80 });
    const a = sharedErrorFactors(votes);
    const b = sharedErrorFactors([...votes].reverse().concat(votes));
    for (const [w, p] of a.posteriors) expect(b.posteriors.get(w)!).toBeCloseTo(p, 9);
  });

  it('returns nothing for no votes', () => {
    const fit = sharedErrorFactors([]);
    expect(fit.posteriors.size).toBe(0);
    expect(fit.factors.size).toBe(0);
  });
});
