import { describe, expect, it } from 'vitest';
import { detectDrift, driftPolicy, type DriftSegment } from './drift.js';

const policy = driftPolicy(0.9);

const withWrong = (id: string, wrong: number): DriftSegment => ({
  assignmentId: id,
  outcomes: Array.from({ length: 9 }, (_, i) => i % Math.ceil(9 / Math.max(wrong, 1)) !== 0 || wrong === 0),
});

describe('detectDrift', () => {
  it('leaves a careful worker alone, also one right on 80% of the items over a long batch', () => {
    const careful = Array.from({ length: 12 }, (_, k) => withWrong(`a${k}`, 1));
    expect(detectDrift(careful, policy)).toMatchObject({ drifted: false, after: [], probabilityBelow: null });
    // 2 of 9 wrong, every assignment: 78% right
    const weaker = Array.from({ length: 12 }, (_, k) => withWrong(`a${k}`, 2));
    expect(weaker.every((s) => s.outcomes.filter((x) => !x).length === 2)).toBe(true);
    expect(detectDrift(weaker, policy).drifted).toBe(false);
  });

  it('stops a worker who turns careless within three assignments and names the work since the change', () => {
    const careful = Array.from({ length: 4 }, (_, k) => withWrong(`a${k}`, 1));
    const segments = [...careful, withWrong('a4', 5), withWrong('a5', 5), withWrong('a6', 5)];
    const drift = detectDrift(segments, policy);
    expect(drift.drifted).toBe(true);
    expect(drift.after).toEqual(['a4', 'a5', 'a6']);
    // two careless HITs at 4 of 9 right are not yet 99% evidence; at 3 of 9 they are
    expect(detectDrift(segments.slice(0, 6), policy).drifted).toBe(false);
    const third = (id: string): DriftSegment => ({ assignmentId: id, outcomes: Array.from({ length: 9 }, (_, i) => i % 3 === 0) });
    expect(detectDrift([...careful, third('a4'), third('a5')], policy).after).toEqual(['a4', 'a5']);
    expect(drift.probabilityBelow).toBeGreaterThanOrEqual(policy.confidence);
    expect(drift.reason).toMatch(
      /^turned careless: CUSUM \d+\.\d ≥ 4 \(rate 0\.9 → 0\.7\) from answer \d+ \(assignment 5 of 7\); since then \d+ of \d+ right, P\(rate < 0\.7\) \d+\.\d% \(≥ 99\.0%\)$/,
    );
  });

  it('leaves careful workers of a hard batch alone (they agree with the references 75% of the time)', () => {
    const hard = driftPolicy(0.75);
    expect(hard).toMatchObject({ before: 0.75, after: 0.625, below: 0.625 });
    // 2 or 3 of 9 wrong, with a bad HIT of 5 wrong now and then
    const segments = Array.from({ length: 20 }, (_, k) => withWrong(`a${k}`, k % 7 === 3 ? 5 : 2 + (k % 2)));
    expect(detectDrift(segments, hard).drifted).toBe(false);
  });

  it('is not set off by one bad assignment the answers after it do not confirm', () => {
    const segments = [
      withWrong('a0', 1),
      withWrong('a1', 1),
      withWrong('a2', 5),
      ...Array.from({ length: 6 }, (_, k) => withWrong(`b${k}`, 0)),
    ];
    expect(detectDrift(segments, policy).drifted).toBe(false);
  });

  it('says nothing without answers', () => {
    expect(detectDrift([], policy)).toMatchObject({ drifted: false, statistic: 0 });
  });
});
