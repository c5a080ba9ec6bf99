import { describe, expect, it } from 'vitest';
import { seededRng } from '../hits/random.js';
import { baselineFrom, leaveOneOutBaselines, MIN_SPEEDS, type WorkerSummary } from './loo-baseline.js';

function randomSummaries(next: () => number, workers: number): Map<string, WorkerSummary> {
  // few distinct speeds, so that ties (equal values around the median) come up
  const speeds = [0.5, 1.25, 2, 2, 3.75, Math.log(18), -1];
  return new Map(
    Array.from({ length: workers }, (_, i) => {
      const items = Math.floor(next() * 12);
      const contested = Math.floor(next() * (items + 1));
      return [
        `w${i}`,
        {
          items,
          contested,
          followedA: Math.floor(next() * (contested + 1)),
          eventItems: Math.floor(next() * (items + 1)),
          logSpeed: next() < 0.3 ? null : next() < 0.5 ? speeds[Math.floor(next() * speeds.length)]! : next() * 6 - 2,
        },
      ];
    }),
  );
}

/** What the detection computed before: each worker's baseline from the list of the others. */
function eachApart(summaries: ReadonlyMap<string, WorkerSummary>, among: (w: string) => boolean) {
  return new Map(
    [...summaries.keys()].map((w) => [w, baselineFrom([...summaries].filter(([o]) => o !== w && among(o)).map(([, s]) => s))]),
  );
}

describe('leaveOneOutBaselines', () => {
  it('gives each worker the very baseline of the others, for batches of every size and any workers left out', () => {
    const rng = seededRng('loo-baseline');
    const next = () => rng.next();
    for (let trial = 0; trial < 400; trial++) {
      const summaries = randomSummaries(next, Math.floor(next() * 14));
      const excluded = new Set([...summaries.keys()].filter(() => next() < 0.25));
      const among = (w: string) => !excluded.has(w);
      expect(leaveOneOutBaselines(summaries, among)).toEqual(eachApart(summaries, among));
    }
  });

  it('has a centre and spread of speeds only from MIN_SPEEDS other workers with a speed', () => {
    const summary = (logSpeed: number | null): WorkerSummary => ({ items: 4, contested: 2, followedA: 1, eventItems: 1, logSpeed });
    const five = new Map([1, 2, 3, 4, 5].map((x) => [`w${x}`, summary(x)]));
    const baselines = leaveOneOutBaselines(five, () => true);
    // each worker sees 4 others with a speed: too few
    expect([...baselines.values()].every((b) => b.logSpeed === undefined)).toBe(true);
    five.set('w6', summary(null));
    // the worker without a speed sees all 5: median 3, deviations 2,1,0,1,2 → 1
    expect(leaveOneOutBaselines(five, () => true).get('w6')).toEqual({
      items: 10,
      followedA: 5,
      eventRate: 5 / 20,
      logSpeed: { centre: 3, spread: 1.4826 },
    });
    expect(MIN_SPEEDS).toBe(5);
  });

  it('leaves out nobody a worker is not among', () => {
    const summaries = new Map<string, WorkerSummary>([
      ['a', { items: 3, contested: 2, followedA: 2, eventItems: 0, logSpeed: null }],
      ['b', { items: 5, contested: 4, followedA: 1, eventItems: 2, logSpeed: null }],
    ]);
    const baselines = leaveOneOutBaselines(summaries, (w) => w !== 'a');
    // a is excluded: its baseline is b's alone; b's baseline has nobody
    expect(baselines.get('a')).toEqual({ items: 4, followedA: 1, eventRate: 2 / 5 });
    expect(baselines.get('b')).toEqual({ items: 0, followedA: 0 });
  });
});
