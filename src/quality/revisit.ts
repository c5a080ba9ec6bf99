import type { WorkerVerdict, WorkerVerdictPolicy } from './worker-verdict.js';

/**
 * Decisions are revisited (pure): every round recomputes each worker's verdict from all the
 * evidence the batch holds, and a worker whom that evidence now clears gets back what an
 * earlier, thinner record cost them. Cleared means the standard under which a failed check is
 * kept (quality/worker-review.ts): P(not doing the task) below half the prior share of such
 * workers, i.e. their work clearly moved the probability down.
 *
 * - A stop for not doing the task is lifted (`liftedStops`): the evidence that stopped them
 *   has been outweighed (the majority they were compared with was polluted by bad workers
 *   not yet stopped, who now are). A stop for LLM-assisted answers is not lifted by this
 *   evidence: it says nothing about where the answers came from.
 * - Their discarded assignments count again (`recounts`): approved (paid) and discarded,
 *   neither rejected (MTurk cannot undo a rejection) nor decided by a person; the labels are
 *   recomputed from them and no extra assignment is bought for them.
 */
export function clears(verdict: WorkerVerdict, policy: Pick<WorkerVerdictPolicy, 'priorNotWorking'>): boolean {
  return verdict.probabilityNotWorking < policy.priorNotWorking / 2;
}

export interface RevisitedStop {
  readonly workerId: string;
  readonly cause?: 'not-working' | 'llm-assisted' | 'drift';
}

/** The stops the workers' verdicts now clear, with the evidence for the audit log. */
export function liftedStops(
  stops: readonly RevisitedStop[],
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  policy: Pick<WorkerVerdictPolicy, 'priorNotWorking'>,
): { workerId: string; reason: string; verdict: WorkerVerdict }[] {
  return stops.flatMap((s) => {
    const verdict = verdicts.get(s.workerId);
    if ((s.cause ?? 'not-working') !== 'not-working' || !verdict || !clears(verdict, policy)) return [];
    return [{ workerId: s.workerId, reason: `stop lifted: later evidence clears the worker (${verdict.reason})`, verdict }];
  });
}

/** An assignment as the revisit sees it. */
export interface RevisitedAssignment {
  readonly assignmentId: string;
  readonly workerId: string;
  /** Reviewed and sent. */
  readonly done: boolean;
  readonly outcome: 'approved' | 'rejected' | 'auto-approved' | null;
  readonly countsVotes: boolean | undefined;
  /** A person decided it (an override): never revisited. */
  readonly overridden: boolean;
  readonly reason: string;
}

/** The discarded assignments of cleared workers who are not stopped, with their new reason. */
export function recounts(
  assignments: readonly RevisitedAssignment[],
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  stopped: ReadonlySet<string>,
  policy: Pick<WorkerVerdictPolicy, 'priorNotWorking'>,
): { assignmentId: string; reason: string }[] {
  return assignments.flatMap((a) => {
    if (!a.done || a.outcome !== 'approved' || a.countsVotes !== false || a.overridden || stopped.has(a.workerId)) return [];
    const verdict = verdicts.get(a.workerId);
    if (!verdict || !clears(verdict, policy)) return [];
    return [{ assignmentId: a.assignmentId, reason: `${a.reason}; counted again: later evidence clears the worker (${verdict.reason})` }];
  });
}
