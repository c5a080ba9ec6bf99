import {
  byCodeUnits,
  fleissKappa,
  indexVotes,
  krippendorffAlpha,
  pairableVotes,
  type AggregationResult,
  type FleissKappaResult,
  type ItemCounts,
  type KrippendorffAlphaResult,
  type TiePolicy,
  type Vote,
} from '../aggregate/index.js';
import type { AssignmentDoc, BatchSettings, HitDoc, StoredAnswer } from '../db/models/index.js';
import { canaryWord } from '../hits/canary.js';
import type { Judgment } from '../domain/cases.js';
import { caseKey } from '../ingest/index.js';
import {
  countedVotes,
  fitAggregator,
  workerStatistics,
  type Answer,
  type AssignmentRecord,
  type HitRecord,
  type ScoredAssignment,
  type WorkerStats,
} from '../quality/index.js';
import { checkItemId, itemId } from './names.js';
import { recentByScores, rememberedAssignmentRecord, rememberedHitRecord, scoreRemembered } from './derived-records.js';

/**
 * From stored HITs and assignments to labels, agreement and worker statistics (pure).
 *
 * Which votes decide a label: an item's valid votes are the answers of assignments that
 * passed every attention check of their HIT and were not rejected or discarded. Extra
 * assignments serve every item of their HIT, so an item can end with more valid votes than
 * its target; the protocol is a majority of 3, so the label (and κ, α) use the first
 * `voteTarget` valid votes in submission order, and the others only enter the worker
 * statistics. With fewer votes (a batch stopped early), the label is the majority of what
 * there is, and a tie goes by the batch's tie policy (`unresolved` by default: no label).
 * Dawid–Skene, when chosen, models every answer with the attention checks as gold items and
 * worker priors from the evidence (quality/evidence-aggregation.ts), and gives each item a
 * posterior. κ and α are computed over the same items: those with 2 or more of the votes used.
 */

export const CATEGORIES: readonly Judgment[] = ['yes', 'no'];

const time = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : Number.MAX_SAFE_INTEGER);

/** Assignments in submission order (then id): the order votes count in (each time read once, not once per comparison). */
export function bySubmission<A extends Pick<AssignmentDoc, '_id' | 'submittedAt'>>(assignments: readonly A[]): A[] {
  return assignments
    .map((a) => ({ a, at: time(a.submittedAt) }))
    .sort((x, y) => x.at - y.at || (x.a._id < y.a._id ? -1 : x.a._id > y.a._id ? 1 : 0))
    .map(({ a }) => a);
}

export function hitRecord(hit: Pick<HitDoc, '_id' | 'batch' | 'items'>): HitRecord {
  return {
    hitId: hit._id,
    items: hit.items.filter((i) => i.kind === 'real').map((i) => itemId(hit.batch, caseKey(i.queryId, i.chunkId))),
    checks: hit.items.flatMap((i) =>
      i.kind === 'check' ? [{ item: checkItemId(caseKey(i.queryId, i.chunkId)), expected: i.expected }] : [],
    ),
  };
}

/** The review as the quality module sees it: reviewed or not, paid, counted. */
export function assignmentRecord(a: AssignmentDoc): AssignmentRecord {
  const reviewed = a.reviewState === 'done';
  const status = !reviewed ? 'submitted' : a.outcome === 'rejected' ? 'rejected' : 'approved';
  const discarded = reviewed && status === 'approved' && a.review?.countsVotes === false && !a.override;
  const kept = reviewed && status === 'approved' && a.review?.countsVotes === true && !a.override;
  const work = a.acceptedAt && a.submittedAt ? new Date(a.submittedAt).getTime() - new Date(a.acceptedAt).getTime() : undefined;
  return {
    assignmentId: a._id,
    hitId: a.hit,
    worker: a.workerId,
    status,
    ...(discarded && { discarded }),
    ...(kept && { kept }),
    ...(a.override && { overridden: a.override.decision === 'approve' ? ('counts' as const) : ('excluded' as const) }),
    answers: a.answers.flatMap((x) => (x.answer ? [{ item: x.item, label: x.answer, ...pageSignals(x) }] : [])),
    ...(work !== undefined && work >= 0 && { workTimeMs: work }),
  };
}

