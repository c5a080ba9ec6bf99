import { describe, expect, it } from 'vitest';
import { majorityOf3, predict, validVoteAccuracy, type ModelWorker } from './e2e-model.js';

describe('the prediction model of the end-to-end test', () => {
  const diligent: ModelWorker = { kind: 'diligent', accuracy: { relevant: 0.9, notRelevant: 0.8 }, share: 0.8 };

  it('reduces to the workers’ accuracy for a population of one kind', () => {
    const only = [{ ...diligent, share: 1 }];
    // passing a check of the same class is independent of answering the item right
    expect(validVoteAccuracy(only, 'yes', 'no')).toBeCloseTo(0.9, 12);
    expect(majorityOf3(0.9)).toBeCloseTo(0.972, 12);
    const p = predict(only, [{ truth: 'yes', check: 'no' }]);
    expect(p.accuracy).toBeCloseTo(0.972, 12);
  });

  it('lets always-yes votes through only behind yes checks', () => {
    const workers: ModelWorker[] = [diligent, { kind: 'alwaysYes', accuracy: { relevant: 1, notRelevant: 0 }, share: 0.2 }];
    // behind a "no" check the always-yes worker never passes
    expect(validVoteAccuracy(workers, 'no', 'no')).toBeCloseTo(0.8, 12);
    // behind a "yes" check: (0.8*0.9*0.8 + 0.2*1*0) / (0.8*0.9 + 0.2*1)
    expect(validVoteAccuracy(workers, 'no', 'yes')).toBeCloseTo(0.576 / 0.92, 12);
  });

  it('gives κ = 0 for random answers and 1 for perfect ones', () => {
    const items = [
      { truth: 'yes' as const, check: 'no' as const },
      { truth: 'no' as const, check: 'yes' as const },
    ];
    expect(predict([{ kind: 'spammer', accuracy: { relevant: 0.5, notRelevant: 0.5 }, share: 1 }], items).kappa).toBeCloseTo(0, 12);
    expect(predict([{ kind: 'diligent', accuracy: { relevant: 1, notRelevant: 1 }, share: 1 }], items).kappa).toBeCloseTo(1, 12);
  });
});

describe('sampled intervals', () => {
  it('centre on the analytic prediction and widen when a HIT’s items share workers', async () => {
    const { sampledIntervals } = await import('./e2e-model.js');
    const workers: ModelWorker[] = [
      ...Array.from({ length: 8 }, (_, i): ModelWorker => ({
        kind: 'diligent',
        accuracy: { relevant: 0.9, notRelevant: 0.85 },
        share: 0.1 - i * 0.001,
      })),
      { kind: 'spammer', accuracy: { relevant: 0.5, notRelevant: 0.5 }, share: 0.1 },
      { kind: 'alwaysYes', accuracy: { relevant: 1, notRelevant: 0 }, share: 0.1 },
    ];
    const hit = (check: 'yes' | 'no', n: number) => ({
      check,
      items: Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 'yes' : 'no') as 'yes' | 'no'),
    });
    const nine = Array.from({ length: 22 }, (_, i) => hit(i % 2 ? 'yes' : 'no', 9));
    const analytic = predict(
      workers,
      nine.flatMap((x) => x.items.map((truth) => ({ truth, check: x.check }))),
    );
    const sampled = sampledIntervals(workers, nine, 2000);
    expect(sampled.accuracy.mean).toBeCloseTo(analytic.accuracy, 1);
    expect(sampled.accuracy.low).toBeLessThan(sampled.accuracy.mean);
    expect(sampled.accuracy.high).toBeGreaterThan(sampled.accuracy.mean);
    // the same 198 items one per HIT: no shared workers, a narrower spread
    const single = nine.flatMap((x) => x.items.map((t) => ({ check: x.check, items: [t] })));
    const spread = (i: { low: number; high: number }) => i.high - i.low;
    expect(spread(sampledIntervals(workers, single, 2000).accuracy)).toBeLessThan(spread(sampled.accuracy));
  });
});
