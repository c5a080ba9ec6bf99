import { describe, expect, it } from 'vitest';
import { Clock, advancedBy, realTimeClock, simulatedMs, withHold, withSpeed } from './clock.js';

describe('marketplace clock', () => {
  it('follows real time at speed 1', () => {
    const s = realTimeClock(1000);
    expect(simulatedMs(s, 1000)).toBe(1000);
    expect(simulatedMs(s, 6000)).toBe(6000);
  });

  it('speeds up from the moment the speed changes', () => {
    const s = withSpeed(realTimeClock(0), 3600, 10_000); // from t=10s, an hour per second
    expect(simulatedMs(s, 10_000)).toBe(10_000);
    expect(simulatedMs(s, 11_000)).toBe(10_000 + 3_600_000);
  });

  it('moves forward on demand, never backwards', () => {
    const s = advancedBy(realTimeClock(0), 86_400_000, 500);
    expect(simulatedMs(s, 500)).toBe(500 + 86_400_000);
    expect(() => advancedBy(s, -1, 600)).toThrow(RangeError);
    expect(() => withSpeed(s, 0, 600)).toThrow(RangeError);
  });

  it('does not go back when the real clock does', () => {
    const s = realTimeClock(1000);
    expect(simulatedMs(s, 900)).toBe(1000);
  });

  it('reports changes so they can be persisted', () => {
    let real = 0;
    const seen: number[] = [];
    const clock = new Clock(
      realTimeClock(0),
      () => real,
      (st) => seen.push(st.speed),
    );
    real = 1000;
    clock.setSpeed(10);
    real = 2000;
    expect(clock.nowMs()).toBe(1000 + 10_000);
    clock.advance(5000);
    expect(clock.now().getTime()).toBe(16_000);
    expect(seen).toEqual([10, 10]);
    expect(clock.speed).toBe(10);
  });

  it('stands still while held, moving only when advanced, and runs on at its speed when released', () => {
    let real = 0;
    const clock = new Clock(withSpeed(realTimeClock(0), 100, 0), () => real);
    clock.hold();
    real = 5000;
    expect(clock.nowMs()).toBe(0);
    expect(clock.held).toBe(true);
    expect(clock.speed).toBe(100);
    clock.advanceTo(60_000);
    clock.advanceTo(30_000); // never backwards
    expect(clock.nowMs()).toBe(60_000);
    clock.setSpeed(10); // a new nominal speed keeps it held
    real = 6000;
    expect(clock.nowMs()).toBe(60_000);
    clock.release();
    real = 7000;
    expect(clock.nowMs()).toBe(60_000 + 10 * 1000);
    expect(clock.held).toBe(false);
  });

  it('holds and releases as pure state changes', () => {
    const held = withHold(withSpeed(realTimeClock(0), 2, 0), true, 1000);
    expect(simulatedMs(held, 50_000)).toBe(2000);
    expect(simulatedMs(advancedBy(held, 500, 60_000), 90_000)).toBe(2500);
    expect(simulatedMs(withHold(held, false, 70_000), 71_000)).toBe(2000 + 2000);
  });
});
