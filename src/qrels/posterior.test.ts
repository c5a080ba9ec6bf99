import { describe, expect, it } from 'vitest';
import type { QrelsEntry } from './merge.js';
import { qrelsLines } from './write.js';
import {
  ADJUDICATOR_CONFIDENCE,
  agreementError,
  CONSENSUS_CONFIDENCE,
  goldErrorBound,
  majorityError,
  oneCoinPosterior,
  pairKey,
  posteriorOf,
  withPosteriors,
  type PosteriorModel,
} from './posterior.js';

const entry = (over: Partial<QrelsEntry>): QrelsEntry => ({
  query_id: 'q1',
  doc_id: 'd1',
  rel: 1,
  source: 'base',
  base_rel: 1,
  votes: null,
  workers: null,
  batch: null,
  dataset: null,
  ...over,
});

const model = (crowd: Array<[string, string, number]> = [], voteError = 0.1): PosteriorModel => ({
  crowd: new Map(crowd.map(([q, d, p]) => [pairKey(q, d), p])),
  voteError,
});

describe('goldErrorBound', () => {
  it('is ½ without checks and above the observed rate with them', () => {
    expect(goldErrorBound(0, 0)).toBe(0.5);
    expect(goldErrorBound(0, 100)).toBeGreaterThan(0);
    expect(goldErrorBound(0, 100)).toBeLessThan(0.03);
    expect(goldErrorBound(10, 100)).toBeGreaterThan(0.1);
    expect(goldErrorBound(10, 100)).toBeLessThan(0.17);
  });
  it('narrows with more checks at the same rate', () => {
    expect(goldErrorBound(100, 1000)).toBeLessThan(goldErrorBound(10, 100));
  });
  it('refuses counts that are not counts', () => {
    expect(() => goldErrorBound(3, 2)).toThrow(/3 wrong of 2 checks/);
    expect(() => goldErrorBound(-1, 2)).toThrow(/not a count/);
  });
});

describe('majorityError', () => {
  it('is the binomial tail of a majority of 3', () => {
    expect(majorityError(0.1, 3)).toBeCloseTo(3 * 0.01 * 0.9 + 0.001, 12);
    expect(majorityError(0.1, 1)).toBeCloseTo(0.1, 12);
  });
  it('counts a tie as half wrong, and ½ without votes', () => {
    expect(majorityError(0.1, 2)).toBeCloseTo(0.01 + 0.09, 12);
    expect(majorityError(0.2, 0)).toBe(0.5);
  });
});

describe('agreementError', () => {
  it('inverts the agreement of two votes, (1 − e)² + e²', () => {
    expect(agreementError([{ yes: 3, no: 0 }])).toBe(0);
    // 2-1: one agreeing pair of three, a = 1/3 < ½: no better than chance
    expect(agreementError([{ yes: 2, no: 1 }])).toBe(0.5);
    // a = 0.82 -> e = 0.1
    const e = 0.1;
    const a = (1 - e) ** 2 + e ** 2;
    const items = [
      ...Array<{ yes: number; no: number }>(Math.round(a * 100)).fill({ yes: 2, no: 0 }),
      ...Array<{ yes: number; no: number }>(100 - Math.round(a * 100)).fill({ yes: 1, no: 1 }),
    ];
    expect(agreementError(items)).toBeCloseTo(e, 12);
  });
  it('is ½ without an item of two votes', () => {
    expect(agreementError([{ yes: 1, no: 0 }])).toBe(0.5);
    expect(agreementError([])).toBe(0.5);
  });
});

describe('oneCoinPosterior', () => {
  it('follows the vote margin', () => {
    expect(oneCoinPosterior(2, 1, 0.2)).toBeCloseTo(0.8, 12);
    expect(oneCoinPosterior(1, 2, 0.2)).toBeCloseTo(0.2, 12);
    expect(oneCoinPosterior(3, 0, 0.2)).toBeCloseTo(64 / 65, 12);
    expect(oneCoinPosterior(1, 1, 0.2)).toBe(0.5);
  });
  it('is certain for perfect workers and ½ for useless ones', () => {
    expect(oneCoinPosterior(2, 1, 0)).toBe(1);
    expect(oneCoinPosterior(2, 1, 0.5)).toBe(0.5);
  });
});

