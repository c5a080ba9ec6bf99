import { describe, expect, it } from 'vitest';
import { bonusRequestToken, bonusTotalCents, bonusWithinBudget, parseBonusAmount } from './bonus-terms.js';

describe('parseBonusAmount', () => {
  it('reads dollars and cents', () => {
    expect(parseBonusAmount('0.50')).toBe(50);
    expect(parseBonusAmount('2')).toBe(200);
    expect(parseBonusAmount('$1.5')).toBe(150);
    expect(parseBonusAmount(' 0.01 ')).toBe(1);
  });
  it('refuses anything else with one line naming the option', () => {
    expect(() => parseBonusAmount('abc')).toThrow(/^--amount: expected a USD amount such as 0\.50/);
    expect(() => parseBonusAmount('0.001')).toThrow(/^--amount: expected/);
    expect(() => parseBonusAmount('-1')).toThrow(/^--amount: expected/);
    expect(() => parseBonusAmount('0.00')).toThrow('--amount: a bonus must be at least 0.01 USD');
    expect(() => parseBonusAmount('x', 'amount')).toThrow(/^amount: /);
  });
});

describe('bonusRequestToken', () => {
  const bonus = { workerId: 'W1', assignmentId: 'A1', amountCents: 50, reason: 'careful' };
  it('is the same for the same bonus and at most 64 characters', () => {
    const t = bonusRequestToken(bonus);
    expect(t).toBe(bonusRequestToken({ ...bonus, reason: ' careful ' }));
    expect(t.length).toBeLessThanOrEqual(64);
    expect(t).toMatch(/^qrelay-bonus-[0-9a-f]{40}$/);
  });
  it('differs when any part of the bonus differs', () => {
    const t = bonusRequestToken(bonus);
    for (const other of [{ workerId: 'W2' }, { assignmentId: 'A2' }, { amountCents: 51 }, { reason: 'other' }])
      expect(bonusRequestToken({ ...bonus, ...other })).not.toBe(t);
  });
  it('follows a given token alone', () => {
    expect(bonusRequestToken({ ...bonus, token: 'mine' })).toBe(bonusRequestToken({ ...bonus, amountCents: 99, token: 'mine' }));
    expect(bonusRequestToken({ ...bonus, token: 'mine' })).not.toBe(bonusRequestToken(bonus));
  });
});

describe('budget', () => {
  it('adds MTurk 20% fee (at least a cent) to a bonus', () => {
    expect(bonusTotalCents(50)).toBe(60);
    expect(bonusTotalCents(1)).toBe(2);
  });
  it('holds committed HITs, earlier bonuses and the new one to the budget', () => {
    expect(bonusWithinBudget(null, 10_000, 10_000, 10_000)).toBe(true);
    expect(bonusWithinBudget(1000, 396, 60, 450)).toBe(true); // 396 + 60 + 540 = 996
    expect(bonusWithinBudget(1000, 396, 60, 500)).toBe(false); // 396 + 60 + 600
    expect(bonusWithinBudget(1000, 400, 0, 500)).toBe(true); // exactly the budget
  });
});
