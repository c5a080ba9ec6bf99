import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { seededRng } from '../hits/random.js';
import { balancedAccuracy } from './accuracy.js';
import { bayesOptimalLabels, type BayesVote, type ClassAccuracy } from './bayes-optimal.js';

const acc = (relevant: number, notRelevant = relevant): ClassAccuracy => ({ relevant, notRelevant });

describe('the Bayes-optimal decision from the votes', () => {
  it('follows the more accurate worker against two weaker ones', () => {
    const votes: BayesVote[] = [
      { item: 'x', worker: 'expert', answer: 'yes' },
      { item: 'x', worker: 'weak1', answer: 'no' },
      { item: 'x', worker: 'weak2', answer: 'no' },
    ];
    const accuracy = new Map([
      ['expert', acc(0.99)],
      ['weak1', acc(0.6)],
      ['weak2', acc(0.6)],
    ]);
    expect(bayesOptimalLabels({ votes, accuracy, truth: new Map() }).labels.get('x')).toBe('yes');
    // with three equal workers it is the majority
    const equal = new Map([...accuracy.keys()].map((w) => [w, acc(0.8)]));
    expect(bayesOptimalLabels({ votes, accuracy: equal, truth: new Map() }).labels.get('x')).toBe('no');
  });

  it('gives an always-yes worker’s votes no weight, and a tie of no information goes to no', () => {
    const accuracy = new Map([
      ['yes', acc(1, 0)],
      ['good', acc(0.9)],
    ]);
    const votes: BayesVote[] = [
      { item: 'a', worker: 'yes', answer: 'yes' },
      { item: 'a', worker: 'good', answer: 'no' },
      { item: 'b', worker: 'yes', answer: 'yes' },
    ];
    const { labels } = bayesOptimalLabels({ votes, accuracy, truth: new Map() });
    expect(labels).toEqual(
      new Map<string, Judgment>([
        ['a', 'no'],
        ['b', 'no'],
      ]),
    );
  });

  it('weighs the classes by the prior when given one', () => {
    const votes: BayesVote[] = [{ item: 'x', worker: 'w', answer: 'yes' }];
    const accuracy = new Map([['w', acc(0.6)]]);
    expect(bayesOptimalLabels({ votes, accuracy, truth: new Map() }).labels.get('x')).toBe('yes');
    expect(bayesOptimalLabels({ votes, accuracy, truth: new Map(), prior: 0.2 }).labels.get('x')).toBe('no');
  });

  it('estimates an unknown accuracy from the truth, and uses a worker who is reliably wrong', () => {
    const truth = new Map<string, Judgment>();
    const votes: BayesVote[] = [];
    for (let i = 0; i < 20; i++) {
      const t: Judgment = i % 2 === 0 ? 'yes' : 'no';
      truth.set(`i${i}`, t);
      votes.push({ item: `i${i}`, worker: 'contrarian', answer: t === 'yes' ? 'no' : 'yes' });
    }
    const r = bayesOptimalLabels({ votes, accuracy: new Map([['contrarian', null]]), truth });
    expect(r.estimated).toEqual(['contrarian']);
    expect(r.accuracy.get('contrarian')).toEqual({ relevant: 1 / 12, notRelevant: 1 / 12 });
    expect([...r.labels]).toEqual([...truth]);
  });

  it('beats the plain majority in balanced accuracy on a mixed crowd', () => {
    const seeded = seededRng('bayes-optimal-test');
    const random = () => seeded.next();
    const workers: [string, ClassAccuracy][] = [
      ['d1', acc(0.9, 0.85)],
      ['d2', acc(0.85, 0.9)],
      ['d3', acc(0.8)],
      ['spam', acc(0.5)],
      ['yes', acc(1, 0)],
      ['no', acc(0, 1)],
    ];
    const truth = new Map<string, Judgment>();
    const votes: BayesVote[] = [];
    for (let i = 0; i < 2000; i++) {
      const t: Judgment = random() < 0.35 ? 'yes' : 'no';
      truth.set(`i${i}`, t);
      const chosen = [...workers].sort(() => random() - 0.5).slice(0, 3);
      for (const [worker, a] of chosen) {
        const right = random() < (t === 'yes' ? a.relevant : a.notRelevant);
        votes.push({ item: `i${i}`, worker, answer: right ? t : t === 'yes' ? 'no' : 'yes' });
      }
    }
    const optimal = bayesOptimalLabels({ votes, accuracy: new Map(workers), truth }).labels;
    const majority = new Map<string, Judgment>();
    for (const item of truth.keys()) {
      const yes = votes.filter((v) => v.item === item && v.answer === 'yes').length;
      majority.set(item, yes >= 2 ? 'yes' : 'no');
    }
    const ba = (labels: Map<string, Judgment>) => balancedAccuracy(labels, truth, ['yes', 'no']).value!;
    expect(ba(optimal)).toBeGreaterThan(ba(majority) + 0.02);
  });

  it('names bad input', () => {
    const votes: BayesVote[] = [{ item: 'x', worker: 'w', answer: 'yes' }];
    expect(() => bayesOptimalLabels({ votes, accuracy: new Map(), truth: new Map() })).toThrow(
      'votes[0].worker: "w" has no entry in accuracy; give every voter\'s true accuracy (or null)',
    );
    expect(() => bayesOptimalLabels({ votes, accuracy: new Map([['w', acc(1.5)]]), truth: new Map() })).toThrow(
      'accuracy["w"].relevant: 1.5 is not a probability',
    );
    expect(() => bayesOptimalLabels({ votes, accuracy: new Map([['w', acc(0.8)]]), truth: new Map(), prior: 1 })).toThrow(
      'bayesOptimalLabels prior: 1 is not between 0 and 1',
    );
  });
});
