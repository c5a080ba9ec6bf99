import { describe, expect, it } from 'vitest';
import { approvalCharge, assignmentsCharge, balanceOf, bonusCharge, centsOf, requiresMasters } from './money.js';

describe('money', () => {
  const masters = [{ QualificationTypeId: '2F1QJWKUDD8XADTFD2Q0G6UTO95ALH', Comparator: 'Exists' as const }];
  it('charges reward plus the exact fee per approval', () => {
    expect(approvalCharge(50, 1, [])).toEqual({ rewardCents: 50, feeCents: 10, totalCents: 60 });
    expect(approvalCharge(50, 3, [])).toEqual({ rewardCents: 50, feeCents: 10, totalCents: 60 });
    expect(approvalCharge(50, 10, [])).toEqual({ rewardCents: 50, feeCents: 20, totalCents: 70 });
    expect(approvalCharge(50, 3, masters)).toEqual({ rewardCents: 50, feeCents: 13, totalCents: 63 }); // 12.5 -> 13
    expect(approvalCharge(2, 1, [])).toEqual({ rewardCents: 2, feeCents: 1, totalCents: 3 });
    expect(assignmentsCharge(50, 10, [], 10)).toEqual({ rewardCents: 500, feeCents: 200, totalCents: 700 });
  });
  it('knows Masters requirements', () => {
    expect(requiresMasters(masters)).toBe(true);
    expect(requiresMasters([{ QualificationTypeId: '2ARFPLSP75KLA8M8DH1HTEQVJT3SY6', Comparator: 'DoesNotExist' }])).toBe(false);
    expect(requiresMasters([])).toBe(false);
  });
  it('charges 20% on bonuses, at least a cent', () => {
    expect(bonusCharge(100)).toEqual({ rewardCents: 100, feeCents: 20, totalCents: 120 });
    expect(bonusCharge(1)).toEqual({ rewardCents: 1, feeCents: 1, totalCents: 2 });
  });
  it('sums the ledger', () => {
    expect(balanceOf([{ amountCents: 1_000_000 }, { amountCents: -60 }, { amountCents: -120 }])).toBe(999_820);
    expect(centsOf('0.5')).toBe(50);
    expect(centsOf('1.234')).toBeUndefined();
  });
});
