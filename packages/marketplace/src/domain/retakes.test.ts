import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { newQualificationType } from './qualification-types.js';
import { checkRetakePolicy, checkRetryAllowed, requestTiming } from './retakes.js';

const now = new Date('2026-03-01T00:00:00Z');
const later = (s: number) => new Date(now.getTime() + s * 1000);
const plain = newQualificationType('Q1', { Name: 'Relevance test', Description: 'd', QualificationTypeStatus: 'Active' }, now).state;
const test = { ...plain, hasTest: true, hasAnswerKey: true };
const message = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof DomainError ? `${err.code}: ${err.message}` : String(err);
  }
  return 'allowed';
};

describe('retakes of a qualification test', () => {
  it('by default allow one retake 10 minutes after the last request, even without RetryDelayInSeconds', () => {
    const first = { lastRequestAt: now };
    expect(requestTiming(test, {}, now)).toEqual({ allowed: true, retake: false });
    expect(requestTiming(test, first, later(599))).toEqual({ allowed: false, nextAt: later(600), retakesLeft: 1 });
    expect(message(() => checkRetryAllowed(test, first, later(60)))).toBe(
      'QualificationRetryNotAllowed: You can request the qualification "Relevance test" again after 2026-03-01T00:10:00.000Z (1 retake left).',
    );
    expect(checkRetryAllowed(test, first, later(600))).toEqual({ retake: true });
    const used = { lastRequestAt: later(600), retakesUsed: 1 };
    expect(requestTiming(test, used, later(10 * 86_400))).toEqual({ allowed: false, nextAt: null, retakesLeft: 0 });
    expect(message(() => checkRetryAllowed(test, used, later(700)))).toBe(
      'QualificationRetryNotAllowed: You have taken the test of "Relevance test" as many times as it allows.',
    );
  });

  it("shorten a requester's 24-hour RetryDelayInSeconds, and take nothing from it", () => {
    const daily = { ...test, retryDelaySeconds: 86_400 };
    expect(checkRetryAllowed(daily, { lastRequestAt: now }, later(600))).toEqual({ retake: true });
    expect(requestTiming(daily, { lastRequestAt: later(600), retakesUsed: 1 }, later(1200))).toEqual({
      allowed: false,
      nextAt: later(600 + 86_400),
      retakesLeft: 0,
    });
    expect(checkRetryAllowed(daily, { lastRequestAt: later(600), retakesUsed: 1 }, later(600 + 86_400))).toEqual({ retake: false });
  });

  it("follow the policy set on the type, and leave types without a test to MTurk's rule", () => {
    const strict = { ...test, retakePolicy: { retakes: 0, delaySeconds: 600 } };
    expect(requestTiming(strict, { lastRequestAt: now }, later(3600))).toEqual({ allowed: false, nextAt: null, retakesLeft: 0 });
    const generous = { ...test, retakePolicy: { retakes: 3, delaySeconds: 0 } };
    expect(checkRetryAllowed(generous, { lastRequestAt: now, retakesUsed: 2 }, now)).toEqual({ retake: true });
    expect(requestTiming(plain, { lastRequestAt: now }, later(3600))).toEqual({ allowed: false, nextAt: null, retakesLeft: 0 });
    expect(message(() => checkRetryAllowed(plain, { lastRequestAt: now }, later(3600)))).toMatch(/does not allow retries/);
  });

  it('checks a policy', () => {
    expect(checkRetakePolicy({ retakes: 2, delaySeconds: 300 })).toEqual({ retakes: 2, delaySeconds: 300 });
    expect(message(() => checkRetakePolicy({ retakes: -1, delaySeconds: 300 }))).toMatch(
      /^ValidationException: retakes: must be a whole number from 0 to 100/,
    );
    expect(message(() => checkRetakePolicy({ retakes: 1, delaySeconds: 1.5 }))).toMatch(/^ValidationException: delaySeconds/);
  });
});
