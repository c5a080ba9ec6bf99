import { dawidSkene, type ConfusionCounts, type DawidSkeneResult, type TiePolicy, type Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import type { ScoredAssignment } from './counted-votes.js';
import { workerVerdict, type WorkerEvidence } from './worker-verdict.js';
import { workerEvidence } from './worker-evidence.js';
import { llmAssistedVerdicts } from './llm-flags.js';

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
 *   answers per class: it decides for workers with few answers and yields to the data;
 * - **one shared source counted once**: the workers the LLM-assisted evidence flags from the
 *   answers themselves (llm-flags.ts over the assignments alone: shared errors, page events,
 *   canary) answer with one model, so on each item they speak as one worker, with their
 *   majority (a tie says nothing) and one confusion matrix fitted on all their answers
 *   (prior: the mean of theirs). Their answers keep the information of one more reader of
 *   the model's accuracy, while a group of them cannot outvote people as several
 *   independent votes (the Bayes optimum of the quality targets counts them so too).
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

/** The key under which the LLM-flagged workers answer as one source. */
export const LLM_SOURCE = 'llm-assisted workers (one source)';

/** Worker -> the shared source they answer from: every worker the LLM-assisted evidence flags from the assignments alone. */
export function sharedSources(scored: readonly ScoredAssignment[]): Map<string, string> {
  const verdicts = llmAssistedVerdicts(scored, new Map());
  return new Map([...verdicts].filter(([, v]) => v.flagged).map(([worker]) => [worker, LLM_SOURCE]));
}

/**
 * The votes with each shared source speaking once per item (its members' majority; a tie
 * drops the item for that source), and the priors with each source's the mean of its members'.
 */
export function votesBySource(
  votes: readonly Vote<Judgment>[],
  priors: Readonly<Record<string, ConfusionCounts<Judgment>>>,
  sources: ReadonlyMap<string, string>,
): { votes: Vote<Judgment>[]; priors: Record<string, ConfusionCounts<Judgment>> } {
  const spoken = new Map<string, { item: string; worker: string; yes: number; no: number }>();
  const out: Vote<Judgment>[] = [];
  for (const v of votes) {
    const source = sources.get(v.worker);
    if (source === undefined) {
      out.push(v);
      continue;
    }
    const key = JSON.stringify([source, v.item]);
    const s = spoken.get(key) ?? { item: v.item, worker: source, yes: 0, no: 0 };
    if (v.label === 'yes') s.yes++;
    else s.no++;
    spoken.set(key, s);
  }
  for (const s of spoken.values()) if (s.yes !== s.no) out.push({ item: s.item, worker: s.worker, label: s.yes > s.no ? 'yes' : 'no' });
  const merged: Record<string, ConfusionCounts<Judgment>> = {};
  const members = new Map<string, ConfusionCounts<Judgment>[]>();
  for (const [worker, prior] of Object.entries(priors)) {
    const source = sources.get(worker);
    if (source === undefined) merged[worker] = prior;
    else members.set(source, [...(members.get(source) ?? []), prior]);
  }
  for (const [source, list] of members) {
    const mean = (truth: Judgment, answer: Judgment) => list.reduce((sum, p) => sum + p[truth][answer], 0) / list.length;
    merged[source] = { yes: { yes: mean('yes', 'yes'), no: mean('yes', 'no') }, no: { yes: mean('no', 'yes'), no: mean('no', 'no') } };
  }
  return { votes: out, priors: merged };
}

/** Dawid–Skene over every answer, checks as gold, worker priors from the evidence, each shared source once (`sources`). */
export function dawidSkeneWithEvidence(
  scored: readonly ScoredAssignment[],
  tiePolicy: TiePolicy<Judgment>,
  sources: ReadonlyMap<string, string> = sharedSources(scored),
): EvidenceDawidSkene {
  const evidence = evidenceVotes(scored);
  const priors = Object.fromEntries([...workerEvidence(scored)].map(([worker, e]) => [worker, confusionPriorFromEvidence(e)]));
  const bySource = votesBySource(evidence.votes, priors, sources);
  const fitted = dawidSkene<Judgment>({ tiePolicy, gold: evidence.gold, confusionPrior: { workers: bySource.priors } }).fit(
    bySource.votes,
    CATEGORIES,
  );
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
