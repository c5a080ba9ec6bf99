import { describe, expect, it } from 'vitest';
import { hit, item, PUBLISHED, work } from '../../test/reports/fixtures.js';
import type { EscalatedCase } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { buildReport } from './build.js';
import { reportItemFromCase, type ReportInput } from './input.js';

const valid = (): ReportInput => ({
  batch: 'b',
  publishedAt: PUBLISHED,
  items: [item('x')],
  hits: [hit('H', ['x'], [{ item: 'g', expected: 'no' }])],
  assignments: [work('A1', 'H', 'w1', { x: 'yes', g: 'no' })],
  bonuses: [{ worker: 'w1', assignmentId: 'A1', amountCents: 10 }],
});

function refusal(input: unknown, options = {}): string {
  try {
    buildReport(input as ReportInput, options);
  } catch (err) {
    expect(err).toBeInstanceOf(UserError);
    return (err as Error).message;
  }
  throw new Error('expected the input to be refused');
}

describe('report input', () => {
  it('accepts the documented shape', () => {
    expect(buildReport(valid()).votes).toBe(1);
  });

  it('names the field of a malformed value', () => {
    const bad = valid();
    bad.assignments[0] = { ...bad.assignments[0]!, submittedAt: 'yesterday' };
    expect(refusal(bad)).toMatch(/^report input\.assignments\[0\]\.submittedAt: /);
    expect(refusal({ ...valid(), hits: [{ ...valid().hits[0]!, rewardCents: 1.5 }] })).toMatch(/^report input\.hits\[0\]\.rewardCents: /);
    expect(refusal({ ...valid(), bonuses: [{ worker: 'w1', amountCents: 0 }] })).toMatch(/^report input\.bonuses\[0\]\.amountCents: /);
  });

  it('refuses fields it does not know, which catches a wrong mapping', () => {
    expect(refusal({ ...valid(), items: [{ ...item('x'), label: 'yes' }] })).toMatch(/report input\.items\[0\]: .*label/);
  });

  it('cross-checks ids and counts, naming the place', () => {
    expect(refusal({ ...valid(), items: [item('x'), item('x')] })).toMatch(/items\[1\]\.item: "x" is listed twice/);
    expect(refusal({ ...valid(), hits: [hit('H', ['nope'])] })).toMatch(/hits\[0\]\.items\[0\]: "nope" is not one of the batch items/);
    expect(refusal({ ...valid(), hits: [hit('H', [])], items: [] })).toMatch(/hits\[0\] \("H"\): a HIT needs at least one item/);
    expect(refusal({ ...valid(), assignments: [{ ...valid().assignments[0]!, hitId: 'H9' }] })).toMatch(
      /assignments\[0\] \("A1"\)\.hitId: "H9" is not one of the HITs/,
    );
    expect(refusal({ ...valid(), assignments: [{ ...valid().assignments[0]!, status: 'submitted', discarded: true }] })).toMatch(
      /only an approved assignment can be discarded/,
    );
    expect(refusal({ ...valid(), publishedAt: null })).toMatch(/^report input\.publishedAt: null, but assignments were submitted/);
    const early = { ...valid().assignments[0]!, acceptedAt: '2026-05-04T10:00:00.000Z', submittedAt: '2026-05-04T09:30:00.000Z' };
    expect(refusal({ ...valid(), assignments: [early] })).toMatch(/acceptedAt: .* is after its submittedAt/);
    const four = ['A1', 'A2', 'A3', 'A4'].map((id, k) => work(id, 'H', `w${k}`, { x: 'yes', g: 'no' }));
    expect(refusal({ ...valid(), assignments: four, bonuses: [] })).toMatch(
      /assignments\[3\] \("A4"\): HIT "H" has more submitted assignments than its maxAssignments 3/,
    );
    expect(refusal({ ...valid(), bonuses: [{ worker: 'w2', assignmentId: 'A1', amountCents: 5 }] })).toMatch(
      /bonuses\[0\]\.worker: "w2" did not do assignment "A1"/,
    );
    expect(refusal({ ...valid(), bonuses: [{ worker: 'w1', assignmentId: 'A9', amountCents: 5 }] })).toMatch(
      /bonuses\[0\]\.assignmentId: "A9" is not one of the assignments/,
    );
  });

  it('passes on the quality checks’ own complaints with the assignment named', () => {
    // the stray answer is in the second assignment of the input, submitted first
    const stray = { ...work('A2', 'H', 'w2', { x: 'no', g: 'no' }, { start: 0 }), answers: [{ item: 'elsewhere', label: 'yes' as const }] };
    expect(refusal({ ...valid(), assignments: [valid().assignments[0]!, stray] })).toMatch(
      /assignments\[1\] \("A2"\)\.answers\[0\]\.item: "elsewhere" is not an item of HIT "H"/,
    );
  });

  it('checks the options', () => {
    expect(refusal(valid(), { voteTarget: 0 })).toMatch(/^report options\.voteTarget: 0 is not a whole number >= 1/);
    expect(refusal(valid(), { generatedAt: 'now' })).toMatch(/^report options\.generatedAt/);
    expect(refusal(valid(), { tiePolicy: { kind: 'fallback', label: 'maybe' } })).toMatch(/^report options\.tiePolicy\.label/);
    expect(refusal(valid(), { throughputBucketSeconds: 0.5 })).toMatch(/^report options\.throughputBucketSeconds/);
    expect(refusal(valid(), { aggregator: 'mean' })).toMatch(/^report options\.aggregator: "mean" is not "majority" or "dawid-skene"/);
  });
});

describe('reportItemFromCase', () => {
  it('takes each agent’s final label from the debate, and the hidden label when known', () => {
    const escalated: EscalatedCase = {
      query_id: 'q1',
      query: 'q',
      answers: [],
      chunk_id: 'c1',
      chunk: 'text',
      dataset: 'msmarco',
      hidden_label: 'yes',
      debate: [
        { round: 1, agent: 'A', stance: 'relevant', label: 'yes', reasoning: '', references: [] },
        { round: 1, agent: 'B', stance: 'irrelevant', label: 'no', reasoning: '', references: [] },
        { round: 2, agent: 'B', stance: 'irrelevant', label: 'yes', reasoning: '', references: [] },
      ],
    };
    expect(reportItemFromCase('k1', escalated)).toEqual({
      item: 'k1',
      queryId: 'q1',
      chunkId: 'c1',
      dataset: 'msmarco',
      agentLabels: { A: 'yes', B: 'yes' },
      hiddenLabel: 'yes',
      // query, chunk and each agent's last turn, as the page shows them
      textLength: 'q'.length + 'text'.length,
    });
    const { hidden_label: _, ...unknown } = escalated;
    expect(reportItemFromCase('k1', unknown)).not.toHaveProperty('hiddenLabel');
  });
});
