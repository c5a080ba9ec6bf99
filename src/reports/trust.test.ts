import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, work } from '../../test/reports/fixtures.js';
import type { Judgment } from '../domain/cases.js';
import { buildReport } from './build.js';
import { checkReportContract } from './contract.js';
import type { ReportInput } from './input.js';
import { agreementIntervals, tableAccuracy } from './trust.js';
import { indexVotes, type Vote } from '../aggregate/index.js';

const Y: Judgment = 'yes';
const N: Judgment = 'no';

/**
 * 12 items in 4 HITs of 3 items plus a yes check and a no check; truth: every third item yes.
 * Three careful workers on every HIT (one error each in HIT 0), and an always-yes worker on HITs 0 and 1.
 */
function batch(): ReportInput {
  const ids = Array.from({ length: 12 }, (_, i) => `i${String(i).padStart(2, '0')}`);
  const truth = (i: number): Judgment => (i % 3 === 0 ? Y : N);
  const hits = [0, 1, 2, 3].map((h) =>
    hit(
      `H${h}`,
      ids.slice(h * 3, h * 3 + 3),
      [
        { item: `gy${h}`, expected: Y },
        { item: `gn${h}`, expected: N },
      ],
      { maxAssignments: 4 },
    ),
  );
  const assignments = hits.flatMap((_, h) =>
    ['c1', 'c2', 'c3', ...(h < 2 ? ['yes'] : [])].map((worker, k) => {
      const answers: Record<string, Judgment> = { [`gy${h}`]: Y, [`gn${h}`]: worker === 'yes' ? Y : N };
      for (let j = 0; j < 3; j++) {
        const i = h * 3 + j;
        const wrong = h === 0 && `c${j + 1}` === worker;
        answers[ids[i]!] = worker === 'yes' ? Y : wrong ? (truth(i) === Y ? N : Y) : truth(i);
      }
      return work(`a${h}-${worker}`, `H${h}`, worker, answers, { start: h * 100 + k * 10 });
    }),
  );
  return {
    batch: 'trust',
    publishedAt: PUBLISHED,
    items: ids.map((id, i) => item(id, { hiddenLabel: truth(i) })),
    hits,
    assignments,
  };
}

