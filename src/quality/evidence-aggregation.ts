import { dawidSkene, type ConfusionCounts, type DawidSkeneResult, type TiePolicy, type Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { workerVerdict, type WorkerEvidence } from './worker-verdict.js';
import { workerEvidence } from './worker-evidence.js';

/**
 * Dawid–Skene that uses everything a batch knows (pure):
 * - **every answer** of every submitted assignment, counted or not (a discarded assignment
 *   of a careful worker still says something; a spammer's answers get the weight their
 *   estimated confusion matrix gives them, near none), except those a person excluded
 *   (`review override --reject`);
 * - the **attention checks as gold items**: their known answers are held fixed in every
 *   E-step, so each worker's confusion matrix is anchored by answers whose truth is known,
 *   in both polarities;
 * - a **prior on each worker's confusion matrix from the evidence** of the worker-level
 *   decisions (quality/worker-verdict.ts): with probability 1 − p (p = P(not doing the
 *   task | checks, agreement)) the worker reads the items (pseudo-counts 3 right, 1 wrong
 *   per class: a mild belief that people do better than chance), with probability p their
 *   answers ignore the item (both rows follow their own share of "yes"). The prior weighs 4
 *   answers per class: it decides for workers with few answers and yields to the data.
 * Labels are returned for real items only; check items shape the workers' matrices.
 */

export const CATEGORIES: readonly Judgment[] = ['yes', 'no'];

/** Pseudo-counts per class of the prior (right, wrong) for someone who reads the items, and its total weight per class. */
const READING = { right: 3, wrong: 1 } as const;
const PRIOR_WEIGHT = READING.right + READING.wrong;

export interface EvidenceVotes {
  /** One answer per worker and item (the first, in the order given), real items and checks alike. */
  readonly votes: Vote<Judgment>[];
  /** Check item -> its known answer. */
  readonly gold: Record<string, Judgment>;
  /** The real items. */
  readonly realItems: ReadonlySet<string>;
}

/** Every usable answer, the checks' known answers and the real items, from scored assignments. */
export function evidenceVotes(scored: readonly ScoredAssignment[]): EvidenceVotes {
  const votes: Vote<Judgment>[] = [];
  const gold: Record<string, Judgment> = {};
  const realItems = new Set<string>();
  const seen = new Set<string>();
  for (const { assignment, hit } of scored) {
    for (const item of hit.items) realItems.add(item);
    for (const check of hit.checks) gold[check.item] = check.expected;
    if (assignment.overridden === 'excluded') continue;
    for (const answer of assignment.answers) {
      const key = JSON.stringify([answer.item, assignment.worker]);
      if (seen.has(key)) continue;
      seen.add(key);
      votes.push({ item: answer.item, worker: assignment.worker, label: answer.label });
    }
  }
  return { votes, gold, realItems };
}

/** The prior on a worker's confusion matrix from their evidence (see the module comment). */
export function confusionPriorFromEvidence(evidence: WorkerEvidence): ConfusionCounts<Judgment> {
  const p = workerVerdict(evidence).probabilityNotWorking;
  const answers = [...evidence.checks, ...evidence.compared];
  const yesShare = (answers.filter((a) => a.answer === 'yes').length + 1) / (answers.length + 2);
  const cell = (truth: Judgment, answer: Judgment) =>
    (1 - p) * (answer === truth ? READING.right : READING.wrong) + p * PRIOR_WEIGHT * (answer === 'yes' ? yesShare : 1 - yesShare);
  return {
    yes: { yes: cell('yes', 'yes'), no: cell('yes', 'no') },
    no: { yes: cell('no', 'yes'), no: cell('no', 'no') },
  };
}

export interface EvidenceDawidSkene {
  /** Fitted on real items and checks; `items` holds the real items only (`unresolved` counts those). */
  readonly result: DawidSkeneResult<Judgment>;
  /** Answers the model used (real items and checks). */
  readonly votesUsed: number;
  /** Check items that held a known label. */
  readonly goldItems: number;
}

/** Dawid–Skene over every answer, checks as gold, worker priors from the evidence. */
export function dawidSkeneWithEvidence(scored: readonly ScoredAssignment[], tiePolicy: TiePolicy<Judgment>): EvidenceDawidSkene {
  const evidence = evidenceVotes(scored);
  const workers = Object.fromEntries([...workerEvidence(scored)].map(([worker, e]) => [worker, confusionPriorFromEvidence(e)]));
  const fitted = dawidSkene<Judgment>({ tiePolicy, gold: evidence.gold, confusionPrior: { workers } }).fit(evidence.votes, CATEGORIES);
  const items = fitted.items.filter((it) => evidence.realItems.has(it.item));
  const goldItems = fitted.items.length - items.length;
  return {
    result: { ...fitted, items, unresolved: items.filter((it) => it.label === null).length },
    votesUsed: evidence.votes.length,
    goldItems,
  };
}

/** An item on which the protocol's majority and Dawid–Skene decide differently (a label against none counts). */
export interface LabelDifference {
  readonly item: string;
  readonly majority: Judgment | null;
  readonly dawidSkene: Judgment | null;
  /** Dawid–Skene's posterior probability of "yes". */
  readonly probabilityYes: number | null;
}

/** The items whose labels differ, sorted by item id. */
export function labelDifferences(
  majority: { readonly items: readonly { item: string; label: Judgment | null }[] },
  ds: { readonly items: readonly { item: string; label: Judgment | null; probabilities: Record<Judgment, number> }[] },
): LabelDifference[] {
  const byDs = new Map(ds.items.map((it) => [it.item, it]));
  const items = new Set([...majority.items.map((it) => it.item), ...byDs.keys()]);
  const byMajority = new Map(majority.items.map((it) => [it.item, it.label]));
  return [...items]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap((item) => {
      const m = byMajority.get(item) ?? null;
      const d = byDs.get(item);
      const label = d?.label ?? null;
      return m === label ? [] : [{ item, majority: m, dawidSkene: label, probabilityYes: d ? d.probabilities.yes : null }];
    });
}