/** What the page recorded about an answer besides the label: time, comment, events, the canary it carried. */
export function pageSignals(x: StoredAnswer): Omit<Answer, 'item' | 'label'> {
  return {
    ...(typeof x.ms === 'number' && { timeMs: x.ms }),
    ...(x.comment !== '' && { comment: x.comment }),
    ...(x.copies && { copies: x.copies }),
    ...(x.pastes && { pastes: x.pastes }),
    ...(x.focusLosses && { focusLosses: x.focusLosses }),
    canary: canaryWord(x.key),
  };
}

/** `hitRecord(hit)`, built once per document object (derived-records.ts). */
export const storedHitRecord = (hit: HitDoc): HitRecord => rememberedHitRecord(hit, hitRecord);

/**
 * Every assignment scored against its HIT's checks, in submission order. The records and
 * scores of documents unchanged since an earlier call are reused (derived-records.ts).
 */
export function scoreStored(hits: readonly HitDoc[], assignments: readonly AssignmentDoc[]): ScoredAssignment[] {
  const last = lastScoring;
  const hitRecords = hits.map(storedHitRecord);
  const reuse = last !== undefined && sameOrder(last, hitRecords, assignments);
  const ordered = reuse ? last.ordered : scoredInOrder(hitRecords, assignments);
  const records = ordered.map((a) => rememberedAssignmentRecord(a, assignmentRecord));
  if (reuse && records.every((r, i) => r === last.records[i])) return last.scored;
  const scored = scoreRemembered(records, hitRecords);
  lastScoring = {
    hitRecords,
    assignments,
    docs: [...assignments],
    ordered,
    ids: ordered.map((a) => a._id),
    times: ordered.map(submissionTime),
    hitIds: ordered.map((a) => a.hit),
    records,
    scored,
  };
  return scored;
}

/** The assignments of these HITs, in submission order. */
function scoredInOrder(hitRecords: readonly HitRecord[], assignments: readonly AssignmentDoc[]): AssignmentDoc[] {
  const known = new Set(hitRecords.map((h) => h.hitId));
  return bySubmission(assignments.filter((a) => known.has(a.hit)));
}

/** `time(a.submittedAt)`, without a copy of a stored Date. */
const submissionTime = (a: AssignmentDoc) => (a.submittedAt instanceof Date ? a.submittedAt.getTime() : time(a.submittedAt));

/** What the last scoreStored call scored: its inputs as they were, and what it made of them. */
interface Scoring {
  hitRecords: readonly HitRecord[];
  assignments: readonly AssignmentDoc[];
  /** The assignments list's documents when scored (the list may be changed in place). */
  docs: readonly AssignmentDoc[];
  /** The assignments scored, in submission order, and what their places depend on: each one's id, submission time and HIT then. */
  ordered: readonly AssignmentDoc[];
  ids: readonly string[];
  times: readonly number[];
  hitIds: readonly string[];
  records: readonly AssignmentRecord[];
  scored: ScoredAssignment[];
}

let lastScoring: Scoring | undefined;

/**
 * Whether `last` ordered these very assignments, among HITs of the same records, and none of
 * them changed its id, submission time or HIT since: then its order stands, and only the records of
 * the documents changed in place are built again (derived-records.ts). A collection round scores
 * its batch in several stages, with a few reviews written in between or nothing, and filtering
 * and ordering the whole batch for each was a cost growing with it.
 */
function sameOrder(last: Scoring, hitRecords: readonly HitRecord[], assignments: readonly AssignmentDoc[]): boolean {
  if (last.assignments !== assignments || last.docs.length !== assignments.length || last.hitRecords.length !== hitRecords.length)
    return false;
  for (let i = 0; i < hitRecords.length; i++) if (hitRecords[i] !== last.hitRecords[i]) return false;
  for (let i = 0; i < assignments.length; i++) if (assignments[i] !== last.docs[i]) return false;
  for (let i = 0; i < last.ordered.length; i++) {
    const a = last.ordered[i]!;
    if (a._id !== last.ids[i] || submissionTime(a) !== last.times[i] || a.hit !== last.hitIds[i]) return false;
  }
  return true;
}

