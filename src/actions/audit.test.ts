import { describe, expect, it } from 'vitest';
import { auditTimes } from './audit.js';

const HOUR = 3_600_000;

describe('auditTimes', () => {
  it('stamps real time, and keeps a simulated clock’s time apart, named so', () => {
    const simulated = new Date(Date.now() + HOUR);
    const before = Date.now();
    const times = auditTimes({ now: () => simulated, simulatedClock: true });
    const after = Date.now();
    expect(times.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(times.at.getTime()).toBeLessThanOrEqual(after);
    expect(times.simulatedAt).toEqual(simulated);
  });

  it('has no simulated time on a real clock', () => {
    const times = auditTimes({ now: () => new Date(0), simulatedClock: false });
    expect(times).not.toHaveProperty('simulatedAt');
    expect(times.at.getTime()).toBeGreaterThan(0);
  });
});
