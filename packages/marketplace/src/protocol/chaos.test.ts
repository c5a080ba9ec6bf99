import { describe, expect, it } from 'vitest';
import { NO_CHAOS, decide, parseChaosSpec, takeToken } from './chaos.js';

describe('token bucket', () => {
  it('lets a burst through, then refills at the rate', () => {
    let bucket = { tokens: 3, updatedMs: 0 };
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) {
      const r = takeToken(bucket, 0, 2, 3);
      results.push(r.ok);
      bucket = r.bucket;
    }
    expect(results).toEqual([true, true, true, false]);
    expect(takeToken(bucket, 400, 2, 3).ok).toBe(false); // 0.8 token
    expect(takeToken(bucket, 500, 2, 3).ok).toBe(true); // 1 token after 0.5 s at 2/s
  });

  it('never holds more than the burst', () => {
    const r = takeToken({ tokens: 0, updatedMs: 0 }, 60_000, 10, 2);
    expect(r.ok).toBe(true);
    expect(r.bucket.tokens).toBe(1);
  });
});

describe('chaos decisions', () => {
  const seq = (...values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length]!;
  };

  it('passes everything when off', () => {
    expect(decide(NO_CHAOS, Math.random)).toEqual({ kind: 'pass' });
  });

  it('throttles, faults and slows by independent shares', () => {
    const s = { ...NO_CHAOS, throttleShare: 0.2, faultShare: 0.1, slowShare: 0.5, slowMs: 300 };
    expect(decide(s, seq(0.1))).toEqual({ kind: 'throttle' });
    expect(decide(s, seq(0.5, 0.05))).toEqual({ kind: 'fault' });
    expect(decide(s, seq(0.5, 0.5, 0.4))).toEqual({ kind: 'slow', ms: 300 });
    expect(decide(s, seq(0.5, 0.5, 0.9))).toEqual({ kind: 'pass' });
  });

  it('draws about the configured share over many requests', () => {
    let state = 42;
    const lcg = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const s = { ...NO_CHAOS, throttleShare: 0.2 };
    let throttled = 0;
    for (let i = 0; i < 10_000; i++) if (decide(s, lcg).kind === 'throttle') throttled++;
    expect(throttled).toBeGreaterThan(1800);
    expect(throttled).toBeLessThan(2200);
  });
});

describe('MARKETPLACE_CHAOS spec', () => {
  it('parses every setting', () => {
    expect(parseChaosSpec('throttle-rate=5, throttle-burst=10,throttle-share=0.2,fault-share=0.05,slow-share=0.1,slow-ms=2000')).toEqual({
      throttleRate: 5,
      throttleBurst: 10,
      throttleShare: 0.2,
      faultShare: 0.05,
      slowShare: 0.1,
      slowMs: 2000,
    });
    expect(parseChaosSpec('')).toEqual(NO_CHAOS);
  });

  it('gives a rate without a burst a burst of one second', () => {
    expect(parseChaosSpec('throttle-rate=4').throttleBurst).toBe(4);
  });

  it('names what is wrong', () => {
    expect(() => parseChaosSpec('throttle=1')).toThrow(/unknown setting "throttle"/);
    expect(() => parseChaosSpec('fault-share=2')).toThrow(/share from 0 to 1/);
    expect(() => parseChaosSpec('slow-ms=abc')).toThrow(/slow-ms needs a number/);
  });
});