/** Per item, its first `target` valid votes (votes must be in submission order). */
export function labelVotes(votes: readonly Vote<Judgment>[], target: number): Vote<Judgment>[] {
  const taken = new Map<string, number>();
  return votes.filter((v) => {
    const n = taken.get(v.item) ?? 0;
    if (n >= target) return false;
    taken.set(v.item, n + 1);
    return true;
  });
}

export function tiePolicyOf(tie: BatchSettings['tie']): TiePolicy<Judgment> {
  return tie === 'unresolved' ? { kind: 'unresolved' } : { kind: 'fallback', label: tie };
}

export interface BatchAggregate {
  scored: ScoredAssignment[];
  /** Every valid vote, in submission order. */
  valid: Vote<Judgment>[];
  /** The votes labels and agreement are computed from. */
  used: Vote<Judgment>[];
  result: AggregationResult<Judgment>;
  fleissKappa: FleissKappaResult;
  krippendorffAlpha: KrippendorffAlphaResult;
  /** The items κ and α are both computed over: those with 2 or more of the votes used (a single vote has no pair). */
  agreementItems: number;
  /** Computed on first read (then kept). */
  readonly workers: WorkerStats[];
  /** Valid votes per item (all of them). */
  validCounts: Map<string, number>;
}

/**
 * A collection round aggregates the same votes twice (its follow-up, then its labels): the
 * aggregate is a function of the scores and settings alone. Only the last is kept: a
 * simulated batch's rounds asked for no older one, each of which held megabytes of a large
 * batch (issue 38, item 13).
 */
const recentAggregate = recentByScores<BatchAggregate>(1);

export function aggregateStored(
  hits: readonly HitDoc[],
  assignments: readonly AssignmentDoc[],
  settings: Pick<BatchSettings, 'voteTarget' | 'aggregator' | 'tie'>,
): BatchAggregate {
  const scored = scoreStored(hits, assignments);
  const key = JSON.stringify([settings.voteTarget, settings.aggregator, settings.tie]);
  return recentAggregate(scored, key, () => aggregateScored(scored, settings));
}

/** The last majority labels computed (of any batch), from the scores they were computed from. */
let lastMajority: { key: string; scored: ReadonlySet<ScoredAssignment>; result: AggregationResult<Judgment> } | undefined;

/**
 * The items of the assignments among `scored` and `before` that are not in both (pure): the
 * items whose votes may differ between the two, since an item's votes are the answers to it.
 */
export function itemsOfChanged(scored: ReadonlySet<ScoredAssignment>, before: ReadonlySet<ScoredAssignment>): Set<string> {
  const items = new Set<string>();
  for (const s of scored) if (!before.has(s)) for (const item of s.hit.items) items.add(item);
  for (const s of before) if (!scored.has(s)) for (const item of s.hit.items) items.add(item);
  return items;
}

/**
 * The majority labels of `used` (pure), refitting only the items whose votes may have changed
 * since `last`: each item's majority is its own votes' (the scores of unchanged assignments
 * are the same objects from one round to the next, derived-records.ts). Without `last`, every
 * item is fitted.
 */
export function majoritySince(
  used: readonly Vote<Judgment>[],
  scored: ReadonlySet<ScoredAssignment>,
  tiePolicy: TiePolicy<Judgment>,
  last: { scored: ReadonlySet<ScoredAssignment>; result: AggregationResult<Judgment> } | undefined,
): AggregationResult<Judgment> {
  const fit = (votes: readonly Vote<Judgment>[]) => fitAggregator('majority', { used: votes, scored: [], tiePolicy });
  if (!last) return fit(used);
  const touched = itemsOfChanged(scored, last.scored);
  const fresh = fit(used.filter((v) => touched.has(v.item))).items;
  // both lists sorted by item id in UTF-16 code units (aggregate/votes.ts), as `<` compares strings: merged in that order
  const items: (typeof fresh)[number][] = [];
  let f = 0;
  for (const it of last.result.items) {
    if (touched.has(it.item)) continue;
    while (f < fresh.length && fresh[f]!.item < it.item) items.push(fresh[f++]!);
    items.push(it);
  }
  while (f < fresh.length) items.push(fresh[f++]!);
  return { ...last.result, items, unresolved: items.filter((it) => it.label === null).length };
}

/** What κ and α were last computed from: the scores, and each item's counts per category of its pairable votes (sorted by item). */
export interface AgreementCounts {
  readonly scored: ReadonlySet<ScoredAssignment>;
  readonly items: readonly string[];
  readonly byItem: ReadonlyMap<string, Float64Array>;
}

