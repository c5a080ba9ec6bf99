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

  it('counts the workers of one shared source once per item, with their majority', () => {
    // three copiers giving one 0.7 answer against one careful 0.9 worker: as three independent
    // people they outweigh them (log odds 3 × 0.85 = 2.54 against 2.20), as one source they do not
    const three: BayesVote[] = [
      { item: 'x', worker: 'c1', answer: 'yes' },
      { item: 'x', worker: 'c2', answer: 'yes' },
      { item: 'x', worker: 'c3', answer: 'yes' },
      { item: 'x', worker: 'careful', answer: 'no' },
    ];
    const accuracy = new Map([
      ['c1', acc(0.7)],
      ['c2', acc(0.7)],
      ['c3', acc(0.7)],
      ['careful', acc(0.9)],
    ]);
    expect(bayesOptimalLabels({ votes: three, accuracy, truth: new Map() }).labels.get('x')).toBe('yes');
    const sources = new Map([
      ['c1', 'pair'],
      ['c2', 'pair'],
      ['c3', 'pair'],
    ]);
    expect(bayesOptimalLabels({ votes: three, accuracy, truth: new Map(), sources }).labels.get('x')).toBe('no');
    // a source whose members split says nothing: the careful worker decides
    const split: BayesVote[] = [
      { item: 'y', worker: 'c1', answer: 'yes' },
      { item: 'y', worker: 'c2', answer: 'no' },
      { item: 'y', worker: 'careful', answer: 'yes' },
    ];
    expect(bayesOptimalLabels({ votes: split, accuracy, truth: new Map(), sources }).labels.get('y')).toBe('yes');
    // and an item with nothing but a split source is a tie: "no"
    const alone = split.slice(0, 2);
    expect(bayesOptimalLabels({ votes: alone, accuracy, truth: new Map(), sources }).labels).toEqual(new Map([['y', 'no']]));
  });

  it('estimates a shared source’s unknown accuracy from all its members’ answers, each item left out of its own weight', () => {
    // two LLM users giving one LLM's verdicts: right on 6 of 8 relevant and 6 of 8 not relevant items
    const truth = new Map<string, Judgment>();
    const votes: BayesVote[] = [];
    for (let i = 0; i < 16; i++) {
      const t: Judgment = i < 8 ? 'yes' : 'no';
      truth.set(`i${i}`, t);
      const wrong = i % 8 >= 6;
      const answer: Judgment = wrong ? (t === 'yes' ? 'no' : 'yes') : t;
      votes.push({ item: `i${i}`, worker: i % 2 === 0 ? 'u1' : 'u2', answer });
    }
    const accuracy = new Map<string, ClassAccuracy | null>([
      ['u1', null],
      ['u2', null],
    ]);
    const r = bayesOptimalLabels({ votes, accuracy, truth, sources: new Map([...accuracy.keys()].map((w) => [w, 'llm'])) });
    expect(r.estimated).toEqual(['u1', 'u2']);
    expect(r.accuracy.get('u1')).toEqual({ relevant: 7 / 10, notRelevant: 7 / 10 });
    expect(r.accuracy.get('u2')).toEqual(r.accuracy.get('u1'));
    // better than a coin, so followed, also where wrong: the truth of an item does not weigh its own vote
    for (const v of votes) expect(r.labels.get(v.item)).toBe(v.answer);
  });

  it('never weighs a vote by its own item’s truth: a worker with one answer says nothing', () => {
    const truth = new Map<string, Judgment>([['x', 'yes']]);
    const votes: BayesVote[] = [{ item: 'x', worker: 'once', answer: 'yes' }];
    // in-sample, one right answer would make 2/3 and a "yes"; left out, it is Laplace's ½: a tie, "no"
    const r = bayesOptimalLabels({ votes, accuracy: new Map([['once', null]]), truth });
    expect(r.labels.get('x')).toBe('no');
    expect(r.accuracy.get('once')).toEqual({ relevant: 2 / 3, notRelevant: 1 / 2 });
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
