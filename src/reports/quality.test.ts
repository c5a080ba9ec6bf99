import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, simulatedBatch, work } from '../../test/reports/fixtures.js';
import { dawidSkene, fleissKappa, krippendorffAlpha } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { countedVotes, scoreAssignments } from '../quality/index.js';
import { buildReport } from './build.js';
import type { ReportInput } from './input.js';

const Y: Judgment = 'yes';
const N: Judgment = 'no';

/**
 * Items a..d in one HIT with a yes check gy and a no check gn. Truth: a, b yes; c, d no.
 * Agent A says yes to everything, agent B is right.
 */
function batch(
  votes: Record<string, [Judgment, Judgment, Judgment, Judgment]>,
  checks: Record<string, [Judgment, Judgment]> = {},
  extra: Partial<ReportInput> = {},
): ReportInput {
  const truth: Judgment[] = [Y, Y, N, N];
  const ids = ['a', 'b', 'c', 'd'];
  return {
    batch: 'quality',
    publishedAt: PUBLISHED,
    items: ids.map((id, i) => item(id, { agentLabels: { A: Y, B: truth[i]! }, hiddenLabel: truth[i]! })),
    hits: [
      hit(
        'H',
        ids,
        [
          { item: 'gy', expected: Y },
          { item: 'gn', expected: N },
        ],
        { maxAssignments: 9 },
      ),
    ],
    assignments: Object.entries(votes).map(([worker, labels], k) => {
      const [gy, gn] = checks[worker] ?? [Y, N];
      return work(`a${k}`, 'H', worker, { a: labels[0], b: labels[1], c: labels[2], d: labels[3], gy, gn }, { start: k * 10 });
    }),
    ...extra,
  };
}

