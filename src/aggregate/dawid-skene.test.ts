import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { labelsByItem } from './aggregator.js';
import { DAWID_SKENE_DEFAULTS, dawidSkene } from './dawid-skene.js';
import { majorityVote } from './majority-vote.js';
import type { Vote } from './votes.js';

const yn = ['yes', 'no'] as const;
type YN = (typeof yn)[number];

/** 30 items, truth alternating; 4 careful workers (1 error each) and one who always says yes. */
function crowd(): { votes: Vote<YN>[]; truth: Map<string, YN> } {
  const truth = new Map<string, YN>();
  const votes: Vote<YN>[] = [];
  for (let i = 0; i < 30; i++) {
    const item = `i${String(i).padStart(2, '0')}`;
    const t: YN = i % 3 === 0 ? 'yes' : 'no';
    truth.set(item, t);
    for (let w = 0; w < 4; w++) {
      const wrong = i === w * 7 + 1;
      votes.push({ item, worker: `careful${w}`, label: wrong ? (t === 'yes' ? 'no' : 'yes') : t });
    }
    votes.push({ item, worker: 'always-yes', label: 'yes' });
  }
  return { votes, truth };
}

function sumsToOne(values: Record<string, number>): void {
  expect(Object.values(values).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
}

describe('Dawid–Skene', () => {
  it('recovers the truth and sees through an always-yes worker', () => {
    const { votes, truth } = crowd();
    const result = dawidSkene<YN>().fit(votes, yn);
    expect(labelsByItem(result)).toEqual(truth);
    expect(result.converged).toBe(true);
    expect(result.iterations).toBeLessThan(DAWID_SKENE_DEFAULTS.maxIterations);
    const spammer = result.workers.find((w) => w.worker === 'always-yes')!;
    expect(spammer.confusion).toEqual({ yes: { yes: 1, no: 0 }, no: { yes: 1, no: 0 } });
    expect(spammer.votes).toBe(30);
    // an always-yes worker is right exactly as often as the answer is yes
    expect(spammer.accuracy).toBeCloseTo(result.priors.yes, 6);
    const careful = result.workers.find((w) => w.worker === 'careful0')!;
    expect(careful.accuracy).toBeGreaterThan(0.9);
    expect(result.priors.yes).toBeCloseTo(10 / 30, 3);
  });

  it('returns posteriors, priors and confusion rows that are probability distributions', () => {
    const result = dawidSkene<YN>().fit(crowd().votes, yn);
    for (const it of result.items) sumsToOne(it.probabilities);
    sumsToOne(result.priors);
    for (const w of result.workers) for (const truth of yn) sumsToOne(w.confusion[truth]);
  });

  it('reports raw vote counts next to the posteriors', () => {
    const result = dawidSkene<YN>().fit(crowd().votes, yn);
    expect(result.items[0]).toMatchObject({ item: 'i00', votes: 5, counts: { yes: 5, no: 0 } });
  });

  it('starts from majority vote: with no iterations the posteriors are the vote shares', () => {
    const { votes } = crowd();
    const ds = dawidSkene<YN>({ maxIterations: 0 }).fit(votes, yn);
    const mv = majorityVote<YN>().fit(votes, yn);
    expect(ds.iterations).toBe(0);
    expect(ds.logLikelihood).toBeNull();
    expect(ds.items.map((it) => it.probabilities)).toEqual(mv.items.map((it) => it.probabilities));
  });

  it('runs exactly maxIterations with tolerance 0', () => {
    const result = dawidSkene<YN>({ maxIterations: 7, tolerance: 0 }).fit(crowd().votes, yn);
    expect(result).toMatchObject({ iterations: 7, converged: false });
    expect(result.logLikelihood).toBeLessThan(0);
  });

  it('never lowers the log-likelihood from one iteration to the next', () => {
    const { votes } = crowd();
    const lls = [1, 2, 3, 5, 8, 13].map((n) => dawidSkene<YN>({ maxIterations: n, tolerance: 0 }).fit(votes, yn).logLikelihood!);
    for (let n = 1; n < lls.length; n++) expect(lls[n]!).toBeGreaterThanOrEqual(lls[n - 1]! - 1e-12);
  });

  it('is deterministic and independent of the vote order', () => {
    const { votes } = crowd();
    const shuffled = votes
      .map((v, n) => ({ v, key: (n * 7919) % votes.length }))
      .sort((a, b) => a.key - b.key)
      .map((x) => x.v);
    const a = dawidSkene<YN>().fit(votes, yn);
    expect(dawidSkene<YN>().fit(shuffled, yn)).toEqual(a);
    expect(dawidSkene<YN>().fit(votes, yn)).toEqual(a);
  });

  it('holds gold items at their known label', () => {
    const votes: Vote<YN>[] = [
      { item: 'check', worker: 'a', label: 'no' },
      { item: 'check', worker: 'b', label: 'no' },
      { item: 'real', worker: 'a', label: 'no' },
      { item: 'real', worker: 'b', label: 'yes' },
    ];
    const result = dawidSkene<YN>({ gold: { check: 'yes', 'not-voted': 'no' } }).fit(votes, yn);
    expect(result.items.find((it) => it.item === 'check')).toMatchObject({ label: 'yes', probabilities: { yes: 1, no: 0 } });
    expect(result.items.map((it) => it.item)).toEqual(['check', 'real']);
  });

  it('leaves a posterior tie unresolved by default, or applies the tie policy', () => {
    // two symmetric workers disagreeing on a single item: nothing can tell them apart
    const votes: Vote<YN>[] = [
      { item: 'x', worker: 'a', label: 'yes' },
      { item: 'x', worker: 'b', label: 'no' },
    ];
    const open = dawidSkene<YN>().fit(votes, yn);
    expect(open.items[0]).toMatchObject({ label: null, decidedBy: 'unresolved', tie: ['yes', 'no'] });
    expect(open.unresolved).toBe(1);
    const closed = dawidSkene<YN>({ tiePolicy: { kind: 'fallback', label: 'no' } }).fit(votes, yn);
    expect(closed.items[0]).toMatchObject({ label: 'no', decidedBy: 'tie-fallback' });
  });

  it('agrees with itself when all workers agree', () => {
    const votes: Vote<YN>[] = ['a', 'b', 'c'].flatMap((worker) => [
      { item: 'x', worker, label: 'yes' as const },
      { item: 'y', worker, label: 'no' as const },
    ]);
    const result = dawidSkene<YN>().fit(votes, yn);
    expect(labelsByItem(result)).toEqual(
      new Map([
        ['x', 'yes'],
        ['y', 'no'],
      ]),
    );
    expect(result.items[0]!.probabilities.yes).toBeCloseTo(1, 9);
    for (const w of result.workers) expect(w.accuracy).toBeCloseTo(1, 9);
  });

  it('copes with a single category', () => {
    const votes: Vote<'yes'>[] = [
      { item: 'x', worker: 'a', label: 'yes' },
      { item: 'y', worker: 'b', label: 'yes' },
    ];
    const result = dawidSkene<'yes'>().fit(votes, ['yes']);
    expect(result.items.map((it) => [it.label, it.probabilities.yes])).toEqual([
      ['yes', 1],
      ['yes', 1],
    ]);
    expect(result.priors).toEqual({ yes: 1 });
  });

  it('gives a category nobody chose a posterior of (almost) zero', () => {
    const three = ['yes', 'no', 'unsure'] as const;
    const result = dawidSkene<(typeof three)[number]>().fit(crowd().votes, three);
    for (const it of result.items) expect(it.probabilities.unsure).toBeLessThan(1e-9);
    expect(result.priors.unsure).toBeLessThan(1e-9);
    expect(result.unresolved).toBe(0);
  });

  it('labels a one-rater item by that rater', () => {
    const result = dawidSkene<YN>().fit([{ item: 'x', worker: 'a', label: 'no' }], yn);
    expect(result.items[0]?.label).toBe('no');
  });

  it('handles many categories', () => {
    const categories = Array.from({ length: 8 }, (_, n) => `c${n}`);
    const votes: Vote[] = [];
    for (let i = 0; i < 40; i++) {
      for (let w = 0; w < 3; w++) votes.push({ item: `i${i}`, worker: `w${w}`, label: `c${(i + (w === 2 && i % 5 === 0 ? 1 : 0)) % 8}` });
    }
    const result = dawidSkene<string>().fit(votes, categories);
    for (let i = 0; i < 40; i++) expect(labelsByItem(result).get(`i${i}`)).toBe(`c${i % 8}`);
    for (const w of result.workers) for (const c of categories) sumsToOne(w.confusion[c]!);
  });

  it('returns an empty, JSON-serialisable result for no votes', () => {
    const result = dawidSkene<YN>().fit([], yn);
    expect(result).toEqual({
      aggregator: 'DawidSkene',
      categories: ['yes', 'no'],
      items: [],
      unresolved: 0,
      priors: { yes: 0.5, no: 0.5 },
      workers: [],
      iterations: 0,
      converged: true,
      logLikelihood: null,
    });
    expect(JSON.parse(JSON.stringify(dawidSkene<YN>().fit(crowd().votes, yn)))).toEqual(dawidSkene<YN>().fit(crowd().votes, yn));
  });

  it('refuses bad options and gold labels with a clear message', () => {
    expect(() => dawidSkene({ maxIterations: -1 })).toThrow(UserError);
    expect(() => dawidSkene({ maxIterations: 1.5 })).toThrow('DawidSkene maxIterations: 1.5 is not a whole number >= 0');
    expect(() => dawidSkene({ tolerance: Number.NaN })).toThrow('DawidSkene tolerance: null is not a finite number >= 0');
    expect(() => dawidSkene({ tolerance: -1 })).toThrow('DawidSkene tolerance: -1');
    const gold = { x: 'maybe' } as unknown as Record<string, YN>;
    expect(() => dawidSkene<YN>({ gold }).fit([], yn)).toThrow('DawidSkene gold["x"]: "maybe" is not one of the categories ["yes","no"]');
  });
});
