import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { scoreAssignments } from './counted-votes.js';
import {
  batchReputationRecords,
  DEFAULT_REPUTATION_POLICY,
  EMPTY_RECORD,
  NEUTRAL_REPUTATION,
  reputationScore,
  sameRecord,
  sumRecords,
  type FinalLabel,
  type ReputationRecord,
} from './reputation.js';
import { hitWithChecks, submittedAssignment } from './test-records.js';
import type { AssignmentRecord } from './types.js';

type Four = [number, number, number, number];
/** Tallies as [answered "yes"-reference, right, answered "no"-reference, right]. */
const record = (checks: Four, agreement: Four, extra: Partial<ReputationRecord> = {}): ReputationRecord => ({
  ...EMPTY_RECORD,
  checks: { yes: { answered: checks[0], right: checks[1] }, no: { answered: checks[2], right: checks[3] } },
  agreement: { yes: { answered: agreement[0], right: agreement[1] }, no: { answered: agreement[2], right: agreement[3] } },
  ...extra,
});
const none: Four = [0, 0, 0, 0];

describe('reputationScore', () => {
  it('gives the neutral score without evidence', () => {
    expect(reputationScore(EMPTY_RECORD)).toMatchObject({
      score: NEUTRAL_REPUTATION,
      answers: 0,
      sensitivity: 0.75,
      specificity: 0.75,
      cappedBy: null,
      reason: 'no answers with a known or final label yet',
    });
    expect(NEUTRAL_REPUTATION).toBe(50);
  });

  it("is Youden's J of the posterior means, 100 × (E[sens] + E[spec] − 1), with the Beta(6, 2) prior per class", () => {
    // "yes" references: 5 + 4 answered, 9 right; "no" references: 5 + 6 answered, 9 right
    const r = reputationScore(record([5, 5, 5, 4], [4, 4, 6, 5]));
    expect(r.sensitivity).toBeCloseTo(15 / 17, 12);
    expect(r.specificity).toBeCloseTo(15 / 19, 12);
    expect(r.score).toBe(Math.round(100 * (15 / 17 + 15 / 19 - 1)));
    expect(r).toMatchObject({ answers: 20, right: 18 });
    expect(r.reason).toBe(
      '18 of 20 answers right (checks 9/10, final labels 9/10); estimated accuracy on "yes" items 88%, on "no" items 79%',
    );
  });

  it('shrinks little evidence toward neutral and lets much evidence speak', () => {
    const one = reputationScore(record([1, 1, 0, 0], none)).score;
    const ten = reputationScore(record([1, 1, 1, 1], [4, 4, 4, 4])).score;
    const hundred = reputationScore(record([5, 5, 5, 5], [45, 45, 45, 45])).score;
    expect(one).toBeGreaterThan(NEUTRAL_REPUTATION);
    expect(one).toBeLessThan(ten);
    expect(ten).toBeLessThan(hundred);
    expect(hundred).toBeGreaterThanOrEqual(90);
    const wrongOnce = reputationScore(record([1, 0, 0, 0], none)).score;
    expect(wrongOnce).toBeLessThan(NEUTRAL_REPUTATION);
    expect(wrongOnce).toBeGreaterThan(30);
  });

  it('puts careful workers above neutral and answers that ignore the items near 0, whatever the share of relevant items', () => {
    // a careful worker: about 90% right on both classes, a third of the items relevant
    expect(reputationScore(record([5, 5, 5, 5], [30, 27, 60, 54])).score).toBeGreaterThan(70);
    // a random clicker: half right on each class
    expect(reputationScore(record([5, 3, 5, 2], [20, 10, 40, 20])).score).toBeLessThan(15);
    // always yes: every "yes" reference, no "no" reference
    expect(reputationScore(record([5, 5, 5, 0], [14, 14, 26, 0])).score).toBeLessThan(10);
    // always no, the mirror: right on the 65% of "no" labels, still nothing to show; the
    // rarer class has fewer answers, so its prior weighs more, and the score falls slower
    const alwaysNo = reputationScore(record([5, 0, 5, 5], [14, 0, 26, 26])).score;
    expect(alwaysNo).toBeLessThan(20);
    expect(reputationScore(record([10, 0, 10, 10], [28, 0, 52, 52])).score).toBeLessThan(alwaysNo);
  });

  it('stays within 0 and 100 and is an integer', () => {
    for (const t of [none, [1000, 0, 1000, 0], [1000, 1000, 1000, 1000], [7, 3, 2, 2]] as Four[]) {
      const s = reputationScore(record(none, t)).score;
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(100);
    }
    expect(reputationScore(record(none, [1000, 0, 1000, 0])).score).toBe(0);
    expect(reputationScore(record(none, [1000, 1000, 1000, 1000])).score).toBe(100);
  });

  it('caps a worker stopped in some batch at 10, with the batch and the reason', () => {
    const r = reputationScore(
      record([5, 5, 5, 5], [25, 24, 25, 24], {
        blocks: [
          { batch: 'b1', reason: 'stopped: P(not doing the task) 0.995' },
          { batch: 'b3', reason: 'stopped: again' },
        ],
      }),
    );
    expect(r).toMatchObject({ score: DEFAULT_REPUTATION_POLICY.blockCap, cappedBy: 'soft-block' });
    expect(r.reason).toMatch(
      /^stopped in batch b1 \(stopped: P\(not doing the task\) 0.995\) and 1 more: at most 10; 58 of 60 answers right/,
    );
    // a score already below the cap stays
    expect(reputationScore(record([5, 0, 5, 0], none, { blocks: [{ batch: 'b1', reason: 'x' }] }))).toMatchObject({
      score: 0,
      cappedBy: null,
    });
  });

  it('caps an llm-assisted worker below neutral (40), a block below that', () => {
    const flagged = reputationScore(record([5, 5, 5, 5], [25, 25, 25, 25], { llmFlags: ['b2'] }));
    expect(flagged).toMatchObject({ score: 40, cappedBy: 'llm-assisted' });
    expect(flagged.reason).toMatch(/^flagged llm-assisted in batch b2: at most 40/);
    expect(reputationScore(record(none, none, { llmFlags: ['b2'], blocks: [{ batch: 'b2', reason: 'r' }] })).score).toBe(10);
  });

  it('takes another policy and refuses a prior that is no Beta and a record that cannot be', () => {
    expect(reputationScore(EMPTY_RECORD, { ...DEFAULT_REPUTATION_POLICY, prior: { alpha: 1, beta: 1 } }).score).toBe(0);
    expect(() => reputationScore(EMPTY_RECORD, { ...DEFAULT_REPUTATION_POLICY, prior: { alpha: 0, beta: 1 } })).toThrow(/positive/);
    expect(() => reputationScore(record([1, 2, 0, 0], none))).toThrow(/2 right answers of 1/);
  });
});