describe('posteriorOf', () => {
  it('is 1 or 0 for base judgments and manual decisions', () => {
    expect(posteriorOf(entry({ rel: 2 }), model())).toBe(1);
    expect(posteriorOf(entry({ rel: 0 }), model())).toBe(0);
    expect(posteriorOf(entry({ rel: -1 }), model())).toBe(0);
    expect(posteriorOf(entry({ rel: 1, source: 'manual', votes: { yes: 0, no: 3 } }), model())).toBe(1);
  });
  it('states the confidence of consensus and adjudicated labels', () => {
    expect(posteriorOf(entry({ rel: 1, source: 'dream-consensus' }), model())).toBe(CONSENSUS_CONFIDENCE);
    expect(posteriorOf(entry({ rel: 0, source: 'dream-consensus' }), model())).toBeCloseTo(1 - CONSENSUS_CONFIDENCE, 12);
    expect(posteriorOf(entry({ rel: 0, source: 'llm-adjudicator' }), model())).toBeCloseTo(1 - ADJUDICATOR_CONFIDENCE, 12);
  });
  it("takes the aggregator's posterior of a crowd label, floored by the gold error of its votes", () => {
    const crowd = entry({ rel: 1, source: 'human-majority', votes: { yes: 2, no: 1 } });
    expect(posteriorOf(crowd, model([['q1', 'd1', 0.7]]))).toBe(0.7);
    const floor = majorityError(0.1, 3);
    expect(posteriorOf(crowd, model([['q1', 'd1', 0.9999]]))).toBeCloseTo(1 - floor, 12);
    expect(posteriorOf({ ...crowd, source: 'human-dawid-skene' }, model([['q1', 'd1', 1e-6]]))).toBeCloseTo(floor, 12);
  });
  it('keeps a crowd label at least the forecast’s label error from certainty', () => {
    const crowd = entry({ rel: 1, source: 'human-majority', votes: { yes: 3, no: 0 } });
    expect(posteriorOf(crowd, { ...model([['q1', 'd1', 0.999]], 0.01), labelError: 0.09 })).toBeCloseTo(0.91, 12);
    expect(posteriorOf(crowd, { ...model([['q1', 'd1', 0.999]], 0.01), labelError: 0.9 })).toBe(0.5);
  });
  it('falls back to the one-coin posterior of the votes without one', () => {
    const crowd = entry({ rel: 1, source: 'human-majority', votes: { yes: 2, no: 1 } });
    expect(posteriorOf(crowd, model([], 0.2))).toBeCloseTo(0.8, 12);
  });
});

describe('withPosteriors', () => {
  it('adds p_relevant to every entry and keeps the rest', () => {
    const out = withPosteriors([entry({ rel: 1 }), entry({ doc_id: 'd2', rel: 0 })], model());
    expect(out.map((e) => [e.doc_id, e.p_relevant])).toEqual([
      ['d1', 1],
      ['d2', 0],
    ]);
  });
});

describe('writing p_relevant', () => {
  const entries = withPosteriors([entry({ rel: 1, source: 'dream-consensus' })], model());
  it('adds it to JSONL records only', () => {
    expect(JSON.parse([...qrelsLines(entries, 'jsonl')][0]!)).toMatchObject({ doc_id: 'd1', p_relevant: CONSENSUS_CONFIDENCE });
    expect([...qrelsLines(entries, 'trec')]).toEqual(['q1 0 d1 1']);
    expect([...qrelsLines(entries, 'beir')]).toEqual(['query-id\tcorpus-id\tscore', 'q1\td1\t1']);
  });
  it('leaves records without it as they were', () => {
    expect(JSON.parse([...qrelsLines([entry({})], 'jsonl')][0]!)).not.toHaveProperty('p_relevant');
  });
});
