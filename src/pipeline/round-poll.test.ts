import { describe, expect, it } from 'vitest';
import { FULL_POLL_EVERY, hitsToPoll } from './round-poll.js';

describe('hitsToPoll', () => {
  const notified = new Set(['H3', 'H1']);
  it('polls only the notified HITs, sorted, from the first round on and between full polls', () => {
    expect(hitsToPoll({ roundsRun: 0, notified })).toEqual(['H1', 'H3']);
    expect(hitsToPoll({ roundsRun: 1, notified })).toEqual(['H1', 'H3']);
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY - 1, notified })).toEqual(['H1', 'H3']);
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY + 1, notified })).toEqual(['H1', 'H3']);
  });
  it('polls nothing when nothing was notified between full polls', () => {
    expect(hitsToPoll({ roundsRun: 0, notified: new Set() })).toEqual([]);
    expect(hitsToPoll({ roundsRun: 2, notified: new Set() })).toEqual([]);
  });
  it('polls everything every FULL_POLL_EVERY rounds', () => {
    expect(hitsToPoll({ roundsRun: FULL_POLL_EVERY, notified })).toBeUndefined();
    expect(hitsToPoll({ roundsRun: 3 * FULL_POLL_EVERY, notified: new Set() })).toBeUndefined();
    expect(hitsToPoll({ roundsRun: 4, notified }, 4)).toBeUndefined();
    expect(hitsToPoll({ roundsRun: 5, notified }, 4)).toEqual(['H1', 'H3']);
  });
  it('leaves no round further than FULL_POLL_EVERY rounds from a full poll', () => {
    // a notification lost before round r is made good by the first full poll at or after r
    for (let lostBefore = 0; lostBefore < 5 * FULL_POLL_EVERY; lostBefore++) {
      let r = lostBefore;
      while (hitsToPoll({ roundsRun: r, notified: new Set() }) !== undefined) r++;
      expect(r - lostBefore).toBeLessThanOrEqual(FULL_POLL_EVERY);
    }
  });
});
