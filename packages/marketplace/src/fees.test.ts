import { describe, expect, it } from 'vitest';
import {
  addCosts,
  assignmentFeeCents,
  assignmentsCost,
  bonusCost,
  bonusFeeCents,
  feePercent,
  formatUsd,
  hitCost,
  parseUsd,
  prolificFeeCents,
} from './fees.js';

const plain = (maxAssignments: number) => ({ maxAssignments, masters: false });

describe('MTurk fee rules', () => {
  it.each([
    [1, 20],
    [3, 20],
    [9, 20],
    [10, 40],
    [11, 40],
  ])('charges %i-assignment HITs %i%% of the reward', (n, percent) => {
    expect(feePercent(plain(n))).toBe(percent);
  });

  it('adds 5% for Masters, on top of the 10+ surcharge too', () => {
    expect(feePercent({ maxAssignments: 3, masters: true })).toBe(25);
    expect(feePercent({ maxAssignments: 10, masters: true })).toBe(45);
  });

  it.each([
    // reward cents, assignments, expected fee per assignment
    [100, 1, 20],
    [100, 3, 20],
    [100, 9, 20],
    [100, 10, 40],
    [100, 11, 40],
    [12, 3, 2], // 2.4c rounds to 2c
    [13, 3, 3], // 2.6c rounds to 3c
    [25, 3, 5],
    [25, 10, 10],
  ])('reward %ic with %i assignments: fee %ic per assignment', (reward, n, fee) => {
    expect(assignmentFeeCents(reward, plain(n))).toBe(fee);
  });

  it('never charges less than $0.01 per assignment', () => {
    expect(assignmentFeeCents(1, plain(3))).toBe(1);
    expect(assignmentFeeCents(4, plain(3))).toBe(1);
    expect(assignmentFeeCents(0, plain(3))).toBe(1);
    expect(assignmentFeeCents(2, plain(10))).toBe(1);
  });

  it('rounds half a cent up', () => {
    // with Masters (25%): 0.5c -> 1c, 2.5c -> 3c, 7.5c -> 8c
    expect(assignmentFeeCents(2, { maxAssignments: 3, masters: true })).toBe(1);
    expect(assignmentFeeCents(10, { maxAssignments: 3, masters: true })).toBe(3); // 2.5c -> 3c
    expect(assignmentFeeCents(30, { maxAssignments: 3, masters: true })).toBe(8); // 7.5c -> 8c
  });

  it('costs a whole HIT at 1, 3, 9, 10 and 11 assignments', () => {
    expect(hitCost(50, plain(1))).toEqual({ rewards: 50, fees: 10, total: 60 });
    expect(hitCost(50, plain(3))).toEqual({ rewards: 150, fees: 30, total: 180 });
    expect(hitCost(50, plain(9))).toEqual({ rewards: 450, fees: 90, total: 540 });
    expect(hitCost(50, plain(10))).toEqual({ rewards: 500, fees: 200, total: 700 });
    expect(hitCost(50, plain(11))).toEqual({ rewards: 550, fees: 220, total: 770 });
    expect(assignmentsCost(50, 2, plain(10))).toEqual({ rewards: 100, fees: 40, total: 140 });
  });

  it('charges 20% on bonuses, at least $0.01, whatever the HIT', () => {
    expect(bonusFeeCents(100)).toBe(20);
    expect(bonusFeeCents(3)).toBe(1);
    expect(bonusFeeCents(1)).toBe(1);
    expect(bonusFeeCents(8)).toBe(2); // 1.6c -> 2c
    expect(bonusCost(250)).toEqual({ rewards: 250, fees: 50, total: 300 });
  });

  it('adds costs exactly', () => {
    expect(addCosts(hitCost(12, plain(3)), bonusCost(5))).toEqual({ rewards: 41, fees: 7, total: 48 });
    expect(addCosts()).toEqual({ rewards: 0, fees: 0, total: 0 });
  });

  it('refuses fractional or negative cents', () => {
    expect(() => assignmentFeeCents(1.5, plain(3))).toThrow(RangeError);
    expect(() => bonusFeeCents(-1)).toThrow(RangeError);
    expect(() => assignmentsCost(10, 1.5, plain(3))).toThrow(RangeError);
  });
});

describe("Prolific's fee rules", () => {
  it('takes a third of rewards and bonuses, whatever the places or Masters', () => {
    // Prolific's documented example: bonuses of 2 x 4.25 bear 283.34 in fees
    expect(prolificFeeCents(850)).toBe(283);
    expect(prolificFeeCents(55)).toBe(18);
    expect(prolificFeeCents(0)).toBe(0);
    const prolific = { maxAssignments: 12, masters: true, platform: 'prolific' as const };
    expect(assignmentFeeCents(100, prolific)).toBe(33);
    expect(feePercent(prolific)).toBe(33.33);
    expect(assignmentsCost(55, 3, prolific)).toEqual({ rewards: 165, fees: 54, total: 219 });
    expect(bonusFeeCents(50, 'prolific')).toBe(17);
    expect(bonusCost(50, 'prolific')).toEqual({ rewards: 50, fees: 17, total: 67 });
    // MTurk's stay the default
    expect(bonusFeeCents(50)).toBe(10);
  });
});

describe('USD amounts', () => {
  it.each([
    ['0.12', 12],
    ['1', 100],
    ['1.', 100],
    ['3.5', 350],
    ['10.00', 1000],
    ['0', 0],
  ])('parses %s as %i cents', (s, cents) => {
    expect(parseUsd(s)).toBe(cents);
  });

  it.each(['', '.5', '1.234', '-1', '1e2', ' 1', 'abc'])('rejects %j', (s) => {
    expect(() => parseUsd(s)).toThrow(RangeError);
  });

  it('formats cents', () => {
    expect(formatUsd(12)).toBe('0.12');
    expect(formatUsd(1000)).toBe('10.00');
    expect(formatUsd(5)).toBe('0.05');
    expect(formatUsd(-150)).toBe('-1.50');
  });
});
