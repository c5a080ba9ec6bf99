import { describe, expect, it } from 'vitest';
import { scoreAttentionChecks } from './attention-checks.js';
import type { KnownAnswer } from './types.js';
import { decideWithStanding, type WorkerStanding } from './worker-review.js';
import { workerVerdict } from './worker-verdict.js';
import type { Judgment } from '../domain/cases.js';

const checks: KnownAnswer[] = [{ item: 'g1', expected: 'no' }];
const passed = scoreAttentionChecks([{ item: 'g1', label: 'no' }], checks);
const failed = scoreAttentionChecks([{ item: 'g1', label: 'yes' }], checks);

const agreeing = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference: (i % 3 ? 'no' : 'yes') as Judgment, answer: (i % 3 ? 'no' : 'yes') as Judgment }));

/** A careful worker: 9 of 10 checks passed, 40 answers agreeing with the others. */
const trusted: WorkerStanding = {
  verdict: workerVerdict({
    checks: [
      ...Array.from({ length: 9 }, () => ({ expected: 'yes' as Judgment, answer: 'yes' as Judgment })),
      { expected: 'no', answer: 'yes' },
    ],
    compared: agreeing(40),
  }),
  stoppedReason: null,
};
/** A new worker whose first check was missed: one HIT, 1 of 1 check failed, nobody else's answers to compare yet. */
const newcomer: WorkerStanding = {
  verdict: workerVerdict({ checks: [{ expected: 'no', answer: 'yes' }], compared: [], assignments: 1 }),
  stoppedReason: null,
};
/** Checks that condemn: 2 of 12 passed (a worker right on a sixth of easy questions). */
const condemned: WorkerStanding = {
  verdict: workerVerdict({
    checks: Array.from({ length: 12 }, (_, i) => ({ expected: 'no' as Judgment, answer: (i < 2 ? 'no' : 'yes') as Judgment })),
    compared: [],
  }),
  stoppedReason: null,
};
/** Nothing known yet: the prior. */
const unknown: WorkerStanding = { verdict: workerVerdict({ checks: [], compared: [] }), stoppedReason: null };
const stopped: WorkerStanding = { ...unknown, stoppedReason: 'stopped: P(not doing the task) > 99.99% ...' };

describe('decideWithStanding', () => {
  it('approves and counts work that passed its checks', () => {
    for (const standing of [undefined, trusted, unknown])
      expect(decideWithStanding(passed, standing)).toMatchObject({ action: 'approve', countsVotes: true });
  });

  it("discards (paid) every assignment of a stopped worker, passed or not, with the worker's reason", () => {
    for (const score of [passed, failed]) {
      const d = decideWithStanding(score, stopped);
      expect(d).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
      expect(d.reason).toBe('the worker was stopped for the batch: stopped: P(not doing the task) > 99.99% ...');
      expect(d.feedback).toMatch(/approved and paid, but its answers are not used/);
    }
  });

  it("rejects a stopped worker's work when the batch's policy is reject", () => {
    const d = decideWithStanding(passed, stopped, { onFailure: 'reject' });
    expect(d).toMatchObject({ action: 'reject', countsVotes: false });
    expect(d.feedback).toMatch(/contact us quoting the assignment ID/);
  });

  it("follows the batch's stop policy (workerStop) for a stopped worker's work, whatever onFailure says", () => {
    for (const score of [passed, failed]) {
      expect(decideWithStanding(score, stopped, { onFailure: 'approve-and-discard', workerStop: 'reject' })).toMatchObject({
        action: 'reject',
        countsVotes: false,
      });
      expect(decideWithStanding(score, stopped, { onFailure: 'reject', workerStop: 'discard' })).toMatchObject({
        action: 'approve-and-discard',
        countsVotes: false,
      });
    }
    // the failed checks of a worker who is not stopped still follow onFailure
    expect(decideWithStanding(failed, condemned, { onFailure: 'approve-and-discard', workerStop: 'reject' })).toMatchObject({
      action: 'approve-and-discard',
    });
  });

  it('tells a worker stopped for LLM-assisted answers why, with the same reason chain', () => {
    const llm: WorkerStanding = {
      ...unknown,
      stoppedReason: 'llm-assisted: followed agent A on 30 of 31 items',
      stoppedCause: 'llm-assisted',
    };
    const d = decideWithStanding(passed, llm);
    expect(d).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
    expect(d.reason).toBe('the worker was stopped for the batch: llm-assisted: followed agent A on 30 of 31 items');
    expect(d.feedback).toMatch(/AI assistant/);
    expect(decideWithStanding(passed, stopped).feedback).not.toMatch(/AI assistant/);
  });

  it("counts a failed check's assignment when the worker's record speaks for them, and says why", () => {
    expect(trusted.verdict.probabilityNotWorking).toBeLessThan(0.1);
    const d = decideWithStanding(failed, trusted);
    expect(d).toMatchObject({ action: 'approve', countsVotes: true, feedback: null });
    expect(d.reason).toMatch(/^failed 1 of 1 attention checks: .*; counted: the worker's record across the batch speaks for them \(kept: /);
  });

  it('lets the checks decide without a standing (worker-level decisions off: the DREAM protocol)', () => {
    expect(decideWithStanding(failed, undefined)).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
    expect(decideWithStanding(failed, undefined, { onFailure: 'reject' })).toMatchObject({ action: 'reject' });
  });

  it('keeps a new worker on probation: one missed check moves the posterior, it does not discard the assignment', () => {
    for (const standing of [newcomer, unknown]) {
      const d = decideWithStanding(failed, standing);
      expect(d).toMatchObject({ action: 'approve', countsVotes: true, feedback: null });
      expect(d.reason).toMatch(/counted: on probation, .*P\(check accuracy < 0\.7\) \d+\.\d% \(< 95\.0%\)/);
    }
    expect(decideWithStanding(failed, newcomer, { onFailure: 'reject' })).toMatchObject({ action: 'approve', countsVotes: true });
  });

  it('discards when the posterior says so with the stated confidence: from the checks, or from all the evidence', () => {
    const d = decideWithStanding(failed, condemned);
    expect(d).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
    expect(d.reason).toMatch(/P\(check accuracy < 0\.7\) \d+\.\d% \(≥ 95\.0%\) from 2 of 12 checks passed/);
    expect(decideWithStanding(failed, condemned, { onFailure: 'reject' })).toMatchObject({ action: 'reject' });
    // a first HIT is too little to stop on, yet enough to discard when P(not working) passes 95%
    const clicker: WorkerStanding = {
      verdict: workerVerdict({
        checks: [{ expected: 'no', answer: 'yes' }],
        compared: Array.from({ length: 12 }, (_, i) => ({ reference: 'no' as Judgment, answer: (i % 2 ? 'yes' : 'no') as Judgment })),
        speed: 0.2,
        assignments: 1,
      }),
      stoppedReason: null,
    };
    expect(clicker.verdict.stop).toBe(false);
    expect(clicker.verdict.probabilityNotWorking).toBeGreaterThanOrEqual(0.95);
    expect(decideWithStanding(failed, clicker)).toMatchObject({ action: 'approve-and-discard', countsVotes: false });
  });
});
