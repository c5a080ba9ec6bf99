import { describe, expect, it } from 'vitest';
import { handOverTime } from './hand-over-times.js';

const H = 3_600_000;
const span = { earliestMs: 1_000 * H, endMs: 1_002 * H, latestMs: 1_002 * H + 72 * H };
const window = { anchorMs: 5_000_000, pastMs: 10_000, futureMs: 10_000 };

describe('handOverTime', () => {
  const at = handOverTime(span, window);
  const ms = (t: number) => at(new Date(t)).getTime();

  it('maps the simulated span onto the seconds before the anchor, its end onto the anchor', () => {
    expect(ms(span.earliestMs)).toBe(window.anchorMs - 10_000);
    expect(ms(span.endMs)).toBe(window.anchorMs);
    expect(ms(span.earliestMs + H)).toBe(window.anchorMs - 5_000);
  });

  it('maps times after the end onto the seconds after the anchor', () => {
    expect(ms(span.latestMs)).toBe(window.anchorMs + 10_000);
    expect(ms(span.endMs + 36 * H)).toBe(window.anchorMs + 5_000);
  });

  it('keeps the order of any times, and keeps every time inside the window', () => {
    const times = Array.from({ length: 500 }, (_, i) => span.earliestMs - H + i * 0.16 * H);
    const moved = times.map(ms);
    for (let i = 1; i < moved.length; i++) expect(moved[i]!).toBeGreaterThanOrEqual(moved[i - 1]!);
    for (const m of moved) {
      expect(m).toBeGreaterThanOrEqual(window.anchorMs - 10_000);
      expect(m).toBeLessThanOrEqual(window.anchorMs + 10_000);
    }
  });

  it('handles a span of one instant', () => {
    const point = handOverTime({ earliestMs: 7, endMs: 7, latestMs: 7 }, window);
    expect(point(new Date(7)).getTime()).toBe(window.anchorMs);
  });
});
