import type { ScoredAssignment } from './counted-votes.js';
import { workerEvidence } from './worker-evidence.js';
import { fitVerdictPolicy, type MixtureFit } from './worker-mixture.js';
import {
  DEFAULT_VERDICT_POLICY,
  workerVerdict,
  type WorkerEvidence,
  type WorkerVerdict,
  type WorkerVerdictPolicy,
} from './worker-verdict.js';

/**
 * Every worker's verdict in a batch (pure): evidence, the batch's fitted working model
 * (worker-mixture.ts) and `workerVerdict`, iterated so that the references each worker is
 * compared with come from the workers believed to work. A reference is the others' majority
 * on an item; when a third or more of a batch clicks at random, two others agreeing is often
 * two non-workers agreeing by chance, and a careful worker then seems to agree on 60% of the
 * items only. As Dawid–Skene re-weighs each worker's vote by their estimated reliability,
 * each pass leaves out of the references the workers more likely not working than working
 * (P ≥ ½) besides `notReferences` (those already stopped, and those whose answers are not a
 * person's own judgment: flagged LLM-assisted), until that set no longer changes (at most
 * `passes`). Each worker's own evidence always counts all their answers.
 */
export interface BatchVerdicts {
  readonly verdicts: Map<string, WorkerVerdict>;
  readonly evidence: Map<string, WorkerEvidence>;
  readonly fit: MixtureFit;
  /** Workers left out of the references in the last pass (`notReferences` or P ≥ ½). */
  readonly leftOut: ReadonlySet<string>;
}

export function batchVerdicts(
  scored: readonly ScoredAssignment[],
  notReferences: ReadonlySet<string> = new Set(),
  base: WorkerVerdictPolicy = DEFAULT_VERDICT_POLICY,
  passes = 5,
): BatchVerdicts {
  let leftOut: ReadonlySet<string> = new Set(notReferences);
  for (let pass = 1; ; pass++) {
    const evidence = workerEvidence(scored, leftOut);
    const fit = fitVerdictPolicy(evidence.values(), base);
    const verdicts = new Map([...evidence].map(([worker, e]) => [worker, workerVerdict(e, fit.policy)] as const));
    const next = new Set([...notReferences, ...[...verdicts].filter(([, v]) => v.probabilityNotWorking >= 0.5).map(([w]) => w)]);
    if (pass >= passes || (next.size === leftOut.size && [...next].every((w) => leftOut.has(w))))
      return { verdicts, evidence, fit, leftOut };
    leftOut = next;
  }
}
