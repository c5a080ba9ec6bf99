import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import type { Forecast, ForecastWorker } from './forecast.js';
import { meanOf, qualityFigures, sharedSources } from './quality-targets.js';

const worker = (w: Partial<ForecastWorker> & Pick<ForecastWorker, 'workerId' | 'kind'>): ForecastWorker => ({
  assignments: 2,
  discardedAssignments: 0,
  rejectedAssignments: 0,
  blocked: false,
  flags: [],
  trueAccuracy: { relevant: 0.9, notRelevant: 0.9 },
  ...w,
});

/** Four items; two diligent workers, an always-yes one (blocked), a spammer (not), two LLM-assisted (one flagged) and a diligent one flagged. */
function forecast(): { forecast: Forecast; truth: Map<string, Judgment> } {
  const truth = new Map<string, Judgment>([
    ['q\ta', 'yes'],
    ['q\tb', 'no'],
    ['q\tc', 'no'],
    ['q\td', 'yes'],
  ]);
  const votes = [...truth].flatMap(([k, t]) => {
    const chunk = k.split('\t')[1]!;
    return [
      { query_id: 'q', chunk_id: chunk, workerId: 'd1', answer: t },
      { query_id: 'q', chunk_id: chunk, workerId: 'd2', answer: t },
      { query_id: 'q', chunk_id: chunk, workerId: 'y', answer: 'yes' as const },
    ];
  });
  const workers = [
    worker({ workerId: 'd1', kind: 'diligent', assignments: 10, discardedAssignments: 1 }),
    worker({ workerId: 'd2', kind: 'diligent', assignments: 10, flags: ['llm-assisted'] }),
    worker({ workerId: 'y', kind: 'alwaysYes', blocked: true, trueAccuracy: { relevant: 1, notRelevant: 0 } }),
    worker({ workerId: 's', kind: 'spammer', trueAccuracy: { relevant: 0.5, notRelevant: 0.5 } }),
    worker({ workerId: 's1', kind: 'spammer', assignments: 1, trueAccuracy: { relevant: 0.5, notRelevant: 0.5 } }),
    worker({ workerId: 'l1', kind: 'llm', flags: ['fast', 'llm-assisted'], trueAccuracy: null }),
    worker({ workerId: 'l2', kind: 'llm', trueAccuracy: null }),
  ];
  const f = {
    accuracy: { accuracy: 0.75, balancedAccuracy: 0.75, ci95: null, accuracyCi95: null, compared: 4, aggregate: 'majority' },
    votes,
    workers,
    cost: {
      quote: 10,
      total: 12,
      quoteCents: 1000,
      totalCents: 1200,
      perLabel: 3,
      extraAssignments: 0,
      extraAssignmentsCost: 0,
      discardedAssignments: 1,
    },
  } as unknown as Forecast; // only the fields the targets read
  return { forecast: f, truth };
}

describe('issue 16 quality targets from a forecast', () => {
  it('measures each target from the forecast fields and the truth', () => {
    const { forecast: f, truth } = forecast();
    const q = qualityFigures(f, truth);
    expect(q.balancedAccuracy).toBe(0.75);
    expect(q.optimum).toBe(1);
    expect(q.optimumEstimated).toBe(2); // the two LLM-assisted workers, whose true accuracy is unknown
    // bad with 2+ assignments: the always-yes (blocked) and one spammer (not); the one-assignment spammer is left out
    expect(q.bad).toEqual({ workers: 2, blocked: 1, share: 0.5 });
    expect(q.diligent).toEqual({ assignments: 20, discarded: 1, share: 0.05 });
    expect(q.llm).toEqual({ workers: 2, flagged: 2, truePositives: 1, recall: 0.5, precision: 0.5 });
    expect(q.costPerLabel).toBe(3);
    expect(q.cost).toEqual({ total: 12, quote: 10 });
  });

  it('counts the one LLM and each copying pair as one source in the optimum', () => {
    const workers = [
      worker({ workerId: 'l1', kind: 'llm', trueAccuracy: null }),
      worker({ workerId: 'l2', kind: 'llm', trueAccuracy: null }),
      worker({ workerId: 'c1', kind: 'copier', pair: 0, trueAccuracy: { relevant: 0.7, notRelevant: 0.7 } }),
      worker({ workerId: 'c2', kind: 'copier', pair: 0, trueAccuracy: { relevant: 0.7, notRelevant: 0.7 } }),
      worker({ workerId: 'c3', kind: 'copier', trueAccuracy: { relevant: 0.7, notRelevant: 0.7 } }),
      worker({ workerId: 'h', kind: 'honest' }),
    ];
    expect(sharedSources(workers)).toEqual(
      new Map([
        ['l1', 'llm'],
        ['l2', 'llm'],
        ['c1', 'copying pair 0'],
        ['c2', 'copying pair 0'],
      ]),
    );
    // the pair's two wrong answers against one 0.8 worker: one 0.7 source, the 0.8 worker decides
    const truth = new Map<string, Judgment>([['q\ta', 'yes']]);
    const f = {
      accuracy: null,
      votes: [
        { query_id: 'q', chunk_id: 'a', workerId: 'c1', answer: 'no' },
        { query_id: 'q', chunk_id: 'a', workerId: 'c2', answer: 'no' },
        { query_id: 'q', chunk_id: 'a', workerId: 'h', answer: 'yes' },
      ],
      workers: [...workers.slice(2, 4), worker({ workerId: 'h', kind: 'honest', trueAccuracy: { relevant: 0.8, notRelevant: 0.8 } })],
      cost: { perLabel: null, total: 0, quote: 0 },
    } as unknown as Forecast;
    expect(qualityFigures(f, truth).optimum).toBe(1);
  });

  it('averages the defined values', () => {
    expect(meanOf([0.5, null, 1])).toBe(0.75);
    expect(meanOf([null])).toBeNull();
  });
});
