import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, work } from '../../test/reports/fixtures.js';
import type { Judgment } from '../domain/cases.js';
import { quoteCost } from '../hits/quote.js';
import { buildReport } from './build.js';
import type { ReportInput } from './input.js';

/** HIT `id` with `real` items and one "yes" check; every answer right unless `failCheck`. */
function batch(spec: {
  hits: {
    id: string;
    real: number;
    checks?: number;
    reward?: number;
    max?: number;
    masters?: boolean;
    work: { worker: string; status?: 'approved' | 'rejected' | 'submitted'; discarded?: boolean; failCheck?: boolean }[];
  }[];
  bonuses?: ReportInput['bonuses'];
  holes?: number | null;
  quote?: ReportInput['quote'];
}): ReportInput {
  const items: ReportInput['items'] = [];
  const hits: ReportInput['hits'] = [];
  const assignments: ReportInput['assignments'] = [];
  for (const h of spec.hits) {
    const real = Array.from({ length: h.real }, (_, i) => `${h.id}-i${i}`);
    const checks = Array.from({ length: h.checks ?? 1 }, (_, i) => ({ item: `${h.id}-g${i}`, expected: 'yes' as Judgment }));
    items.push(...real.map((id) => item(id)));
    hits.push(hit(h.id, real, checks, { rewardCents: h.reward ?? 100, maxAssignments: h.max ?? 3, masters: h.masters ?? false }));
    h.work.forEach((w, k) => {
      const labels: Record<string, Judgment> = Object.fromEntries([
        ...real.map((id) => [id, 'yes']),
        ...checks.map((c) => [c.item, w.failCheck ? 'no' : 'yes']),
      ]);
      assignments.push(
        work(`${h.id}-a${k}`, h.id, w.worker, labels, {
          status: w.status ?? 'approved',
          discarded: w.discarded ?? false,
          start: 60 + k * 60,
        }),
      );
    });
  }
  return {
    batch: 'b',
    publishedAt: PUBLISHED,
    items,
    hits,
    assignments,
    bonuses: spec.bonuses ?? [],
    holesFound: spec.holes ?? null,
    quote: spec.quote ?? null,
  };
}

const three = [{ worker: 'w1' }, { worker: 'w2' }, { worker: 'w3' }];

describe('cost: what was paid, by the real fee rules', () => {
  it('pays reward + 20% per approved assignment; rejected work costs nothing; pending work is owed, not paid', () => {
    const r = buildReport(
      batch({
        hits: [
          {
            id: 'H',
            real: 9,
            max: 4,
            work: [
              { worker: 'w1' },
              { worker: 'w2' },
              { worker: 'w3', status: 'rejected', failCheck: true },
              { worker: 'w4', status: 'submitted' },
            ],
          },
        ],
      }),
    );
    expect(r.cost).toMatchObject({
      currency: 'USD',
      unit: 'cents',
      rewards: 200,
      feesOnRewards: 40,
      bonuses: 0,
      feesOnBonuses: 0,
      fees: 40,
      total: 240,
      paidAssignments: 2,
      rejectedAssignments: 1,
    });
    expect(r.cost.pendingReview).toEqual({ assignments: 1, rewards: 100, fees: 20, total: 120 });
  });

  it('pays for approved-and-discarded work and says how much', () => {
    const r = buildReport(
      batch({ hits: [{ id: 'H', real: 9, max: 4, work: [...three, { worker: 'w4', discarded: true, failCheck: true }] }] }),
    );
    expect(r.cost).toMatchObject({ rewards: 400, fees: 80, total: 480, paidAssignments: 4 });
    expect(r.cost.discardedWork).toEqual({ assignments: 1, cents: 120 });
  });

  it('charges 40% on HITs with 10 or more assignments, +5% with Masters, at each HIT’s own terms', () => {
    const ten = Array.from({ length: 10 }, (_, k) => ({ worker: `w${k}` }));
    const r = buildReport(
      batch({
        hits: [
          { id: 'A', real: 9, work: three },
          { id: 'B', real: 9, max: 10, work: ten },
          { id: 'C', real: 9, masters: true, work: three },
          { id: 'D', real: 9, max: 10, masters: true, work: [{ worker: 'w1' }] },
        ],
      }),
    );
    // A: 3 x 20, B: 10 x 40, C: 3 x 25, D: 1 x 45
    expect(r.cost.feesOnRewards).toBe(60 + 400 + 75 + 45);
    expect(r.cost.rewards).toBe(1700);
    expect(r.cost.feeTerms).toEqual([
      { rewardCents: 100, maxAssignments: 3, masters: false, feePercent: 20, feePerAssignmentCents: 20, hits: 1 },
      { rewardCents: 100, maxAssignments: 3, masters: true, feePercent: 25, feePerAssignmentCents: 25, hits: 1 },
      { rewardCents: 100, maxAssignments: 10, masters: false, feePercent: 40, feePerAssignmentCents: 40, hits: 1 },
      { rewardCents: 100, maxAssignments: 10, masters: true, feePercent: 45, feePerAssignmentCents: 45, hits: 1 },
    ]);
  });

  it('charges at least one cent per assignment and per bonus; bonus fees are 20% whatever the HIT', () => {
    const r = buildReport(
      batch({
        // 20% of 1 cent is 0.2 cents: 1 cent; 20% of a 2-cent bonus is 0.4 cents: 1 cent
        hits: [{ id: 'H', real: 1, reward: 1, work: [{ worker: 'w1' }, { worker: 'w2' }] }],
        bonuses: [
          { worker: 'w1', assignmentId: 'H-a0', amountCents: 2 },
          { worker: 'w2', amountCents: 250 },
        ],
      }),
    );
    expect(r.cost).toMatchObject({ rewards: 2, feesOnRewards: 2, bonuses: 252, feesOnBonuses: 1 + 50, fees: 53, total: 2 + 252 + 53 });
  });

  it('apportions the attention-check overhead per HIT by its share of check items, like the quote', () => {
    const r = buildReport(
      batch({
        hits: [
          { id: 'A', real: 9, work: three }, // 3 x 120 = 360, one item in ten -> 36
          { id: 'B', real: 2, reward: 55, work: three }, // 3 x 66 = 198, one in three -> 66
          { id: 'C', real: 3, checks: 0, work: three }, // no checks -> 0
        ],
      }),
    );
    expect(r.cost.checkOverhead).toBe(36 + 66);
    expect(r.cost.checkOverheadShare).toBeCloseTo(102 / (360 + 198 + 360), 12);
    // only paid assignments carry overhead
    const rejected = buildReport(
      batch({ hits: [{ id: 'A', real: 9, work: [{ worker: 'w1' }, { worker: 'w2', status: 'rejected', failCheck: true }] }] }),
    );
    expect(rejected.cost.checkOverhead).toBe(12);
  });

  it('divides the total by adjudicated labels and by holes found, rounded half up', () => {
    const r = buildReport(batch({ hits: [{ id: 'H', real: 7, work: three }], holes: 3 }));
    expect(r.labels).toBe(7);
    expect(r.cost.total).toBe(360);
    expect(r.cost.perLabel).toBe(51); // 51.43
    expect(r.cost.perHole).toBe(120);
    expect(r.cost.holesFound).toBe(3);
    expect(buildReport(batch({ hits: [{ id: 'H', real: 7, work: three }], holes: 0 })).cost.perHole).toBeNull();
    expect(buildReport(batch({ hits: [{ id: 'H', real: 7, work: three }] })).cost).toMatchObject({ perHole: null, holesFound: null });
  });

  it('has no cost per label before any label, and costs nothing before any work', () => {
    const r = buildReport(batch({ hits: [{ id: 'H', real: 9, work: [] }] }));
    expect(r.cost).toMatchObject({ total: 0, perLabel: null, checkOverhead: 0, checkOverheadShare: null });
  });
});