describe('sumRecords', () => {
  it('adds tallies and keeps every block and flag', () => {
    const a = record([1, 1, 2, 1], [3, 2, 1, 1], { blocks: [{ batch: 'b1', reason: 'r1' }] });
    const b = record([2, 2, 0, 0], [4, 4, 2, 0], { llmFlags: ['b2'] });
    expect(sumRecords([a, b])).toEqual(record([3, 3, 2, 1], [7, 6, 3, 1], { blocks: [{ batch: 'b1', reason: 'r1' }], llmFlags: ['b2'] }));
    expect(sumRecords([])).toEqual(EMPTY_RECORD);
  });
});

describe('sameRecord', () => {
  it('compares the evidence field by field, whatever the order of the keys', () => {
    const a = record([1, 1, 2, 1], [3, 2, 1, 1], { blocks: [{ batch: 'b1', reason: 'r1' }], llmFlags: ['b1'] });
    const reordered = JSON.parse(
      '{"llmFlags":["b1"],"blocks":[{"reason":"r1","batch":"b1"}],"agreement":{"no":{"right":1,"answered":1},"yes":{"right":2,"answered":3}},"checks":{"no":{"right":1,"answered":2},"yes":{"right":1,"answered":1}}}',
    ) as ReputationRecord;
    expect(sameRecord(a, reordered)).toBe(true);
    expect(sameRecord(a, { ...a, llmFlags: [] })).toBe(false);
    expect(sameRecord(a, { ...a, blocks: [{ batch: 'b1', reason: 'other' }] })).toBe(false);
    expect(sameRecord(a, record([1, 1, 2, 2], [3, 2, 1, 1], { blocks: a.blocks, llmFlags: a.llmFlags }))).toBe(false);
    expect(sameRecord(a, record([1, 1, 2, 1], [3, 2, 2, 1], { blocks: a.blocks, llmFlags: a.llmFlags }))).toBe(false);
  });
});

