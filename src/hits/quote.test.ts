import { describe, expect, it } from 'vitest';
import { quoteCost } from './quote.js';

const hits = (full: number, last?: { realItems: number; checks: number }) => [
  ...Array.from({ length: full }, () => ({ realItems: 9, checks: 1 })),
  ...(last ? [last] : []),
];

describe('quoteCost', () => {
  it('quotes 3-assignment HITs at 20% fees, with the check overhead and the cost per label', () => {
    const q = quoteCost({ hits: hits(10), reward: '1.00', assignmentsPerHit: 3, masters: false });
    expect(q).toEqual({
      currency: 'USD',
      unit: 'cents',
      hits: 10,
      assignmentsPerHit: 3,
      assignments: 30,
      realItems: 90,
      checkItems: 10,
      rewardPerAssignment: 100,
      feePerAssignment: 20,
      feePercent: 20,
      masters: false,
      rewards: 3000,
      fees: 600,
      total: 3600,
      checkOverhead: 360, // one item in ten of each HIT's $3.60
      checkShare: 0.1,
      perLabel: 40, // $36.00 / 90 real items, 3 votes each
    });
  });

  it('charges 40% when a HIT has 10 or more assignments', () => {
    const q = quoteCost({ hits: hits(10), reward: '1.00', assignmentsPerHit: 10, masters: false });
    expect(q).toMatchObject({
      assignments: 100,
      feePerAssignment: 40,
      feePercent: 40,
      rewards: 10_000,
      fees: 4000,
      total: 14_000,
      perLabel: 156,
    });
    // 9 assignments stay at 20%
    expect(quoteCost({ hits: hits(1), reward: '1.00', assignmentsPerHit: 9, masters: false }).feePercent).toBe(20);
  });

  it('adds 5% for Masters', () => {
    expect(quoteCost({ hits: hits(1), reward: '1.00', assignmentsPerHit: 3, masters: true })).toMatchObject({
      feePercent: 25,
      feePerAssignment: 25,
      total: 375,
    });
    expect(quoteCost({ hits: hits(1), reward: '1.00', assignmentsPerHit: 10, masters: true })).toMatchObject({
      feePercent: 45,
      total: 1450,
    });
  });

  it('charges a smaller last HIT the full reward and apportions its overhead by its own share', () => {
    const q = quoteCost({ hits: hits(2, { realItems: 2, checks: 1 }), reward: '0.55', assignmentsPerHit: 3, masters: false });
    // per HIT: 3 x (55 + 11) = 198 cents
    expect(q).toMatchObject({ hits: 3, realItems: 20, checkItems: 3, rewards: 495, fees: 99, total: 594 });
    // 198/10 = 19.8 -> 20 twice, 198/3 = 66
    expect(q.checkOverhead).toBe(106);
    expect(q.perLabel).toBe(30); // 594 / 20 = 29.7
  });

  it('applies the minimum fee of one cent per assignment', () => {
    expect(quoteCost({ hits: hits(1), reward: '0.02', assignmentsPerHit: 3, masters: false })).toMatchObject({
      feePerAssignment: 1,
      fees: 3,
      total: 9,
    });
  });

  it('quotes an empty plan as zero and refuses bad input', () => {
    expect(quoteCost({ hits: [], reward: '1.00', assignmentsPerHit: 3, masters: false })).toMatchObject({
      total: 0,
      perLabel: 0,
      checkShare: 0,
    });
    expect(() => quoteCost({ hits: hits(1), reward: '1.005', assignmentsPerHit: 3, masters: false })).toThrow(RangeError);
    expect(() => quoteCost({ hits: hits(1), reward: '1.00', assignmentsPerHit: 0, masters: false })).toThrow(/assignmentsPerHit/);
    expect(() => quoteCost({ hits: [{ realItems: 0, checks: 0 }], reward: '1.00', assignmentsPerHit: 3, masters: false })).toThrow(
      /at least one item/,
    );
  });
});
