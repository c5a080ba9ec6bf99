import { describe, expect, it } from 'vitest';
import type { ScoredAssignment } from './counted-votes.js';
import {
  assignmentSpeeds,
  detectDrift,
  driftPolicy,
  MIN_SPREAD_PAIRS,
  MIN_WITHIN_SIGMA,
  logSumExpNear,
  withinSpread,
  workerSequences,
  type DriftSegment,
} from './drift.js';
import { logSumExp } from './beta-grid.js';
import { seededRng } from '../hits/random.js';
import { DEFAULT_VERDICT_POLICY } from './worker-verdict.js';

/** The batch's careful workers agree 90% of the time (the fitted prior's shape: mean 0.9, κ 30, cut at 0.7). */
const policy = driftPolicy({ alpha: 27, beta: 3, min: 0.7 }, DEFAULT_VERDICT_POLICY.speed);

/** Ten answers (nine items and a check), `wrong` of them wrong, spread over the HIT. */
const withWrong = (id: string, wrong: number, speed?: number): DriftSegment => ({
  assignmentId: id,
  outcomes: Array.from({ length: 10 }, (_, i) => i >= wrong),
  ...(speed !== undefined && { speed }),
});

describe('detectDrift', () => {
  it('states the policy: the batch prior before, a rate up to its cut after, 5% hazard, 95%, one HIT in 100 off pace', () => {
    expect(policy).toMatchObject({
      after: 0.7,
      hazard: 0.05,
      steady: 0.2,
      confidence: 0.95,
      withinSigma: 0.35,
      offPace: 0.01,
      carelessSigma: 1,
    });
  });

  it('leaves a careful worker alone, also one right on 80% of the items over a long batch', () => {
    const careful = Array.from({ length: 12 }, (_, k) => withWrong(`a${k}`, 1, 1));
    const verdict = detectDrift(careful, policy);
    expect(verdict).toMatchObject({ drifted: false, after: [] });
    expect(verdict.probabilityChanged).toBeLessThan(0.05);
    expect(verdict.reason).toMatch(/^no drift: P\(turned careless\) \d+\.\d% \(< 95\.0%\) over 12 assignments$/);
    const weaker = Array.from({ length: 12 }, (_, k) => withWrong(`a${k}`, 2, 0.8));
    expect(detectDrift(weaker, policy).drifted).toBe(false);
  });

  it('does not stop a careful worker for one bad HIT among good ones, at a reader’s pace', () => {
    const segments = [withWrong('a0', 1, 1), withWrong('a1', 1, 1), withWrong('a2', 6, 1.1)];
    expect(detectDrift(segments, policy).drifted).toBe(false);
    const later = [...segments, ...Array.from({ length: 5 }, (_, k) => withWrong(`b${k}`, 1, 1))];
    expect(detectDrift(later, policy).drifted).toBe(false);
  });

  it('stops a worker who turns careless and stops reading within one assignment, naming the work since', () => {
    const careful = Array.from({ length: 4 }, (_, k) => withWrong(`a${k}`, 1, 1));
    const drift = detectDrift([...careful, withWrong('a4', 6, 0.3)], policy);
    expect(drift.drifted).toBe(true);
    expect(drift.after).toEqual(['a4']);
    expect(drift.probabilityChanged).toBeGreaterThanOrEqual(0.95);
    expect(drift.reason).toMatch(
      /^turned careless: P\(changed\) \d+\.\d+% \(≥ 95\.0%\), most likely after assignment 4 of 5; since then 4 of 10 answers right \(careful workers: about 0\.90\), 0\.30× the typical time per item$/,
    );
  });

  it('without times, stops on the answers alone after two careless assignments, the work from the change on', () => {
    const careful = Array.from({ length: 3 }, (_, k) => withWrong(`a${k}`, 1));
    expect(detectDrift([...careful, withWrong('a3', 5)], policy).drifted).toBe(false);
    const drift = detectDrift([...careful, withWrong('a3', 5), withWrong('a4', 6)], policy);
    expect(drift).toMatchObject({ drifted: true, after: ['a3', 'a4'] });
  });

  it('takes a careful worker who reads faster as the batch goes on for what they are, and a new steady fast pace for a change', () => {
    // learning: 1.0, 0.9, ..., 0.6 of the typical time, answers as careful as ever
    const learning = Array.from({ length: 5 }, (_, k) => withWrong(`a${k}`, 1, 1 - 0.1 * k));
    expect(detectDrift(learning, policy).drifted).toBe(false);
    // the same answers at a third of their pace from the fourth HIT on: the pace alone is no proof
    const fast = [withWrong('a0', 1, 1), withWrong('a1', 1, 1), withWrong('a2', 1, 1), withWrong('a3', 1, 0.33), withWrong('a4', 1, 0.33)];
    expect(detectDrift(fast, policy).drifted).toBe(false);
    // answers at random from then on as well: stopped
    const careless = [...fast.slice(0, 3), withWrong('a3', 5, 0.33), withWrong('a4', 6, 0.33)];
    expect(detectDrift(careless, policy)).toMatchObject({ drifted: true, after: ['a3', 'a4'] });
  });

  it('leaves careful workers of a hard batch alone (they agree with the references 75% of the time)', () => {
    const hard = driftPolicy({ alpha: 15, beta: 5, min: 0.625 }, DEFAULT_VERDICT_POLICY.speed);
    const segments = Array.from({ length: 20 }, (_, k) => withWrong(`a${k}`, k % 7 === 3 ? 5 : 2 + (k % 2), 0.9));
    expect(detectDrift(segments, hard).drifted).toBe(false);
  });

  describe('where the batch measured one person’s HITs to spread by 0.2 (withinSpread)', () => {
    const measured = { ...policy, withinSigma: 0.2 };
    const careful = Array.from({ length: 4 }, (_, k) => withWrong(`a${k}`, 1, 1));
    /** A HIT submitted this moment: its check alone can be compared yet (nobody else answered its items). */
    const checkOnly = (id: string, right: boolean, speed: number): DriftSegment => ({ assignmentId: id, outcomes: [right], speed });

    it('stops a worker on the first HIT they click through at a third of their pace when its check fails', () => {
      const drift = detectDrift([...careful, checkOnly('c1', false, 0.3)], measured);
      expect(drift).toMatchObject({ drifted: true, after: ['c1'] });
      // the same HIT with its check passed: not yet (a careful worker's odd HIT is timed anywhere)
      expect(detectDrift([...careful, checkOnly('c1', true, 0.3)], measured).drifted).toBe(false);
      // at the old spread, a failed check and the pace do not suffice either
      expect(detectDrift([...careful, checkOnly('c1', false, 0.3)], policy).drifted).toBe(false);
    });

    it('stops them on the second such HIT whatever their checks, the work from the first on', () => {
      const drift = detectDrift([...careful, checkOnly('c1', true, 0.3), checkOnly('c2', true, 0.3)], measured);
      expect(drift).toMatchObject({ drifted: true, after: ['c1', 'c2'] });
      expect(drift.probabilityChanged).toBeGreaterThan(0.99);
    });

    it('does not stop a careful worker for one HIT at a third of their pace whose answers follow the items', () => {
      expect(detectDrift([...careful, withWrong('c1', 1, 0.33)], measured).drifted).toBe(false);
      // nor one who reads faster as the batch goes on, nor a HIT at half their pace
      expect(
        detectDrift(
          Array.from({ length: 5 }, (_, k) => withWrong(`a${k}`, 1, 1 - 0.1 * k)),
          measured,
        ).drifted,
      ).toBe(false);
      expect(detectDrift([...careful, withWrong('c1', 1, 0.5)], measured).drifted).toBe(false);
    });

    it('takes a record weak from start to end for no change, though its first HIT went well and slowly', () => {
      // a careful reader right about 60% of the time against the references (the verdict's to judge), slow on their first HIT
      const right = (id: string, n: number, r: number, speed: number): DriftSegment => ({
        assignmentId: id,
        outcomes: Array.from({ length: n }, (_, i) => i < r),
        speed,
      });
      const weak = [
        right('a0', 5, 4, 1.94),
        right('a1', 10, 5, 1.19),
        right('a2', 9, 6, 0.98),
        right('a3', 10, 7, 1.22),
        right('a4', 10, 5, 0.83),
      ];
      const drift = detectDrift(weak, { ...measured, before: { alpha: 53, beta: 7, min: 0.69 }, after: 0.69 });
      expect(drift.drifted).toBe(false);
      expect(drift.probabilityChanged).toBeLessThan(0.9);
      // without the steady careless record among the explanations it looked like a change
      expect(detectDrift(weak, { ...measured, before: { alpha: 53, beta: 7, min: 0.69 }, after: 0.69, steady: 1e-9 }).drifted).toBe(true);
    });

    it('leaves honest workers right on 80% of a long batch alone, their pace spread as measured', () => {
      // log speeds ±0.2 around their own pace, two of ten answers wrong, a missed check now and then
      const spread = [0, 0.2, -0.2, 0.1, -0.1, 0.25, -0.25, 0.05, -0.15, 0.15, 0, -0.05];
      const honest = spread.map((x, k) => withWrong(`a${k}`, k % 4 === 1 ? 3 : 2, 0.8 * Math.exp(x)));
      for (let n = 2; n <= honest.length; n++) expect(detectDrift(honest.slice(0, n), measured).drifted).toBe(false);
    });
  });

  it('says nothing on fewer than two assignments', () => {
    expect(detectDrift([], policy)).toMatchObject({ drifted: false, probabilityChanged: 0 });
    expect(detectDrift([withWrong('a0', 10, 0.1)], policy)).toMatchObject({ drifted: false, probabilityChanged: 0 });
  });

  it('answers the same for a record whatever it was asked before (its integrals are kept per policy and counts)', () => {
    const turned = [...Array.from({ length: 5 }, (_, k) => withWrong(`a${k}`, 1, 1)), withWrong('a5', 6, 0.3), withWrong('a6', 5)];
    const other = driftPolicy({ alpha: 20, beta: 5, min: 0.65 }, DEFAULT_VERDICT_POLICY.speed);
    const first = detectDrift(turned, other);
    // other records under the same policy and others fill the kept integrals, with the same counts among them
    for (let k = 0; k < 30; k++) {
      const records = Array.from({ length: 2 + (k % 9) }, (_, j) => withWrong(`b${j}`, (j * k) % 8, 0.5 + (j % 3) / 2));
      detectDrift(records, k % 2 === 0 ? other : policy);
    }
    const again = detectDrift(turned, other);
    expect(again).toEqual(first);
    expect(Object.is(again.probabilityChanged, first.probabilityChanged)).toBe(true);
    expect(first.drifted).toBe(true);
  });
});

