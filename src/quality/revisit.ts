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
 *   evidence, which says nothing about where the answers came from; it is lifted when the
 *   LLM-assisted verdict, recomputed on the batch's evidence (quality/llm-flags.ts), no longer
 *   flags the worker and puts P(LLM-assisted) under `LLM_CLEARED_BELOW` (the shared errors
 *   that stopped them were with workers whom later evidence clears too).
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

/** P(LLM-assisted) under which a worker stopped for LLM-assisted answers is cleared (and not flagged by any rule). */
export const LLM_CLEARED_BELOW = 0.5;

/** What the revisit reads of a worker's LLM-assisted verdict (quality/llm-assisted.ts). */
export interface RevisitedLlmVerdict {
  readonly flagged: boolean;
  readonly posterior?: { readonly probability: number };
}

/** Whether the LLM-assisted verdict clears the worker: not flagged, and P(LLM-assisted) under `LLM_CLEARED_BELOW`. */
export function clearsOfLlm(verdict: RevisitedLlmVerdict | undefined): boolean {
  return verdict !== undefined && !verdict.flagged && verdict.posterior !== undefined && verdict.posterior.probability < LLM_CLEARED_BELOW;
}

/**
 * The stops the workers' verdicts now clear, with the evidence for the audit log: a stop for
 * not doing the task by the worker verdict, a stop for LLM-assisted answers by `llm` (the
 * batch's LLM-assisted verdicts; without them such a stop stays). A drift stop stays.
 */
export function liftedStops(
  stops: readonly RevisitedStop[],
  verdicts: ReadonlyMap<string, WorkerVerdict>,
  policy: Pick<WorkerVerdictPolicy, 'priorNotWorking'>,
  llm: ReadonlyMap<string, RevisitedLlmVerdict> = new Map(),
): { workerId: string; reason: string; verdict: WorkerVerdict }[] {
  return stops.flatMap((s) => {
    const verdict = verdicts.get(s.workerId);
    if (!verdict) return [];
    const cause = s.cause ?? 'not-working';
    if (cause === 'llm-assisted') {
      const v = llm.get(s.workerId);
      if (!clearsOfLlm(v)) return [];
      const p = (100 * v!.posterior!.probability).toFixed(1);
      return [
        {
          workerId: s.workerId,
          reason: `stop lifted: later evidence clears the worker of LLM-assisted answers (P(LLM-assisted) ${p}%)`,
          verdict,
        },
      ];
    }
    if (cause !== 'not-working' || !clears(verdict, policy)) return [];
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
