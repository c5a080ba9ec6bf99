import { describe, expect, it } from 'vitest';
import { UserError } from '../errors.js';
import { balancedAccuracy, labelAccuracy } from './accuracy.js';

type YN = 'yes' | 'no';
const yn = ['yes', 'no'] as const;

describe('label accuracy', () => {
  const truth = new Map<string, YN>([
    ['a', 'yes'],
    ['b', 'no'],
    ['c', 'no'],
    ['d', 'no'],
    ['e', 'yes'],
  ]);

  it('compares items with both a label and a truth', () => {
    const predicted = new Map<string, YN | null>([
      ['a', 'yes'],
      ['b', 'no'],
      ['c', 'yes'],
      ['d', null],
      ['extra', 'yes'],
    ]);
    expect(labelAccuracy(predicted, truth)).toEqual({ value: 2 / 3, correct: 2, compared: 3, unlabeled: 2 });
  });

  it('is null when nothing can be compared', () => {
    expect(labelAccuracy(new Map(), truth)).toEqual({ value: null, correct: 0, compared: 0, unlabeled: 5 });
  });

  it('balanced accuracy averages the per-class recall', () => {
    // 1 yes (recalled), 9 no (6 recalled): accuracy 0.7, balanced (1 + 6/9) / 2
    const t = new Map<string, YN>([['y0', 'yes'], ...Array.from({ length: 9 }, (_, n) => [`n${n}`, 'no'] as [string, YN])]);
    const p = new Map<string, YN>([['y0', 'yes'], ...Array.from({ length: 9 }, (_, n) => [`n${n}`, n < 6 ? 'no' : 'yes'] as [string, YN])]);
    const result = balancedAccuracy(p, t, yn);
    expect(result.value!).toBeCloseTo((1 + 6 / 9) / 2, 12);
    expect(result).toMatchObject({
      correct: 7,
      compared: 10,
      perClass: { yes: { support: 1, correct: 1, recall: 1 }, no: { support: 9, correct: 6 } },
    });
    expect(labelAccuracy(p, t).value).toBeCloseTo(0.7, 12);
  });

  it('averages only classes present in the truth', () => {
    const result = balancedAccuracy(new Map<string, YN>([['a', 'no']]), new Map<string, YN>([['a', 'no']]), yn);
    expect(result).toMatchObject({ value: 1, perClass: { yes: { support: 0, recall: null }, no: { recall: 1 } } });
    expect(balancedAccuracy(new Map(), new Map<string, YN>([['a', 'no']]), yn).value).toBeNull();
  });

  it('names a label that is not a category', () => {
    const t = new Map([['a', 'maybe']]) as unknown as Map<string, YN>;
    expect(() => balancedAccuracy(new Map(), t, yn)).toThrow(UserError);
    expect(() => balancedAccuracy(new Map(), t, yn)).toThrow('truth["a"]: "maybe" is not one of the categories');
    const p = new Map([['a', 'maybe']]) as unknown as Map<string, YN>;
    expect(() => balancedAccuracy(p, new Map<string, YN>([['a', 'yes']]), yn)).toThrow('predicted["a"]: "maybe"');
  });
});