describe('assignmentSpeeds', () => {
  const scored = (worker: string, id: string, ms: readonly number[]) =>
    ({
      assignment: { assignmentId: id, worker, answers: ms.map((timeMs, i) => ({ item: `i${i}`, label: 'yes', timeMs })) },
    }) as unknown as ScoredAssignment;

  it('divides each assignment’s median time per item by the median of the workers’ medians', () => {
    const speeds = assignmentSpeeds([
      scored('w1', 'x1', [10, 10, 10]),
      scored('w1', 'x2', [2, 2, 2]),
      scored('w2', 'y1', [20, 20, 20]),
      scored('w3', 'z1', [30, 30, 30]),
    ]);
    // the workers' medians: w1 (10, 10, 10, 2, 2, 2) 6, w2 20, w3 30: typical 20
    expect(Object.fromEntries(speeds)).toEqual({ x1: 0.5, x2: 0.1, y1: 1, z1: 1.5 });
  });

  it('says nothing with fewer than three timed workers, nor for an assignment without times', () => {
    expect(assignmentSpeeds([scored('w1', 'x1', [10]), scored('w2', 'y1', [20])]).size).toBe(0);
    const speeds = assignmentSpeeds([scored('w1', 'x1', [10]), scored('w2', 'y1', [20]), scored('w3', 'z1', [30]), scored('w3', 'z2', [])]);
    expect(speeds.has('z2')).toBe(false);
  });
});

