import { describe, expect, it } from 'vitest';
import { count, duration, hourly, passRate, percent, signedUsd, timeUnit, usd } from './format.js';
import { escapeXml, n, niceTicks } from './svg.js';

describe('number formats', () => {
  it('writes money from cents as dollars, exactly', () => {
    expect(usd(0)).toBe('$0.00');
    expect(usd(5)).toBe('$0.05');
    expect(usd(123_456_789)).toBe('$1,234,567.89');
    expect(usd(-120)).toBe('-$1.20');
    expect(usd(null)).toBe('—');
    expect(signedUsd(360)).toBe('+$3.60');
    expect(signedUsd(-120)).toBe('-$1.20');
    expect(signedUsd(0)).toBe('$0.00');
    expect(hourly(750)).toBe('$7.50/h');
  });

  it('writes counts, shares and rates', () => {
    expect(count(1234567)).toBe('1,234,567');
    expect(count(999)).toBe('999');
    expect(percent(0.82353)).toBe('82.4%');
    expect(percent(null)).toBe('—');
    expect(passRate({ total: 17, passed: 14, passRate: 14 / 17 })).toBe('14 / 17 (82.4%)');
    expect(passRate({ total: 0, passed: 0, passRate: null })).toBe('—');
  });

  it('writes durations in the unit that suits them', () => {
    expect(duration(45)).toBe('45.0 s');
    expect(duration(738)).toBe('12.3 min');
    expect(duration(9000)).toBe('2.5 h');
    expect(duration(3 * 86_400)).toBe('3.0 d');
    expect(duration(null)).toBe('—');
    expect(timeUnit(3600).short).toBe('min');
    expect(timeUnit(10 * 3600).short).toBe('h');
    expect(timeUnit(10 * 86_400).short).toBe('d');
  });
});

describe('svg helpers', () => {
  it('escapes text and attribute values', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('writes coordinates with one decimal at most', () => {
    expect(n(12)).toBe('12');
    expect(n(12.345)).toBe('12.3');
    expect(n(-0.01)).toBe('0');
    expect(n(0.1 + 0.2)).toBe('0.3');
  });

  it('picks ticks at 1, 2 or 5 times a power of ten, covering the maximum', () => {
    expect(niceTicks(100, 5)).toEqual({ step: 20, values: [0, 20, 40, 60, 80, 100], decimals: 0 });
    expect(niceTicks(342, 5).values).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(1, 5)).toEqual({ step: 0.2, values: [0, 0.2, 0.4, 0.6, 0.8, 1], decimals: 1 });
    expect(niceTicks(4.3, 12)).toMatchObject({ step: 0.5, decimals: 1 });
    expect(niceTicks(4.3, 12).values.at(-1)).toBe(4.5);
    expect(niceTicks(0).values).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});
