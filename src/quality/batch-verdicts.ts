import type { ScoredAssignment } from './counted-votes.js';
import { workerEvidence, type Reference } from './worker-evidence.js';
import { copyingPairs, itemAnswers, partnersOf, reliabilities, weightedReferences, type CopyingPair } from './worker-model.js';
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
 * compared with come from the fitted worker model (quality/worker-model.ts), never from the raw
 * majority of whoever came first. The first pass compares with the others' majority (leaving
 * out `notReferences`: those already stopped, and those whose answers are not a person's own
 * judgment: flagged LLM-assisted); every later pass with the leave-one-out posterior of a
 * one-coin model whose weights are each worker's accuracy estimated in the pass before
 * (`reliabilities`), leaving out of a worker's reference the workers found to copy them
 * (`copyingPairs`) and out of every reference the workers more likely not working than working
 * (P ≥ ½). When a third or more of a batch clicks at random, two others agreeing is often two
 * non-workers agreeing by chance, and a careful worker compared with them seems to agree on 60%
 * of the items only. It stops when the workers left out no longer change (after at least two
 * passes, so that the weights apply) or after `passes`. Each worker's own evidence always counts
 * all their answers.
 */
export interface BatchVerdicts {
  readonly verdicts: Map<string, WorkerVerdict>;
  readonly evidence: Map<string, WorkerEvidence>;
  readonly fit: MixtureFit;
  /** Workers left out of the references in the last pass (`notReferences` or P ≥ ½). */
  readonly leftOut: ReadonlySet<string>;
  /** The references of the last pass, for the drift test's outcomes. */
  readonly references: Reference;
  /**
   * The outcomes against `references` (answerOutcomes) of the assignments of the workers judged
   * again, by assignment id, when the verdicts re-judged some (`rejudgedVerdicts`): the drift
   * test takes them rather than looking every reference up again.
   */
  readonly outcomes?: ReadonlyMap<string, readonly boolean[]>;
  /** Pairs of workers whose agreement is beyond what their accuracies explain. */
  readonly copying: readonly CopyingPair[];
  /** What the last pass's references weighed: each worker's estimated accuracy, and the copying partners kept apart (none in a first pass). */
  readonly weights: { readonly accuracy: ReadonlyMap<string, number>; readonly apart: ReadonlyMap<string, ReadonlySet<string>> };
}

export function batchVerdicts(
  scored: readonly ScoredAssignment[],
  notReferences: ReadonlySet<string> = new Set(),
  base: WorkerVerdictPolicy = DEFAULT_VERDICT_POLICY,
  passes = 5,
): BatchVerdicts {
  let leftOut: ReadonlySet<string> = new Set(notReferences);
  // the items' answers without the workers left out: the same set of workers, the same answers (not gathered again)
  let answers = itemAnswers(scored, leftOut);
  let references: Reference = weightedReferences(answers);
  let copying: CopyingPair[] = [];
  let weights: BatchVerdicts['weights'] = { accuracy: new Map(), apart: new Map() };
  for (let pass = 1; ; pass++) {
    const evidence = workerEvidence(scored, leftOut, references);
    const fit = fitVerdictPolicy(evidence.values(), base);
    const verdicts = new Map([...evidence].map(([worker, e]) => [worker, workerVerdict(e, fit.policy)] as const));
    const next = new Set([...notReferences, ...[...verdicts].filter(([, v]) => v.probabilityNotWorking >= 0.5).map(([w]) => w)]);
    const same = next.size === leftOut.size && [...next].every((w) => leftOut.has(w));
    if (pass >= passes || (pass >= 2 && same)) return { verdicts, evidence, fit, leftOut, references, copying, weights };
    leftOut = next;
    const accuracy = reliabilities(evidence, verdicts, { mean: fit.agreementMean, concentration: fit.concentration });
    if (!same) answers = itemAnswers(scored, leftOut);
    copying = copyingPairs(answers, accuracy);
    weights = { accuracy, apart: partnersOf(copying) };
    references = weightedReferences(answers, weights.accuracy, weights.apart);
  }
}

/**
 * The verdicts of a batch that grew since `kept` was fitted (pure; docs/decisions/0017): the
 * fitted working model, the workers left out of the references and the references' weights
 * (each worker's accuracy, the copying partners) stay those of `kept`; the references are taken
 * again over the batch's answers now (the new items get one), every worker's evidence against
 * them, and only the workers in `rejudge` (those with new work) get a new verdict, under the
 * kept fit's policy; the others keep theirs, and the evidence it was given on (their answers are
 * not compared with the references again). A worker new since `kept` weighs as one the model
 * knows nothing of (worker-model.ts).
 */
export function rejudgedVerdicts(scored: readonly ScoredAssignment[], kept: BatchVerdicts, rejudge: ReadonlySet<string>): BatchVerdicts {
  const references = weightedReferences(itemAnswers(scored, kept.leftOut), kept.weights.accuracy, kept.weights.apart);
  const judged = (worker: string) => rejudge.has(worker) || !kept.verdicts.has(worker);
  // only the judged workers' answers are compared with the references: the others' evidence
  // serves for the batch's typical time alone, and they keep their verdict and its evidence
  const outcomes = new Map<string, boolean[]>();
  const fresh = workerEvidence(scored, kept.leftOut, references, { compares: judged, outcomes });
  const verdicts = new Map<string, WorkerVerdict>();
  const evidence = new Map<string, WorkerEvidence>();
  for (const [worker, e] of fresh) {
    const before = judged(worker) ? undefined : kept.verdicts.get(worker);
    verdicts.set(worker, before ?? workerVerdict(e, kept.fit.policy));
    evidence.set(worker, before ? (kept.evidence.get(worker) ?? e) : e);
  }
  return { ...kept, verdicts, evidence, references, outcomes };
}
