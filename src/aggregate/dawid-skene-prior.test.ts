import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { labelsByItem } from './aggregator.js';
import { dawidSkene, type ConfusionCounts } from './dawid-skene.js';
import type { Vote } from './votes.js';

const yn = ['yes', 'no'] as const;
type YN = (typeof yn)[number];

/** 24 items; three careful workers (one error each) and a worker who answers the opposite of the truth on a third of the items. */
function crowd(): { votes: Vote<YN>[]; truth: Map<string, YN> } {
  const truth = new Map<string, YN>();
  const votes: Vote<YN>[] = [];
  const flip = (t: YN): YN => (t === 'yes' ? 'no' : 'yes');
  for (let i = 0; i < 24; i++) {
    const item = `i${String(i).padStart(2, '0')}`;
    const t: YN = i % 2 === 0 ? 'yes' : 'no';
    truth.set(item, t);
    for (let w = 0; w < 3; w++) votes.push({ item, worker: `careful${w}`, label: i === w * 5 + 2 ? flip(t) : t });
    votes.push({ item, worker: 'odd', label: i % 3 === 0 ? flip(t) : t });
  }
  return { votes, truth };
}

const uniform = (mass: number): ConfusionCounts<YN> => ({ yes: { yes: mass, no: mass }, no: { yes: mass, no: mass } });

describe('Dawid–Skene with a prior on the workers’ confusion matrices', () => {
  it('is maximum likelihood with zero pseudo-counts', () => {
    const { votes } = crowd();
    const plain = dawidSkene<YN>().fit(votes, yn);
    const zero = dawidSkene<YN>({ confusionPrior: { default: uniform(0) } }).fit(votes, yn);
    expect(labelsByItem(zero)).toEqual(labelsByItem(plain));
    zero.items.forEach((it, n) => expect(it.probabilities.yes).toBeCloseTo(plain.items[n]!.probabilities.yes, 8));
  });

  it('gives no weight to a worker whose prior says their answers ignore the truth', () => {
    const { votes } = crowd();
    const without = dawidSkene<YN>().fit(
      votes.filter((v) => v.worker !== 'odd'),
      yn,
    );
    const muted = dawidSkene<YN>({ confusionPrior: { workers: { odd: uniform(1e6) } } }).fit(votes, yn);
    const odd = muted.workers.find((w) => w.worker === 'odd')!;
    expect(odd.confusion.yes.yes).toBeCloseTo(odd.confusion.no.yes, 4);
    muted.items.forEach((it, n) => expect(it.probabilities.yes).toBeCloseTo(without.items[n]!.probabilities.yes, 3));
  });

  it('pulls a worker with little data towards the prior, and the data win as they grow', () => {
    const trusted: ConfusionCounts<YN> = { yes: { yes: 8, no: 2 }, no: { yes: 2, no: 8 } };
    const few: Vote<YN>[] = [
      { item: 'a', worker: 'new', label: 'yes' },
      { item: 'a', worker: 'w1', label: 'no' },
      { item: 'a', worker: 'w2', label: 'no' },
    ];
    const result = dawidSkene<YN>({ confusionPrior: { default: trusted } }).fit(few, yn);
    // one vote against two: maximum likelihood would put this worker's accuracy at 0; the prior keeps it near 0.8
    expect(result.workers.find((w) => w.worker === 'new')!.confusion.no.no).toBeGreaterThan(0.6);
  });

  it('never lowers the log-posterior from one iteration to the next', () => {
    const { votes } = crowd();
    const prior = { default: { yes: { yes: 3, no: 1 }, no: { yes: 1, no: 3 } } };
    const values = [1, 2, 3, 5, 8, 13, 21].map(
      (n) => dawidSkene<YN>({ maxIterations: n, tolerance: 0, confusionPrior: prior }).fit(votes, yn).logLikelihood!,
    );
    for (let n = 1; n < values.length; n++) expect(values[n]!).toBeGreaterThanOrEqual(values[n - 1]! - 1e-12);
  });

  it('recovers the truth with gold items and a mild prior', () => {
    const { votes, truth } = crowd();
    const result = dawidSkene<YN>({
      gold: { i00: 'yes', i01: 'no' },
      confusionPrior: { default: { yes: { yes: 2, no: 1 }, no: { yes: 1, no: 2 } } },
    }).fit(votes, yn);
    expect(labelsByItem(result)).toEqual(truth);
  });

  it('names a bad pseudo-count', () => {
    const bad = { yes: { yes: 1, no: -1 }, no: { yes: 1, no: 1 } };
    expect(() => dawidSkene<YN>({ confusionPrior: { workers: { w: bad } } }).fit(crowd().votes, yn)).toThrow(
      'DawidSkene confusionPrior.workers["w"]["yes"]["no"]: -1 is not a finite number >= 0',
    );
    const missing = { yes: { yes: 1 } } as unknown as ConfusionCounts<YN>;
    expect(() => dawidSkene<YN>({ confusionPrior: { default: missing } }).fit([], yn)).toThrow(UserError);
  });
});
