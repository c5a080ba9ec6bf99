import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { scoreAssignments } from './counted-votes.js';
import type { AssignmentRecord, HitRecord } from './types.js';
import type { WorkerEvidence, WorkerVerdict } from './worker-verdict.js';
import { copyingPairs, itemAnswers, partnersOf, reliabilities, weightedReferences } from './worker-model.js';

const answersOf = (rows: Record<string, Record<string, Judgment>>) =>
  new Map(Object.entries(rows).map(([item, byWorker]) => [item, new Map(Object.entries(byWorker))]));

describe('itemAnswers', () => {
  it('keeps each worker’s first answer on real items, without excluded workers, excluded assignments and checks', () => {
    const hits: HitRecord[] = [{ hitId: 'H', items: ['i1', 'i2'], checks: [{ item: 'g', expected: 'yes' }] }];
    const a = (id: string, worker: string, labels: Judgment[], more: Partial<AssignmentRecord> = {}): AssignmentRecord => ({
      assignmentId: id,
      hitId: 'H',
      worker,
      status: 'submitted',
      answers: [
        { item: 'i1', label: labels[0]! },
        { item: 'i2', label: labels[1]! },
        { item: 'g', label: labels[2]! },
      ],
      ...more,
    });
    const scored = scoreAssignments(
      [
        a('A1', 'w1', ['yes', 'no', 'yes']),
        a('A2', 'w1', ['no', 'yes', 'yes']),
        a('A3', 'w2', ['no', 'no', 'no']),
        a('A4', 'w3', ['yes', 'yes', 'yes'], { overridden: 'excluded' }),
        a('A5', 'w4', ['yes', 'yes', 'yes']),
      ],
      hits,
    );
    const byItem = itemAnswers(scored, new Set(['w4']));
    expect(Object.fromEntries([...byItem].map(([item, m]) => [item, Object.fromEntries(m)]))).toEqual({
      i1: { w1: 'yes', w2: 'no' },
      i2: { w1: 'no', w2: 'no' },
    });
  });
});

describe('weightedReferences', () => {
  const answers = answersOf({
    i1: { a: 'yes', b: 'yes', c: 'no' },
    i2: { a: 'yes', b: 'no' },
    i3: { a: 'yes' },
  });

  it('is the others’ majority without estimates, the worker’s own vote left out, ties giving none', () => {
    const ref = weightedReferences(answers);
    expect(ref('i1', 'c')).toBe('yes');
    expect(ref('i1', 'a')).toBeNull(); // b yes, c no
    expect(ref('i2', 'a')).toBe('no');
    expect(ref('i3', 'a')).toBeNull(); // nobody else
    expect(ref('i3', 'z')).toBe('yes');
    expect(ref('unknown', 'a')).toBeNull();
  });

  it('weighs each vote by the worker’s accuracy: one careful worker outweighs two doubtful ones', () => {
    const ref = weightedReferences(
      answersOf({ i: { careful: 'no', d1: 'yes', d2: 'yes', judged: 'yes' } }),
      new Map([
        ['careful', 0.95],
        ['d1', 0.6],
        ['d2', 0.6],
      ]),
    );
    // logit 0.95 = 2.94 > 2 × logit 0.6 = 0.81, and the posterior 0.89 ≥ 0.75
    expect(ref('i', 'judged')).toBe('no');
  });

  it('gives no reference where the posterior is below 75%: one doubtful worker alone, two careful ones who disagree', () => {
    const accuracy = new Map([
      ['doubtful', 0.7],
      ['c1', 0.93],
      ['c2', 0.9],
    ]);
    const ref = weightedReferences(answersOf({ i: { doubtful: 'yes' }, j: { c1: 'yes', c2: 'no' } }), accuracy);
    expect(ref('i', 'judged')).toBeNull();
    expect(ref('j', 'judged')).toBeNull();
  });

  it('leaves a worker’s copy partners out of their reference only', () => {
    const ref = weightedReferences(answers, new Map(), new Map([['c', new Set(['b'])]]));
    expect(ref('i1', 'c')).toBe('yes'); // a alone
    expect(ref('i2', 'a')).toBe('no'); // others keep b
    const refA = weightedReferences(answers, new Map(), new Map([['a', new Set(['b'])]]));
    expect(refA('i1', 'a')).toBe('no'); // c alone
  });

  it('counts a copying pair as one vote in everyone else’s reference', () => {
    const pair = new Map([
      ['p1', new Set(['p2'])],
      ['p2', new Set(['p1'])],
    ]);
    const item = answersOf({ i: { p1: 'yes', p2: 'yes', h: 'no' } });
    // without the pair known, two yes outvote one no
    expect(weightedReferences(item)('i', 'judged')).toBe('yes');
    // as one source, one yes against one no: no reference
    expect(weightedReferences(item, new Map(), pair)('i', 'judged')).toBeNull();
  });
});

