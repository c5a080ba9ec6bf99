import type { AssignmentDoc, HitDoc } from '../db/models/index.js';
import { scoreAssignments, type AssignmentRecord, type HitRecord, type ScoredAssignment } from '../quality/index.js';

/**
 * What the quality module makes of stored HITs and assignments, remembered per document
 * object. A collection round keeps the batch's documents from one round to the next
 * (round-memory.ts) and scores the whole batch several times a round (worker decisions, llm
 * flags, follow-up, aggregation): building every assignment's record again (a sha-256 canary
 * word per answer: votes.ts's pageSignals) and scoring it against its HIT was most of a
 * round's CPU, and grew with the batch on every round. Now a round pays only for the
 * documents that changed.
 *
 * A record is rebuilt when a field it is made of changed on the document (the round's stages
 * write review, outcome and override in place), and a score when its record or its HIT's
 * record is another object; documents read anew from the database are new objects, so
 * nothing stale outlives a read. Weak maps: forgotten with the documents.
 */

type Build<D, R> = (doc: D) => R;

const time = (d: Date | string | null | undefined) => (d instanceof Date ? d.getTime() : d ? new Date(d).getTime() : null);

/**
 * The fields of an assignment its record is made of besides its answers, compared one by one
 * with what they were when the record was built (a round scores the whole batch several times:
 * a string of them joined per assignment and call was most of a call's cost, and a list of them
 * made per assignment and call, to compare, a good part of the garbage a round leaves).
 */
interface AssignmentFields {
  readonly id: string;
  readonly hit: string;
  readonly workerId: string;
  readonly reviewState: unknown;
  readonly outcome: unknown;
  readonly countsVotes: unknown;
  readonly override: unknown;
  readonly acceptedAt: number | null;
  readonly submittedAt: number | null;
}

const assignmentFields = (a: AssignmentDoc): AssignmentFields => ({
  id: a._id,
  hit: a.hit,
  workerId: a.workerId,
  reviewState: a.reviewState,
  outcome: a.outcome,
  countsVotes: a.review?.countsVotes,
  override: a.override ? a.override.decision : '-',
  acceptedAt: time(a.acceptedAt),
  submittedAt: time(a.submittedAt),
});

/** Whether `a`'s fields are still `before` (pure): compared in place, nothing made. */
const sameFields = (before: AssignmentFields, a: AssignmentDoc): boolean =>
  before.id === a._id &&
  before.hit === a.hit &&
  before.workerId === a.workerId &&
  before.reviewState === a.reviewState &&
  before.outcome === a.outcome &&
  before.countsVotes === a.review?.countsVotes &&
  before.override === (a.override ? a.override.decision : '-') &&
  before.acceptedAt === time(a.acceptedAt) &&
  before.submittedAt === time(a.submittedAt);

const assignmentRecords = new WeakMap<
  AssignmentDoc,
  { fields: AssignmentFields; answers: AssignmentDoc['answers']; record: AssignmentRecord }
>();
const hitRecords = new WeakMap<HitDoc, { id: string; batch: string; items: HitDoc['items']; record: HitRecord }>();
const scores = new WeakMap<AssignmentRecord, { hit: HitRecord; scored: ScoredAssignment }>();

/** `build(a)`, or the record built for this document while the fields it is made of stay the same. */
export function rememberedAssignmentRecord(a: AssignmentDoc, build: Build<AssignmentDoc, AssignmentRecord>): AssignmentRecord {
  const kept = assignmentRecords.get(a);
  if (kept && kept.answers === a.answers && sameFields(kept.fields, a)) return kept.record;
  const record = build(a);
  assignmentRecords.set(a, { fields: assignmentFields(a), answers: a.answers, record });
  return record;
}

/** `build(hit)`, or the record built for this document while its id, batch and items stay the same. */
export function rememberedHitRecord(hit: HitDoc, build: Build<HitDoc, HitRecord>): HitRecord {
  const kept = hitRecords.get(hit);
  if (kept && kept.id === hit._id && kept.batch === hit.batch && kept.items === hit.items) return kept.record;
  const record = build(hit);
  hitRecords.set(hit, { id: hit._id, batch: hit.batch, items: hit.items, record });
  return record;
}

/**
 * `scoreAssignments(records, hits)` (quality/counted-votes.ts), scoring only the records not
 * scored against the same HIT record before. Scoring is per assignment, so the result is the
 * same; on any error the whole list is scored again, for the error's message to name the
 * assignment's place in it.
 */
export function scoreRemembered(records: readonly AssignmentRecord[], hits: readonly HitRecord[]): ScoredAssignment[] {
  const hitById = new Map(hits.map((h) => [h.hitId, h]));
  // a HIT id listed twice: the full scoring names it
  if (hitById.size !== hits.length) return scoreAssignments(records, hits);
  const fresh: AssignmentRecord[] = [];
  for (const r of records) {
    const kept = scores.get(r);
    if (!kept || kept.hit !== hitById.get(r.hitId)) fresh.push(r);
  }
  if (fresh.length > 0) {
    let scored: ScoredAssignment[];
    try {
      scored = scoreAssignments(fresh, [...new Set(fresh.flatMap((r) => hitById.get(r.hitId) ?? []))]);
    } catch {
      return scoreAssignments(records, hits);
    }
    for (const s of scored) scores.set(s.assignment, { hit: s.hit, scored: s });
  }
  return records.map((r) => scores.get(r)!.scored);
}

/** Whether two lists hold the very same scored assignments, in the same order. */
const sameScored = (a: readonly ScoredAssignment[], b: readonly ScoredAssignment[]) =>
  a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * The last few results of a function of a batch's scored assignments (and of `key`, the
 * other inputs as a string). A collection round computes the same thing more than once from
 * the same scores (its follow-up and its labels aggregate them; a round in which no
 * assignment came in or changed fits the same verdicts), and the scores of unchanged
 * assignments are the very same objects (above), so the same list is found by identity.
 */
export function recentByScores<T>(capacity: number): (scored: readonly ScoredAssignment[], key: string, compute: () => T) => T {
  const recent: { scored: readonly ScoredAssignment[]; key: string; value: T }[] = [];
  return (scored, key, compute) => {
    const hit = recent.find((r) => r.key === key && sameScored(r.scored, scored));
    if (hit) return hit.value;
    const value = compute();
    recent.unshift({ scored, key, value });
    recent.length = Math.min(recent.length, capacity);
    return value;
  };
}
