import { describe, expect, it } from 'vitest';
import { ChaosControl } from './chaos-control.js';
import { NO_CHAOS } from './chaos.js';

describe('ChaosControl', () => {
  it('passes everything by default', () => {
    const c = new ChaosControl();
    for (let i = 0; i < 100; i++) expect(c.decide()).toEqual({ kind: 'pass' });
    expect(c.current).toEqual(NO_CHAOS);
  });

  it('throttles beyond the bucket, refilling with real time', () => {
    let now = 0;
    const c = new ChaosControl(
      { ...NO_CHAOS, throttleRate: 2, throttleBurst: 2 },
      () => 0.99,
      () => now,
    );
    expect([c.decide(), c.decide(), c.decide()].map((d) => d.kind)).toEqual(['pass', 'pass', 'throttle']);
    now = 500;
    expect(c.decide().kind).toBe('pass');
    expect(c.decide().kind).toBe('throttle');
  });

  it('changes at runtime, refilling the bucket', () => {
    let now = 0;
    const c = new ChaosControl(
      NO_CHAOS,
      () => 0.1,
      () => now,
    );
    expect(c.set({ faultShare: 0.5 })).toMatchObject({ faultShare: 0.5 });
    expect(c.decide()).toEqual({ kind: 'fault' });
    c.set({ faultShare: 0, throttleRate: 1 });
    expect(c.current.throttleBurst).toBe(1);
    now = 10;
    expect(c.decide().kind).toBe('pass');
    expect(c.decide().kind).toBe('throttle');
  });
});