describe('logSumExpNear', () => {
  it('is logSumExp to the last bit, terms far below the largest and all', () => {
    const rng = seededRng('log-sum-exp-near');
    for (let trial = 0; trial < 300; trial++) {
      const spread = [1, 100, 700, 760, 5000][trial % 5]!;
      const values = Float64Array.from({ length: 1 + rng.int(241) }, () => -spread * rng.next() * rng.next());
      expect(Object.is(logSumExpNear(values), logSumExp(values)), `trial ${trial}`).toBe(true);
    }
  });

  it('answers as logSumExp does at the edges: nothing, minus infinity, NaN', () => {
    for (const values of [[], [-Infinity, -Infinity], [0, NaN, 1], [-Infinity, 3, -2000], [Infinity, 0]])
      expect(Object.is(logSumExpNear(values), logSumExp(values)), JSON.stringify(values)).toBe(true);
  });
});

describe('workerSequences', () => {
  const scored = (worker: string, id: string) => ({ assignment: { assignmentId: id, worker, answers: [] } }) as unknown as ScoredAssignment;

  it("keeps each worker's assignments in the order given, with their outcomes and speeds, leaving out the workers left out", () => {
    const order = [scored('w1', 'a'), scored('w2', 'b'), scored('w1', 'c'), scored('w3', 'd')];
    const outcomes = new Map([
      ['a', [true, false]],
      ['c', [true]],
    ]);
    const speeds = new Map([['c', 0.5]]);
    const sequences = workerSequences(order, new Set(['w3']), (id) => outcomes.get(id), speeds);
    expect([...sequences.keys()]).toEqual(['w1', 'w2']);
    expect(sequences.get('w1')).toEqual([
      { assignmentId: 'a', outcomes: [true, false], speed: undefined },
      { assignmentId: 'c', outcomes: [true], speed: 0.5 },
    ]);
    // an assignment without outcomes (a worker not tested this round) has none
    expect(sequences.get('w2')).toEqual([{ assignmentId: 'b', outcomes: [], speed: undefined }]);
  });
});