describe('reliabilities', () => {
  it('is the right-answer rate under the batch prior, mixed with a coin by P(not doing the task)', () => {
    const evidence = new Map<string, WorkerEvidence>([
      [
        'w',
        {
          checks: [
            { expected: 'yes', answer: 'yes' },
            { expected: 'no', answer: 'yes' },
          ],
          compared: Array.from({ length: 8 }, (_, i) => ({ reference: 'yes' as Judgment, answer: (i < 7 ? 'yes' : 'no') as Judgment })),
        },
      ],
      ['new', { checks: [], compared: [] }],
    ]);
    const verdict = (p: number) => ({ probabilityNotWorking: p }) as WorkerVerdict;
    const out = reliabilities(evidence, new Map([['w', verdict(0.2)]]), { mean: 0.8, concentration: 10 });
    // (8 right + 8) / (10 + 10) = 0.8 if reading; 0.8 × 0.8 + 0.2 × 0.5
    expect(out.get('w')).toBeCloseTo(0.74, 12);
    expect(out.get('new')).toBeCloseTo(0.8, 12);
  });
});

describe('copyingPairs', () => {
  const batch = (items: number, pairAgree: number) => {
    const rows: Record<string, Record<string, Judgment>> = {};
    for (let i = 0; i < items; i++) {
      const truth: Judgment = i % 2 === 0 ? 'yes' : 'no';
      const wrong: Judgment = truth === 'yes' ? 'no' : 'yes';
      // the pair: one answer for both on `pairAgree` items (right 70% of the time), else different answers
      const pair: Judgment = i % 10 < 7 ? truth : wrong;
      rows[`i${i}`] = {
        p1: pair,
        p2: i < pairAgree ? pair : pair === 'yes' ? 'no' : 'yes',
        h: i % 10 === 9 ? wrong : truth,
      };
    }
    return answersOf(rows);
  };
  const accuracy = new Map([
    ['p1', 0.7],
    ['p2', 0.7],
    ['h', 0.9],
  ]);

  it('names a pair whose agreement is beyond what their accuracies explain, with its evidence', () => {
    const pairs = copyingPairs(batch(30, 30), accuracy);
    expect(pairs.map((p) => p.workers)).toEqual([['p1', 'p2']]);
    expect(pairs[0]).toMatchObject({ shared: 30, agreed: 30 });
    expect(pairs[0]!.expected).toBeCloseTo(0.58, 12);
    expect(pairs[0]!.probability).toBeGreaterThanOrEqual(0.99);
    expect(pairs[0]!.reason).toMatch(
      /^p1 and p2 agree on 30 of 30 items both answered, where workers of their accuracies agree on 58%: P\(one source\) \d+\.\d% \(≥ 99%\)$/,
    );
    expect(partnersOf(pairs)).toEqual(
      new Map([
        ['p1', new Set(['p2'])],
        ['p2', new Set(['p1'])],
      ]),
    );
  });

  it('names nobody on too few shared items or agreement independent workers show', () => {
    expect(copyingPairs(batch(7, 7), accuracy)).toEqual([]);
    expect(copyingPairs(batch(30, 18), accuracy)).toEqual([]);
    // two careful workers agreeing on every item: what their accuracies explain
    const careful = answersOf(
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`i${i}`, { a: 'yes' as Judgment, b: 'yes' as Judgment }])),
    );
    expect(
      copyingPairs(
        careful,
        new Map([
          ['a', 0.95],
          ['b', 0.95],
        ]),
      ),
    ).toEqual([]);
  });
});
