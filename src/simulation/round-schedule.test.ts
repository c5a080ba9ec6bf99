import { describe, expect, it } from 'vitest';
import { EVERY_ROUND_UP_TO, evidenceThreshold, MAX_ROUND_GAP_MS, ROUND_EVIDENCE_FRACTION, roundRuns } from './round-schedule.js';

const due = (over: Partial<Parameters<typeof roundRuns>[0]> = {}) => ({
  quiet: false,
  planned: 0,
  sinceLastRound: 0,
  msSinceLastRound: 600_000,
  ...over,
});

describe('evidenceThreshold', () => {
  it('is nought up to EVERY_ROUND_UP_TO planned assignments', () => {
    expect(evidenceThreshold(0)).toBe(0);
    expect(evidenceThreshold(EVERY_ROUND_UP_TO)).toBe(0);
  });

  it('is the fraction of the planned assignments beyond it', () => {
    expect(evidenceThreshold(EVERY_ROUND_UP_TO + 10_000)).toBeCloseTo(ROUND_EVIDENCE_FRACTION * 10_000);
  });
});

describe('roundRuns', () => {
  it('runs every due round of a batch of up to EVERY_ROUND_UP_TO planned assignments, also one with none new', () => {
    expect(roundRuns(due({ planned: 0 }))).toBe(true);
    expect(roundRuns(due({ planned: EVERY_ROUND_UP_TO, sinceLastRound: 0 }))).toBe(true);
  });

  it('puts a large batch off until the new submissions reach the fraction', () => {
    const planned = EVERY_ROUND_UP_TO + 10_000;
    const needed = Math.ceil(evidenceThreshold(planned));
    expect(roundRuns(due({ planned, sinceLastRound: needed - 1 }))).toBe(false);
    expect(roundRuns(due({ planned, sinceLastRound: needed }))).toBe(true);
  });

  it('runs when the crowd is quiet, whatever was submitted', () => {
    expect(roundRuns(due({ planned: 50_000, sinceLastRound: 0, quiet: true }))).toBe(true);
  });

  it('runs once MAX_ROUND_GAP_MS of simulated time passed since the last round', () => {
    expect(roundRuns(due({ planned: 50_000, sinceLastRound: 1, msSinceLastRound: MAX_ROUND_GAP_MS - 1 }))).toBe(false);
    expect(roundRuns(due({ planned: 50_000, sinceLastRound: 1, msSinceLastRound: MAX_ROUND_GAP_MS }))).toBe(true);
  });
});