describe('withinSpread', () => {
  const timed = (speeds: readonly number[]): DriftSegment[] => speeds.map((speed, k) => ({ assignmentId: `a${k}`, outcomes: [], speed }));

  it('reads σ from the median difference between consecutive HITs of each worker (|d| has median 0.6745 √2 σ)', () => {
    // every consecutive difference 0.2 on the log scale: σ = 0.2 / (0.6745 √2)
    const alternating = (k: number) => timed(Array.from({ length: 5 }, (_, j) => (j % 2 === 0 ? 1 : Math.exp(0.2)) * (1 + k / 10)));
    const sigma = withinSpread([alternating(0), alternating(1), alternating(2)], 0.35);
    expect(sigma).toBeCloseTo(0.2 / (0.6745 * Math.SQRT2), 6);
  });

  it('is not widened by the one jump of a worker who turned careless, nor by untimed HITs', () => {
    const steady = (k: number) => timed(Array.from({ length: 5 }, (_, j) => (j % 2 === 0 ? 1 : Math.exp(0.2)) * (1 + k / 10)));
    const careless = [...timed([1, Math.exp(0.2), 1]), ...timed([0.3, 0.3 * Math.exp(0.2), 0.3])];
    const untimed: DriftSegment[] = [{ assignmentId: 'u', outcomes: [true] }];
    const sigma = withinSpread([steady(0), steady(1), steady(2), [...careless, ...untimed]], 0.35);
    expect(sigma).toBeCloseTo(0.2 / (0.6745 * Math.SQRT2), 6);
  });

  it('keeps the policy’s spread with too few differences or fewer than three timed workers', () => {
    const pairs = (n: number) => timed(Array.from({ length: n + 1 }, (_, j) => (j % 2 === 0 ? 1 : 1.5)));
    expect(withinSpread([pairs(MIN_SPREAD_PAIRS - 2), pairs(1)], 0.35)).toBe(0.35);
    expect(withinSpread([pairs(4), pairs(4), pairs(MIN_SPREAD_PAIRS - 9)], 0.35)).toBe(0.35);
    expect(withinSpread([pairs(4), pairs(4), pairs(MIN_SPREAD_PAIRS - 8)], 0.35)).toBeCloseTo(Math.log(1.5) / (0.6745 * Math.SQRT2), 6);
    expect(withinSpread([], 0.35)).toBe(0.35);
  });

  it('never says less than MIN_WITHIN_SIGMA (workers timed alike HIT after HIT)', () => {
    const same = timed(Array.from({ length: 6 }, () => 0.8));
    expect(withinSpread([same, same, same], 0.35)).toBe(MIN_WITHIN_SIGMA);
  });
});
