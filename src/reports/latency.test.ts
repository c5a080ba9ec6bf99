import { describe, expect, it } from 'vitest';
import { at, hit, item, PUBLISHED, work } from '../../test/reports/fixtures.js';
import { buildReport } from './build.js';
import type { ReportInput } from './input.js';

/**
 * One HIT with real items x, y and the "yes" check g; an assignment per [worker, start,
 * work seconds, check answer] answering yes to x and y.
 */
function batch(
  rows: [string, number, number, 'yes' | 'no', Partial<ReportInput['assignments'][number]>?][],
  extra: Partial<ReportInput> = {},
): ReportInput {
  return {
    batch: 'latency',
    publishedAt: PUBLISHED,
    items: [item('x'), item('y')],
    hits: [hit('H', ['x', 'y'], [{ item: 'g', expected: 'yes' }], { maxAssignments: 9 })],
    assignments: rows.map(([worker, start, workSeconds, check, more], k) =>
      work(`a${k}`, 'H', worker, { x: 'yes', y: 'yes', g: check }, { start, workSeconds, ...more }),
    ),
    ...extra,
  };
}

describe('latency', () => {
  it('measures publish -> first accept over the submitted assignments', () => {
    const r = buildReport(
      batch([
        ['w1', 300, 100, 'yes'],
        ['w2', 120, 600, 'yes'],
      ]),
    );
    expect(r.latency.firstAcceptAt).toBe(at(120));
    expect(r.latency.publishToFirstAcceptSeconds).toBe(120);
  });

  it('times each item to the submission of its 3rd valid vote, by submit time, skipping votes that do not count', () => {
    const r = buildReport(
      batch([
        ['w1', 0, 1000, 'yes'], // submitted at 1000
        ['w2', 0, 200, 'no'], // 200, failed its check: no vote
        ['w3', 100, 400, 'yes'], // 500
        ['w4', 0, 3000, 'yes'], // 3000
        ['w5', 0, 1500, 'yes', { status: 'rejected' }], // 1500, rejected: no vote
        ['w6', 0, 2000, 'yes'], // 2000: the 3rd valid vote
      ]),
    );
    expect(r.itemRows.map((it) => it.timeToTargetSeconds)).toEqual([2000, 2000]);
    expect(r.latency.timeToTarget).toMatchObject({
      voteTarget: 3,
      itemsDecided: 2,
      itemsUndecided: 0,
      p50Seconds: 2000,
      p90Seconds: 2000,
      maxSeconds: 2000,
    });
    expect(r.latency.publishToLastValidVoteSeconds).toBe(3000);
  });

  it('counts an item decided by two agreeing votes under recollect when-undecided or adaptive redundancy', () => {
    const input = batch([
      ['w1', 0, 100, 'yes'],
      ['w2', 0, 200, 'yes'],
    ]);
    expect(buildReport(input).latency.timeToTarget).toMatchObject({ itemsDecided: 0, itemsUndecided: 2 });
    for (const options of [{ recollect: 'when-undecided' as const }, { redundancy: 'adaptive' as const }]) {
      const r = buildReport(input, options);
      expect(r.latency.timeToTarget).toMatchObject({ itemsDecided: 2, itemsUndecided: 0, p50Seconds: 200 });
      expect(r.latency.throughput.buckets.at(-1)!.cumulativeDecidedItems).toBe(2);
    }
    expect(() => buildReport(input, { recollect: 'sometimes' as 'always' })).toThrow(
      'report options.recollect: "sometimes" is not "always" or "when-undecided"',
    );
  });

  it('leaves undecided items out of the percentiles and counts them as undecided', () => {
    const input = batch([
      ['w1', 0, 100, 'yes'],
      ['w2', 0, 200, 'yes'],
    ]);
    input.items.push(item('z'));
    input.hits.push(hit('H2', ['z'], []));
    input.assignments.push(
      ...['u1', 'u2', 'u3'].map((w, k) => work(`b${k}`, 'H2', w, { z: 'no' }, { start: 0, workSeconds: 50 * (k + 1) })),
    );
    const r = buildReport(input);
    expect(r.latency.timeToTarget).toMatchObject({ itemsDecided: 1, itemsUndecided: 2, p50Seconds: 150, p99Seconds: 150 });
    expect(r.itemRows.find((it) => it.item === 'x')!.timeToTargetSeconds).toBeNull();
    // a lower target changes what counts as done
    expect(buildReport(input, { voteTarget: 2 }).latency.timeToTarget).toMatchObject({ voteTarget: 2, itemsDecided: 3, itemsUndecided: 0 });
  });

  it('uses nearest-rank percentiles over the items', () => {
    const items = Array.from({ length: 10 }, (_, i) => item(`i${i}`));
    const hits = items.map((it, i) => hit(`H${i}`, [it.item], []));
    // item i gets its 3rd vote at (i + 1) * 100 s
    const assignments = items.flatMap((it, i) =>
      [1, 2, 3].map((k) => work(`a${i}-${k}`, `H${i}`, `w${k}`, { [it.item]: 'yes' }, { start: 0, workSeconds: ((i + 1) * 100 * k) / 3 })),
    );
    const r = buildReport({ batch: 'p', publishedAt: PUBLISHED, items, hits, assignments });
    expect(r.latency.timeToTarget).toMatchObject({
      itemsDecided: 10,
      p50Seconds: 500,
      p90Seconds: 900,
      p99Seconds: 1000,
      maxSeconds: 1000,
    });
    expect(r.latency.percentileMethod).toBe('nearest-rank');
  });

  it('counts an accept a moment before publishing (clock skew) as 0 s', () => {
    const r = buildReport(batch([['w1', -2, 100, 'yes']]));
    expect(r.latency.publishToFirstAcceptSeconds).toBe(0);
  });

  it('takes worker time per item from the page’s measurements, else from work time / answers', () => {
    const input = batch([
      ['w1', 0, 300, 'yes'],
      ['w2', 0, 90, 'yes'],
    ]);
    input.assignments[0] = {
      ...input.assignments[0]!,
      answers: input.assignments[0]!.answers.map((a, k) => ({ ...a, timeMs: (k + 1) * 10_000 })),
    };
    const r = buildReport(input);
    // measured 10, 20, 30 s; estimated 90 s / 3 = 30 s each
    expect(r.latency.workerTimePerItem).toEqual({ measured: 3, estimated: 3, p50Seconds: 30, p90Seconds: 30 });
    const none = buildReport(batch([]));
    expect(none.latency.workerTimePerItem).toEqual({ measured: 0, estimated: 0, p50Seconds: null, p90Seconds: null });
  });

  it('computes effective hourly pay: rewards and bonuses paid over the time of reviewed work', () => {
    const r = buildReport(
      batch(
        [
          ['w1', 0, 480, 'yes'], // approved: $1.00
          ['w2', 0, 480, 'no', { status: 'rejected' }], // unpaid, but 8 minutes of work
          ['w3', 0, 480, 'yes', { status: 'submitted' }], // not reviewed: neither paid nor counted
        ],
        { bonuses: [{ worker: 'w1', amountCents: 50 }] },
      ),
    );
    expect(r.latency.effectiveHourlyPay).toEqual({
      paidCents: 150,
      workSeconds: 960,
      untimedAssignments: 0,
      centsPerHour: 563,
      minimumCentsPerHour: 725,
      belowMinimum: true,
    });
    const w1 = r.workers.find((w) => w.worker === 'w1')!;
    expect(w1).toMatchObject({ paidCents: 150, bonusCents: 50, workSeconds: 480, hourlyPayCents: 1125 });
    expect(r.workers.find((w) => w.worker === 'w2')).toMatchObject({ paidCents: 0, hourlyPayCents: 0 });
    expect(buildReport(batch([['w1', 0, 480, 'yes']]), { minimumHourlyPayCents: 700 }).latency.effectiveHourlyPay).toMatchObject({
      centsPerHour: 750,
      belowMinimum: false,
    });
  });

  it('takes work time from workTimeMs, else accept/submit times, else the measured item times; without any, no hourly pay', () => {
    const base = batch([['w1', 0, 480, 'yes']]);
    const a = base.assignments[0]!;
    const withWorkTime = buildReport({ ...base, assignments: [{ ...a, workTimeMs: 360_000 }] });
    expect(withWorkTime.latency.effectiveHourlyPay.workSeconds).toBe(360);
    const { acceptedAt: _, ...noAccept } = a;
    const measured = buildReport({ ...base, assignments: [{ ...noAccept, answers: a.answers.map((x) => ({ ...x, timeMs: 100_000 })) }] });
    expect(measured.latency.effectiveHourlyPay).toMatchObject({ workSeconds: 300, centsPerHour: 1200 });
    const untimed = buildReport({ ...base, assignments: [noAccept] });
    expect(untimed.latency.effectiveHourlyPay).toMatchObject({ untimedAssignments: 1, centsPerHour: null, belowMinimum: null });
    expect(untimed.latency.publishToFirstAcceptSeconds).toBeNull();
    expect(untimed.workers[0]!.hourlyPayCents).toBeNull();
  });

  it('series valid votes and completed items over time in buckets', () => {
    const r = buildReport(
      batch([
        ['w1', 0, 100, 'yes'],
        ['w2', 0, 700, 'yes'],
        ['w3', 0, 1300, 'yes'],
        ['w4', 0, 1400, 'yes'],
      ]),
      { throughputBucketSeconds: 600 },
    );
    expect(r.latency.throughput).toEqual({
      bucketSeconds: 600,
      buckets: [
        {
          startSeconds: 0,
          validVotes: 2,
          decidedItems: 0,
          validVotesPerHour: 12,
          decidedItemsPerHour: 0,
          cumulativeValidVotes: 2,
          cumulativeDecidedItems: 0,
        },
        {
          startSeconds: 600,
          validVotes: 2,
          decidedItems: 0,
          validVotesPerHour: 12,
          decidedItemsPerHour: 0,
          cumulativeValidVotes: 4,
          cumulativeDecidedItems: 0,
        },
        {
          startSeconds: 1200,
          validVotes: 4,
          decidedItems: 2,
          validVotesPerHour: 24,
          decidedItemsPerHour: 12,
          cumulativeValidVotes: 8,
          cumulativeDecidedItems: 2,
        },
      ],
    });
  });

  it('picks the smallest standard bucket giving at most 48 buckets, and none before any vote', () => {
    const day = buildReport(batch([['w1', 0, 86_000, 'yes']]));
    expect(day.latency.throughput.bucketSeconds).toBe(1800);
    expect(day.latency.throughput.buckets).toHaveLength(48);
    expect(buildReport(batch([['w1', 0, 100, 'yes']])).latency.throughput.bucketSeconds).toBe(60);
    expect(buildReport(batch([])).latency.throughput).toEqual({ bucketSeconds: 60, buckets: [] });
  });

  it('has nothing to time in a batch not published yet', () => {
    const r = buildReport({ batch: 'new', publishedAt: null, items: [item('x')], hits: [], assignments: [] });
    expect(r.latency).toMatchObject({ publishToFirstAcceptSeconds: null, publishToLastValidVoteSeconds: null, firstAcceptAt: null });
    expect(r.latency.timeToTarget).toMatchObject({ itemsDecided: 0, itemsUndecided: 1, p50Seconds: null });
    expect(r.latency.effectiveHourlyPay.centsPerHour).toBeNull();
  });
});
