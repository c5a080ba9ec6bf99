import { describe, expect, it } from 'vitest';
import { batchVerdicts, type BatchVerdicts } from '../quality/batch-verdicts.js';
import { scoreAssignments } from '../quality/counted-votes.js';
import { EVERY_FIT_UP_TO, REFIT_GROWTH } from '../quality/llm-refit.js';
import type { AssignmentRecord, HitRecord } from '../quality/types.js';
import { nextVerdicts, type KeptVerdicts } from './round-verdicts.js';

const hits: HitRecord[] = [0, 1, 2].map((h) => ({ hitId: `H${h}`, items: [`i${h}a`, `i${h}b`], checks: [] }));
const assignments: AssignmentRecord[] = hits.flatMap((hit) =>
  ['a', 'b', 'c'].map((worker) => ({
    assignmentId: `${hit.hitId}-${worker}`,
    hitId: hit.hitId,
    worker,
    status: 'submitted' as const,
    answers: hit.items.map((item) => ({ item, label: worker === 'c' ? ('no' as const) : ('yes' as const) })),
  })),
);
const scored = scoreAssignments(assignments, hits);
const counts = (entries: Record<string, number>) => new Map(Object.entries(entries));

/** The whole fit, counting its calls. */
function fitter(): { fit: () => BatchVerdicts; calls: () => number } {
  let n = 0;
  return {
    fit: () => {
      n++;
      return batchVerdicts(scored);
    },
    calls: () => n,
  };
}

describe('nextVerdicts', () => {
  const large = counts({ a: 600, b: 400 });

  it('fits the whole batch first, and remembers what it judged', () => {
    const { fit, calls } = fitter();
    const kept = nextVerdicts(scored, new Set(), large, undefined, fit);
    expect(calls()).toBe(1);
    expect(kept.judged).toEqual({ wholeAt: 1_000, byWorker: large });
    expect(kept.notReferences).toBe('[]');
    expect(kept.verdicts.verdicts.size).toBe(3);
  });

  it('fits every round of a batch of up to EVERY_FIT_UP_TO assignments', () => {
    const { fit, calls } = fitter();
    const small = counts({ a: EVERY_FIT_UP_TO - 10 });
    let kept: KeptVerdicts | undefined;
    for (let round = 0; round < 3; round++) kept = nextVerdicts(scored, new Set(), small, kept, fit);
    expect(calls()).toBe(3);
  });

  it('in a larger batch between growths, keeps the fit and re-judges only the workers with new work', () => {
    const { fit, calls } = fitter();
    const first = nextVerdicts(scored, new Set(), large, undefined, fit);
    const second = nextVerdicts(scored, new Set(), counts({ a: 605, b: 400 }), first, fit);
    expect(calls()).toBe(1);
    expect(second.verdicts.fit).toBe(first.verdicts.fit);
    expect(second.verdicts.verdicts.get('b')).toBe(first.verdicts.verdicts.get('b'));
    expect(second.verdicts.verdicts.get('a')).not.toBe(first.verdicts.verdicts.get('a'));
    expect(second.judged).toEqual({ wholeAt: 1_000, byWorker: counts({ a: 605, b: 400 }) });
  });

  it('fits again when the batch grew by REFIT_GROWTH, or when the workers kept out of the references change', () => {
    const { fit, calls } = fitter();
    const first = nextVerdicts(scored, new Set(), large, undefined, fit);
    const grown = nextVerdicts(scored, new Set(), counts({ a: 600 + 1_000 * REFIT_GROWTH, b: 400 }), first, fit);
    expect(calls()).toBe(2);
    expect(grown.judged.wholeAt).toBe(1_000 * (1 + REFIT_GROWTH));
    const stopped = nextVerdicts(scored, new Set(['c']), counts({ a: 600 + 1_000 * REFIT_GROWTH, b: 400 }), grown, fit);
    expect(calls()).toBe(3);
    expect(stopped.notReferences).toBe('["c"]');
  });
});
