import { describe, expect, it } from 'vitest';
import { balancedAccuracyInterval, trueAccuracy, wilsonInterval } from './forecast.js';
import { latentTruth, simulationOracle } from './oracle.js';

describe('forecast intervals', () => {
  it('gives the Wilson interval of a proportion', () => {
    // 90 of 100: the textbook Wilson interval [0.8256, 0.9448]
    const [lo, hi] = wilsonInterval(90, 100)!;
    expect(lo).toBeCloseTo(0.8256, 3);
    expect(hi).toBeCloseTo(0.9448, 3);
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('gives a normal interval of the balanced accuracy around the mean recall', () => {
    const [lo, hi] = balancedAccuracyInterval([
      { support: 100, correct: 90 },
      { support: 200, correct: 160 },
    ])!;
    // mean 0.85; se = 0.5 * sqrt(0.09/100 + 0.16/200) = 0.0206
    expect((lo + hi) / 2).toBeCloseTo(0.85, 6);
    expect(hi - lo).toBeCloseTo(2 * 1.959964 * 0.5 * Math.sqrt(0.09 / 100 + 0.16 / 200), 5);
    expect(balancedAccuracyInterval([{ support: 0, correct: 0 }])).toBeNull();
  });
});

describe("a simulated worker's true accuracy", () => {
  it('follows the kind', () => {
    const accuracy = { relevant: 0.9, notRelevant: 0.8 };
    expect(trueAccuracy({ kind: 'diligent', accuracy })).toEqual(accuracy);
    expect(trueAccuracy({ kind: 'fatigue', accuracy })).toEqual(accuracy);
    expect(trueAccuracy({ kind: 'spammer', accuracy })).toEqual({ relevant: 0.5, notRelevant: 0.5 });
    expect(trueAccuracy({ kind: 'alwaysYes', accuracy })).toEqual({ relevant: 1, notRelevant: 0 });
    expect(trueAccuracy({ kind: 'alwaysNo', accuracy })).toEqual({ relevant: 0, notRelevant: 1 });
    expect(trueAccuracy({ kind: 'llm', accuracy })).toBeNull();
  });
});

describe('the simulation oracle', () => {
  const debate = [
    { round: 1, agent: 'A', stance: 'relevant' as const, label: 'yes' as const, reasoning: 'r', references: [] },
    { round: 1, agent: 'B', stance: 'irrelevant' as const, label: 'no' as const, reasoning: 'r', references: [] },
  ];
  const model = { seed: 's', items: { hardShare: 0.1, hardAccuracy: 0.5, relevantShare: 0.4 } };

  it('takes the truth given, the first agent as the LLM side, and marks checks', () => {
    const o = simulationOracle([{ key: 'k1', truth: 'no', record: { debate } }], [{ key: 'g1', label: 'yes' }], model);
    expect(o).toEqual({ k1: { truth: 'no', model: 'yes' }, g1: { truth: 'yes', check: true } });
  });

  it('draws a repeatable truth per item without one, relevant at the population share', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i}`);
    const o = simulationOracle(
      keys.map((key) => ({ key, truth: null, record: { debate } })),
      [],
      model,
    );
    const yes = keys.filter((k) => o[k]!.truth === 'yes').length / keys.length;
    expect(Math.abs(yes - 0.4)).toBeLessThan(5 * Math.sqrt(0.24 / 5000));
    expect(keys.map((k) => latentTruth('s', k, 0.4))).toEqual(keys.map((k) => o[k]!.truth));
  });
});