describe('cost: quote vs actual', () => {
  const quoteFor = (hits: number) =>
    quoteCost({
      hits: Array.from({ length: hits }, () => ({ realItems: 9, checks: 1 })),
      reward: '1.00',
      assignmentsPerHit: 3,
      masters: false,
    });

  it('explains the difference exactly: extra assignments, unsubmitted, pending, rejected, bonuses', () => {
    const r = buildReport(
      batch({
        quote: quoteFor(3),
        hits: [
          // a discarded assignment, made up by an extra assignment (MaxAssignments 3 -> 4)
          {
            id: 'A',
            real: 9,
            max: 4,
            work: [{ worker: 'w1' }, { worker: 'w2' }, { worker: 'w3', discarded: true, failCheck: true }, { worker: 'w4' }],
          },
          // one rejected, one pending review
          {
            id: 'B',
            real: 9,
            max: 4,
            work: [
              { worker: 'w1' },
              { worker: 'w2', status: 'rejected', failCheck: true },
              { worker: 'w3', status: 'submitted' },
              { worker: 'w4' },
            ],
          },
          // one slot never taken
          { id: 'C', real: 9, work: [{ worker: 'w1' }, { worker: 'w2' }] },
        ],
        bonuses: [{ worker: 'w1', amountCents: 50 }],
      }),
    );
    const q = r.cost.quote!;
    expect(q.quoted.total).toBe(1080);
    expect(r.cost.total).toBe(8 * 120 + 50 + 10);
    expect(q.actual).toBe(r.cost.total);
    expect(q.difference).toBe(r.cost.total - 1080);
    expect(q.differences).toEqual([
      { reason: 'extra-assignments', count: 2, cents: 240 },
      { reason: 'not-submitted', count: -1, cents: -120 },
      { reason: 'pending-review', count: -1, cents: -120 },
      { reason: 'rejected', count: -1, cents: -120 },
      { reason: 'bonuses', count: 1, cents: 60 },
    ]);
    expect(q.quoted.total + q.differences.reduce((sum, d) => sum + d.cents, 0)).toBe(q.actual);
    expect(q.discardedWork).toEqual({ assignments: 1, cents: 120 });
    expect(q.checkOverhead).toEqual({ quoted: 108, actual: 12 * 4 + 12 * 2 + 12 * 2 });
    expect(q.perLabel).toEqual({ quoted: 40, actual: Math.round(r.cost.total / 27) });
  });

  it('counts a HIT left unpublished as fewer assignments offered', () => {
    const r = buildReport(batch({ quote: quoteFor(2), hits: [{ id: 'A', real: 9, work: three }] }));
    const q = r.cost.quote!;
    expect(q.differences[0]).toEqual({ reason: 'extra-assignments', count: -3, cents: -360 });
    expect(q.actual).toBe(360);
    expect(q.quoted.total + q.differences.reduce((sum, d) => sum + d.cents, 0)).toBe(q.actual);
  });

  it('is null without a quote', () => {
    expect(buildReport(batch({ hits: [{ id: 'A', real: 9, work: three }] })).cost.quote).toBeNull();
  });
});
