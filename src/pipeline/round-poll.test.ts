import { describe, expect, it } from 'vitest';
import { FULL_POLL_EVERY, hitsToPoll } from './round-poll.js';

describe('hitsToPoll', () => {
  const notified = new Set(['H3', 'H1']);
  it('polls everything on the first round', () => {
    expect(hitsToPoll({ roundsRun: 0, notified, createdHits: false })).toBeUndefined();
  });
  it('polls only the notified HITs, sorted, between full polls', () => {
    expect(hitsToPoll({ roundsRun: 1, notified, createdHits: false })).toEqual(['H1', 'H3']);
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY - 1, notified, createdHits: false })).toEqual(['H1', 'H3']);
  });
  it('polls nothing when nothing was notified between full polls', () => {
    expect(hitsToPoll({ roundsRun: 2, notified: new Set(), createdHits: false })).toEqual([]);
  });
  it('polls everything every FULL_POLL_EVERY rounds', () => {
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY, notified, createdHits: false })).toBeUndefined();
    expect(hitsToPoll({ roundsRun: 3 * FULL_POLL_EVERY, notified, createdHits: false })).toBeUndefined();
    expect(hitsToPoll({ roundsRun: 4, notified, createdHits: false }, 4)).toBeUndefined();
  });
  it('polls everything after a round created HITs', () => {
    expect(hitsToPoll({ roundsRun: 5, notified, createdHits: true })).toBeUndefined();
  });
});
