import { describe, expect, it } from 'vitest';
import { estimateTokens, retryAfterMs } from './llm.js';

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after in seconds, or as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:03 GMT' }), now)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
  it('estimates tokens as a quarter of the characters', () => {
    expect(
      estimateTokens({
        model: 'm',
        temperature: 0,
        messages: [
          { role: 'user', content: 'x'.repeat(10) },
          { role: 'system', content: 'y'.repeat(5) },
        ],
      }),
    ).toBe(4);
  });
});