describe('batchReputationRecords', () => {
  const hit = hitWithChecks(['r1', 'r2', 'r3']);
  const assignment = (worker: string, labels: Record<string, Judgment>, extra: Partial<AssignmentRecord> = {}): AssignmentRecord =>
    submittedAssignment(worker, labels, { id: `A-${worker}-${Object.keys(labels).join('')}`, extra });
  const label = (l: Judgment, yes: number, no: number, workers: string[]): FinalLabel => ({ label: l, votes: { yes, no }, workers });
  const input = (assignments: AssignmentRecord[], labels: Record<string, FinalLabel>, extra = {}) => ({
    batch: 'b1',
    scored: scoreAssignments(assignments, [hit]),
    labels: new Map(Object.entries(labels)),
    blocks: new Map<string, string>(),
    llmFlagged: new Set<string>(),
    ...extra,
  });

  it('counts checks by polarity and agreement with final labels', () => {
    const rec = batchReputationRecords(
      input([assignment('A', { r1: 'yes', r2: 'no', r3: 'yes', g1: 'yes', g2: 'yes' })], {
        // A did not vote on these labels (e.g. discarded work): every answer compared
        r1: label('yes', 3, 0, ['B', 'C', 'D']),
        r2: label('yes', 2, 1, ['B', 'C', 'D']),
      }),
    ).get('A');
    expect(rec).toEqual({
      checks: { yes: { answered: 1, right: 1 }, no: { answered: 1, right: 0 } },
      // r3 has no final label
      agreement: { yes: { answered: 2, right: 1 }, no: { answered: 0, right: 0 } },
      blocks: [],
      llmFlags: [],
    });
  });

  it("leaves out the items whose label the worker's own vote decided", () => {
    const rec = batchReputationRecords(
      input([assignment('A', { r1: 'yes', r2: 'yes', r3: 'no' })], {
        r1: label('yes', 2, 1, ['A', 'B', 'C']), // without A: 1 vs 1, A decided it
        r2: label('yes', 3, 0, ['A', 'B', 'C']), // without A: 2 vs 0, kept
        r3: label('yes', 2, 1, ['A', 'B', 'C']), // A voted against the label: kept
      }),
    ).get('A')!;
    expect(rec.agreement).toEqual({ yes: { answered: 2, right: 1 }, no: { answered: 0, right: 0 } });
  });

  it("compares a worker's first answer to an item only, and skips work a person excluded", () => {
    const recs = batchReputationRecords(
      input(
        [
          assignment('A', { r1: 'no', g1: 'no' }),
          assignment('A', { r1: 'yes', g1: 'yes' }),
          assignment('E', { r1: 'no', g1: 'no' }, { overridden: 'excluded' }),
        ],
        { r1: label('yes', 3, 0, ['B', 'C', 'D']) },
      ),
    );
    expect(recs.get('A')).toMatchObject({ checks: { yes: { answered: 1, right: 0 } }, agreement: { yes: { answered: 1, right: 0 } } });
    expect(recs.has('E')).toBe(false);
  });

  it("records the batch's soft blocks and llm-assisted flags, also of workers without answers here", () => {
    const recs = batchReputationRecords(
      input([assignment('A', { g1: 'yes' })], {}, { blocks: new Map([['A', 'stopped: r']]), llmFlagged: new Set(['Z']) }),
    );
    expect(recs.get('A')).toMatchObject({ blocks: [{ batch: 'b1', reason: 'stopped: r' }], llmFlags: [] });
    expect(recs.get('Z')).toEqual({ ...EMPTY_RECORD, llmFlags: ['b1'] });
    expect([...recs.keys()]).toEqual(['A', 'Z']);
  });
});