describe('quality', () => {
  it('computes κ and α over each item’s first 3 valid votes, exactly as the aggregate module does', () => {
    const input = simulatedBatch({ items: 45 });
    const r = buildReport(input);
    const bySubmission = [...input.assignments].sort(
      (a, b) => a.submittedAt.localeCompare(b.submittedAt) || (a.assignmentId < b.assignmentId ? -1 : 1),
    );
    const parsed = bySubmission.map((a) => ({ ...a, discarded: a.discarded ?? false }));
    const valid = countedVotes(
      scoreAssignments(
        parsed,
        input.hits.map((h) => ({ hitId: h.hitId, items: h.items, checks: h.checks ?? [] })),
      ),
    );
    const seen = new Map<string, number>();
    const firstThree = valid.filter((v) => {
      seen.set(v.item, (seen.get(v.item) ?? 0) + 1);
      return seen.get(v.item)! <= 3;
    });
    expect(r.votes).toBe(valid.length);
    expect(r.quality.agreementVotes).toBe(firstThree.length);
    expect(r.quality.fleissKappa).toEqual(fleissKappa.compute(firstThree, [Y, N]));
    expect(r.quality.krippendorffAlpha).toEqual(krippendorffAlpha.compute(firstThree, [Y, N]));
    expect(r.fleissKappa).toBe(r.quality.fleissKappa.value);
    expect(r.krippendorffAlpha).toBe(r.quality.krippendorffAlpha.value);
    expect(r.fleissKappa).not.toBeNull();
  });

  it('labels an item with more valid votes than the target by its first ones in submission order', () => {
    // a: yes, yes, then two late no votes (extra assignments); b: no, no, no, yes
    const r = buildReport(batch({ w1: [Y, N, N, N], w2: [Y, N, N, N], w3: [N, N, N, N], w4: [N, Y, N, N], w5: [N, N, N, N] }));
    const a = r.itemRows.find((it) => it.item === 'a')!;
    expect(a).toMatchObject({ validVotes: 5, yes: 2, no: 1, label: Y });
    expect(r.quality.agreementVotes).toBe(12);
    expect(r.quality.votes.total).toBe(20);
    expect(r.quality.aggregator).toBe('majority');
  });

  it('labels by Dawid–Skene over every answer when the batch chose it, and shows where the majority of 3 differs', () => {
    const input = batch({ w1: [Y, N, N, N], w2: [Y, N, N, N], w3: [N, N, N, N], w4: [N, Y, N, N], w5: [N, N, N, N] });
    const r = buildReport(input, { aggregator: 'dawid-skene' });
    expect(r.quality.aggregator).toBe('dawid-skene');
    const valid = Object.entries({ w1: [Y, N, N, N], w2: [Y, N, N, N], w3: [N, N, N, N], w4: [N, Y, N, N], w5: [N, N, N, N] }).flatMap(
      ([worker, labels]) => ['a', 'b', 'c', 'd'].map((item, i) => ({ item, worker, label: labels[i]! })),
    );
    // maximum likelihood, on 4 items, trusts the pair w1/w2 and labels "a" yes against three workers;
    // the priors from the evidence (a reading worker: 3 right, 1 wrong per class) keep 4 answers from deciding that
    expect(dawidSkene<Judgment>().fit(valid, [Y, N]).items[0]!.label).toBe(Y);
    expect(r.itemRows.map((it) => it.label)).toEqual([N, N, N, N]);
    // the protocol's majority of the first 3 votes (w1, w2, w3) says yes on "a": listed as a difference
    expect(r.quality.aggregation.used).toBe('dawid-skene');
    expect(r.quality.aggregation.differences.map((d) => [d.item, d.majority, d.dawidSkene])).toEqual([['a', Y, N]]);
    expect(r.itemRows.find((it) => it.item === 'a')).toMatchObject({ validVotes: 5, yes: 2, no: 3 });
    // agreement stays over the first 3 votes per item, whatever labels them
    expect(r.quality.fleissKappa).toEqual(buildReport(input).quality.fleissKappa);
    expect(r.labels).toBe(4);
  });

  it('reports κ and α as null with the reason when every vote is the same', () => {
    const r = buildReport(batch({ w1: [Y, Y, Y, Y], w2: [Y, Y, Y, Y], w3: [Y, Y, Y, Y] }));
    expect(r.fleissKappa).toBeNull();
    expect(r.krippendorffAlpha).toBeNull();
    expect(r.quality.fleissKappa.reason).toMatch(/every rating used is "yes"/);
    expect(r.quality.krippendorffAlpha.reason).toMatch(/expected disagreement is 0/);
  });

  it('scores attention checks by polarity over every submitted assignment', () => {
    const r = buildReport(batch({ w1: [Y, Y, N, N], yes: [Y, Y, Y, Y], sleepy: [N, N, N, N] }, { yes: [Y, Y], sleepy: [N, N] }));
    expect(r.quality.attentionChecks).toEqual({
      total: 6,
      passed: 4,
      passRate: 4 / 6,
      byPolarity: { yes: { total: 3, passed: 2, passRate: 2 / 3 }, no: { total: 3, passed: 2, passRate: 2 / 3 } },
      assignmentsWithChecks: 3,
      assignmentsPassedAll: 1,
    });
  });

  it('labels by majority, leaves a tie unresolved unless the tie policy decides it', () => {
    // two votes so far (a batch stopped early): a: 2 yes; b: 1-1 tie; c: 2 no; d: 1-1 tie
    const input = batch({ w1: [Y, Y, N, N], w2: [Y, N, N, Y] });
    const r = buildReport(input);
    expect(r.quality.labels).toEqual({ yes: 1, no: 1, unresolved: 2, withoutVotes: 0 });
    expect(r.labels).toBe(2);
    expect(r.quality.votes).toEqual({ total: 8, yes: 4, no: 4 });
    expect(r.itemRows.map((it) => [it.item, it.label, it.decidedBy])).toEqual([
      ['a', Y, 'clear'],
      ['b', null, 'unresolved'],
      ['c', N, 'clear'],
      ['d', null, 'unresolved'],
    ]);
    const fallback = buildReport(input, { tiePolicy: { kind: 'fallback', label: N } });
    expect(fallback.quality.labels).toEqual({ yes: 1, no: 3, unresolved: 0, withoutVotes: 0 });
    expect(fallback.cost.perLabel).toBe(Math.round(fallback.cost.total / 4));
  });

  it('counts items without a valid vote', () => {
    const input = batch({ w1: [Y, Y, N, N] });
    input.items.push(item('e'));
    const r = buildReport(input);
    expect(r.quality.labels.withoutVotes).toBe(1);
    expect(r.itemRows.find((it) => it.item === 'e')).toMatchObject({ validVotes: 0, label: null, decidedBy: 'no-votes', hits: [] });
  });

  it('compares the human majority with each agent’s final label', () => {
    const r = buildReport(batch({ w1: [Y, Y, N, N], w2: [Y, Y, N, N], w3: [Y, N, N, Y] }));
    expect(r.quality.agents).toEqual([
      { agent: 'A', compared: 4, agreed: 2, rate: 0.5 },
      { agent: 'B', compared: 4, agreed: 4, rate: 1 },
    ]);
    expect(buildReport({ ...batch({ w1: [Y, Y, N, N] }), items: ['a', 'b', 'c', 'd'].map((id) => item(id)) }).quality.agents).toEqual([]);
  });

  it('reports accuracy and balanced accuracy against a hidden truth, and nothing without one', () => {
    const r = buildReport(batch({ w1: [Y, N, N, N], w2: [Y, N, N, N], w3: [Y, Y, N, Y] }));
    expect(r.quality.accuracy).toMatchObject({
      itemsWithTruth: 4,
      accuracy: { value: 0.75, correct: 3, compared: 4 },
      balancedAccuracy: { value: 0.75 },
    });
    expect(r.quality.accuracy!.balancedAccuracy.perClass).toEqual({
      yes: { support: 2, correct: 1, recall: 0.5 },
      no: { support: 2, correct: 2, recall: 1 },
    });
    expect(r.itemRows.map((it) => it.correct)).toEqual([true, false, true, true]);
    const blind = batch({ w1: [Y, N, N, N] });
    blind.items = blind.items.map(({ hiddenLabel: _, ...rest }) => rest);
    expect(buildReport(blind).quality.accuracy).toBeNull();
    expect(buildReport(blind).itemRows[0]).toMatchObject({ hiddenLabel: null, correct: null });
  });

  it('builds the per-worker table from the worker statistics, with valid votes and flags', () => {
    const r = buildReport(batch({ w1: [Y, Y, N, N], w2: [Y, Y, N, N], yes: [Y, Y, Y, Y] }, { yes: [Y, Y] }));
    expect(r.workers.map((w) => w.worker)).toEqual(['w1', 'w2', 'yes']);
    const yes = r.workers.find((w) => w.worker === 'yes')!;
    expect(yes).toMatchObject({
      votes: 0,
      assignments: { submitted: 1, approved: 1, counted: 0 },
      checks: { byPolarity: { no: { total: 1, passed: 0 } } },
    });
    expect(yes.flags).toContain('low-check-pass-rate');
    expect(r.workers.find((w) => w.worker === 'w1')).toMatchObject({
      votes: 4,
      agreement: { compared: 4, agreed: 4, rate: 1 },
      medianSecondsPerItem: 80,
      flags: [],
    });
    expect(r.quality.flaggedWorkers).toBe(1);
    // thresholds pass through
    expect(buildReport(batch({ w1: [Y, Y, N, N] }), { flagThresholds: { fastMsPerItem: 100_000 } }).workers[0]!.flags).toEqual(['fast']);
  });
});
