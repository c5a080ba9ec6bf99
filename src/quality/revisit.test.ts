import { describe, expect, it } from 'vitest';
import type { Judgment } from '../domain/cases.js';
import { clears, clearsOfLlm, LLM_CLEARED_BELOW, liftedStops, recounts, type RevisitedAssignment } from './revisit.js';
import { DEFAULT_VERDICT_POLICY, workerVerdict, type WorkerVerdict } from './worker-verdict.js';

const same = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference: (i % 3 ? 'no' : 'yes') as Judgment, answer: (i % 3 ? 'no' : 'yes') as Judgment }));
const coin = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ reference: 'no' as Judgment, answer: (i % 2 ? 'yes' : 'no') as Judgment }));

/** A careful worker's record once the batch holds enough of it: 9 of 10 checks, 40 answers agreeing. */
const careful: WorkerVerdict = workerVerdict({
  checks: [
    ...Array.from({ length: 9 }, () => ({ expected: 'yes' as Judgment, answer: 'yes' as Judgment })),
    { expected: 'no', answer: 'yes' },
  ],
  compared: same(40),
});
/** A coin: 4 of 8 checks, 20 of 40 answers agreeing. */
const clicker: WorkerVerdict = workerVerdict({
  checks: Array.from({ length: 8 }, (_, i) => ({ expected: 'no' as Judgment, answer: (i % 2 ? 'yes' : 'no') as Judgment })),
  compared: coin(40),
});
/** Nothing known: the prior, which clears nobody. */
const unknown: WorkerVerdict = workerVerdict({ checks: [], compared: [] });
const verdicts = new Map([
  ['W1', careful],
  ['W2', clicker],
  ['W3', unknown],
]);

const discarded = (id: string, workerId: string, over: Partial<RevisitedAssignment> = {}): RevisitedAssignment => ({
  assignmentId: id,
  workerId,
  done: true,
  outcome: 'approved',
  countsVotes: false,
  overridden: false,
  reason: 'failed 1 of 1 attention checks',
  ...over,
});

describe('clears', () => {
  it('clears a worker only when the evidence moved P(not working) below half the prior', () => {
    expect(clears(careful, DEFAULT_VERDICT_POLICY)).toBe(true);
    expect(clears(unknown, DEFAULT_VERDICT_POLICY)).toBe(false);
    expect(clears(clicker, DEFAULT_VERDICT_POLICY)).toBe(false);
  });
});

describe('liftedStops', () => {
  it('lifts a stop for not doing the task that later evidence clears, with the evidence', () => {
    const lifted = liftedStops(
      [{ workerId: 'W1' }, { workerId: 'W2', cause: 'not-working' }, { workerId: 'W3' }, { workerId: 'W9' }],
      verdicts,
      DEFAULT_VERDICT_POLICY,
    );
    expect(lifted.map((l) => l.workerId)).toEqual(['W1']);
    expect(lifted[0]!.reason).toMatch(/^stop lifted: later evidence clears the worker \(kept: P\(not doing the task\) /);
    expect(lifted[0]!.verdict).toBe(careful);
  });

  it('never lifts a stop for LLM-assisted answers on evidence that does not bear on them', () => {
    expect(liftedStops([{ workerId: 'W1', cause: 'llm-assisted' }], verdicts, DEFAULT_VERDICT_POLICY)).toEqual([]);
  });

  it('lifts a stop for LLM-assisted answers when the recomputed LLM verdict clears the worker, and only then', () => {
    const stops = [
      { workerId: 'W1', cause: 'llm-assisted' as const },
      { workerId: 'W2', cause: 'llm-assisted' as const },
      { workerId: 'W3', cause: 'llm-assisted' as const },
      { workerId: 'W9', cause: 'llm-assisted' as const },
    ];
    const llm = new Map([
      ['W1', { flagged: false, posterior: { probability: 0.02 } }],
      // still flagged (the canary, say) although the posterior is low
      ['W2', { flagged: true, posterior: { probability: 0.02 } }],
      // no longer flagged, but not cleared either
      ['W3', { flagged: false, posterior: { probability: LLM_CLEARED_BELOW } }],
      ['W9', { flagged: false, posterior: { probability: 0.01 } }],
    ]);
    const lifted = liftedStops(stops, verdicts, DEFAULT_VERDICT_POLICY, llm);
    // W9 has no worker verdict (nothing of theirs in the batch): nothing to lift against
    expect(lifted.map((l) => l.workerId)).toEqual(['W1']);
    expect(lifted[0]!.reason).toBe('stop lifted: later evidence clears the worker of LLM-assisted answers (P(LLM-assisted) 2.0%)');
    // a drift stop is not the LLM verdict's to lift
    expect(liftedStops([{ workerId: 'W1', cause: 'drift' }], verdicts, DEFAULT_VERDICT_POLICY, llm)).toEqual([]);
  });

  it('clearsOfLlm needs a posterior under the bound and no flag', () => {
    expect(clearsOfLlm(undefined)).toBe(false);
    expect(clearsOfLlm({ flagged: false })).toBe(false);
    expect(clearsOfLlm({ flagged: false, posterior: { probability: 0.49 } })).toBe(true);
    expect(clearsOfLlm({ flagged: true, posterior: { probability: 0.1 } })).toBe(false);
  });
});

describe('recounts', () => {
  it("counts a cleared worker's discarded, paid assignments again and says why", () => {
    const again = recounts(
      [discarded('a1', 'W1'), discarded('a2', 'W2'), discarded('a3', 'W3')],
      verdicts,
      new Set(),
      DEFAULT_VERDICT_POLICY,
    );
    expect(again.map((a) => a.assignmentId)).toEqual(['a1']);
    expect(again[0]!.reason).toMatch(/^failed 1 of 1 attention checks; counted again: later evidence clears the worker \(kept: /);
  });

  it('leaves counted, rejected, auto-approved, unreviewed and overridden work, and stopped workers, alone', () => {
    const others = [
      discarded('b1', 'W1', { countsVotes: true }),
      discarded('b2', 'W1', { outcome: 'rejected' }),
      discarded('b3', 'W1', { outcome: 'auto-approved' }),
      discarded('b4', 'W1', { done: false, outcome: null }),
      discarded('b5', 'W1', { overridden: true }),
    ];
    expect(recounts(others, verdicts, new Set(), DEFAULT_VERDICT_POLICY)).toEqual([]);
    expect(recounts([discarded('c1', 'W1')], verdicts, new Set(['W1']), DEFAULT_VERDICT_POLICY)).toEqual([]);
    expect(recounts([discarded('c2', 'W8')], verdicts, new Set(), DEFAULT_VERDICT_POLICY)).toEqual([]);
  });
});