/** The last counts κ and α were computed from (of any batch), by vote target. */
let lastAgreement: { key: number; counts: AgreementCounts } | undefined;

/**
 * The counts κ and α read (pure): those of indexVotes(pairableVotes(used)), counting anew
 * only the items whose votes may have changed since `last` (itemsOfChanged), the others'
 * taken from `last`; the same items in the same order with the same counts, so κ and α are
 * the same to the last bit. Indexing every vote of the batch (checked, sorted) each round
 * was a cost growing with the batch. Without `last`, every vote is indexed.
 */
export function agreementCountsSince(
  used: readonly Vote<Judgment>[],
  scored: ReadonlySet<ScoredAssignment>,
  last: AgreementCounts | undefined,
): { counts: ItemCounts<Judgment>; next: AgreementCounts } {
  const K = CATEGORIES.length;
  const countsOf = (index: ItemCounts<Judgment>) =>
    new Map(index.items.map((item, i) => [item, index.counts.slice(i * K, (i + 1) * K)] as const));
  if (!last) {
    const index = indexVotes(pairableVotes(used), CATEGORIES);
    return { counts: index, next: { scored, items: index.items, byItem: countsOf(index) } };
  }
  const touched = itemsOfChanged(scored, last.scored);
  const fresh = indexVotes(pairableVotes(used.filter((v) => touched.has(v.item))), CATEGORIES);
  const byItem = new Map(last.byItem);
  for (const item of touched) byItem.delete(item);
  for (const [item, c] of countsOf(fresh)) byItem.set(item, c);
  // both lists sorted by code units (aggregate/votes.ts): merged in that order
  const items: string[] = [];
  let f = 0;
  for (const item of last.items) {
    if (touched.has(item)) continue;
    while (f < fresh.items.length && byCodeUnits(fresh.items[f]!, item) < 0) items.push(fresh.items[f++]!);
    items.push(item);
  }
  while (f < fresh.items.length) items.push(fresh.items[f++]!);
  const counts = new Float64Array(items.length * K);
  items.forEach((item, i) => counts.set(byItem.get(item)!, i * K));
  return { counts: { categories: CATEGORIES, items, counts }, next: { scored, items, byItem } };
}

function aggregateScored(scored: ScoredAssignment[], settings: Pick<BatchSettings, 'voteTarget' | 'aggregator' | 'tie'>): BatchAggregate {
  const valid = countedVotes(scored);
  const used = labelVotes(valid, settings.voteTarget);
  const tiePolicy = tiePolicyOf(settings.tie);
  const set = new Set(scored);
  // κ and α count the same votes: counted once for both, anew only for the items the new work touched
  const agreement = agreementCountsSince(used, set, lastAgreement?.key === settings.voteTarget ? lastAgreement.counts : undefined);
  lastAgreement = { key: settings.voteTarget, counts: agreement.next };
  const pairableIndex = agreement.counts;
  let result: AggregationResult<Judgment>;
  if (settings.aggregator === 'majority') {
    // a collection round's new work changes a few items' votes: the others keep their majority
    const key = JSON.stringify([settings.voteTarget, settings.tie]);
    result = majoritySince(used, set, tiePolicy, lastMajority?.key === key ? lastMajority : undefined);
    lastMajority = { key, scored: set, result };
  } else result = fitAggregator(settings.aggregator, { used, scored, tiePolicy });
  const validCounts = new Map<string, number>();
  for (const v of valid) validCounts.set(v.item, (validCounts.get(v.item) ?? 0) + 1);
  let workers: WorkerStats[] | undefined;
  return {
    scored,
    valid,
    used,
    result,
    fleissKappa: fleissKappa.computeIndexed(pairableIndex),
    krippendorffAlpha: krippendorffAlpha.computeIndexed(pairableIndex),
    agreementItems: pairableIndex.items.length,
    // computed when first read (then kept): a collection round aggregates every round but
    // reads the worker statistics only when its batch is finished (reputation.ts), so
    // computing them each round made every round pay for the whole batch's workers
    get workers() {
      return (workers ??= workerStatistics(scored, {}, undefined, valid));
    },
    validCounts,
  };
}