describe('the report a reviewer trusts', () => {
  const report = buildReport(batch());

  it('gives accuracy and balanced accuracy on the gold, from every answer to a check', () => {
    // 14 assignments x 2 checks; the always-yes worker fails its 2 no-checks
    expect(report.quality.gold).toMatchObject({ answers: 28, correct: 26, table: { yes: { yes: 14, no: 0 }, no: { yes: 2, no: 12 } } });
    expect(report.quality.gold.accuracy).toBeCloseTo(26 / 28, 12);
    expect(report.quality.gold.balancedAccuracy).toBeCloseTo((1 + 12 / 14) / 2, 12);
  });

  it('computes κ and α on the same items, with 95% bootstrap intervals around them', () => {
    const q = report.quality;
    expect(q.agreementItems).toBe(12);
    expect(q.fleissKappa.itemsUsed).toBe(q.agreementItems);
    expect(q.krippendorffAlpha.itemsUsed).toBe(q.agreementItems);
    for (const [measure, point] of [
      ['fleissKappa', q.fleissKappa.value],
      ['krippendorffAlpha', q.krippendorffAlpha.value],
    ] as const) {
      const i = q.agreementIntervals[measure];
      expect(i).toMatchObject({ measure, level: 0.95, replicates: 1000 });
      expect(i.low!).toBeLessThanOrEqual(point!);
      expect(i.high!).toBeGreaterThanOrEqual(point!);
    }
    // seeded by the batch: the same report twice gives the same intervals
    expect(buildReport(batch()).quality.agreementIntervals).toEqual(q.agreementIntervals);
  });

  it('gives the same intervals from the votes indexed once as from the votes', () => {
    const votes: Vote<Judgment>[] = Array.from({ length: 30 }, (_, i) =>
      ['w1', 'w2', 'w3'].map((worker, w) => ({ item: `i${i}`, worker, label: (i + w) % 4 === 0 ? N : Y })),
    ).flat();
    const fromVotes = agreementIntervals(votes, 'b1');
    expect(agreementIntervals(indexVotes(votes, [Y, N]), 'b1')).toEqual(fromVotes);
    expect(fromVotes.fleissKappa.low).not.toBeNull();
    expect(fromVotes.krippendorffAlpha.low).not.toBeNull();
  });

  it('keeps κ and α on the same items mid-batch, leaving out items with one vote from both', () => {
    const input = batch();
    const partial = { ...input, assignments: input.assignments.filter((a) => a.assignmentId !== 'a3-c2' && a.assignmentId !== 'a3-c3') };
    const q = buildReport(partial).quality;
    expect(q.agreementItems).toBe(9);
    expect(q.fleissKappa.itemsUsed).toBe(9);
    expect(q.krippendorffAlpha.itemsUsed).toBe(9);
    const rows = buildReport(partial).itemRows;
    expect(rows.filter((r) => r.validVotes === 1)).toHaveLength(3);
    // the same value as κ and α computed on the 9 items with 2 or more votes alone
    const nine = { ...partial, items: partial.items.filter((it) => !['i09', 'i10', 'i11'].includes(it.item)) };
    const without = buildReport({
      ...nine,
      hits: partial.hits.slice(0, 3),
      assignments: partial.assignments.filter((a) => a.hitId !== 'H3'),
    });
    expect(q.fleissKappa.value).toBeCloseTo(without.quality.fleissKappa.value!, 12);
    expect(q.krippendorffAlpha.value).toBeCloseTo(without.quality.krippendorffAlpha.value!, 12);
  });

  it('shows majority and Dawid–Skene with the items on which they differ', () => {
    const a = report.quality.aggregation;
    expect(a.protocol).toBe('majority');
    expect(a.used).toBe('majority');
    expect(a.majority).toMatchObject({ labels: 12, unresolved: 0, accuracy: 1, balancedAccuracy: 1 });
    expect(a.dawidSkene).toMatchObject({ labels: 12, goldItems: 8, answersUsed: 14 * 5 });
    expect(a.dawidSkene.accuracy).toBe(1);
    expect(a.differences).toEqual([]);
  });

  it('gives each worker confusion tables against the gold and the final labels', () => {
    const spam = report.workers.find((w) => w.worker === 'yes')!;
    expect(spam.confusion.vsGold).toMatchObject({ yes: { yes: 2, no: 0 }, no: { yes: 2, no: 0 } });
    expect(spam.confusion.vsGold.summary).toEqual({ answers: 4, correct: 2, accuracy: 0.5, balancedAccuracy: 0.5 });
    expect(spam.confusion.vsFinal).toMatchObject({ yes: { yes: 2, no: 0 }, no: { yes: 4, no: 0 } });
    const careful = report.workers.find((w) => w.worker === 'c1')!;
    expect(careful.confusion.vsFinal).toMatchObject({ yes: { yes: 3, no: 1 }, no: { yes: 0, no: 8 } });
    expect(careful.confusion.vsFinal.summary.balancedAccuracy).toBeCloseTo((3 / 4 + 1) / 2, 12);
  });

  it('keeps to the JSON contract and renders it in md and html', async () => {
    expect(() => checkReportContract(JSON.parse(JSON.stringify(report)))).not.toThrow();
    const { renderReport } = await import('./render/index.js');
    for (const format of ['md', 'html'] as const) {
      const out = renderReport(report, format);
      expect(out).toContain('Per-worker confusion tables');
      expect(out).toContain('Majority and Dawid–Skene');
      expect(out).toContain('gold balanced accuracy');
      expect(out).toContain('95% interval');
    }
  });

  it('computes accuracy and balanced accuracy from a confusion table', () => {
    expect(tableAccuracy({ yes: { yes: 0, no: 0 }, no: { yes: 0, no: 0 } })).toEqual({
      answers: 0,
      correct: 0,
      accuracy: null,
      balancedAccuracy: null,
    });
    expect(tableAccuracy({ yes: { yes: 9, no: 1 }, no: { yes: 0, no: 0 } })).toEqual({
      answers: 10,
      correct: 9,
      accuracy: 0.9,
      balancedAccuracy: 0.9,
    });
  });
});
