import { quote, type Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { scoreAttentionChecks, type AttentionCheckScore } from './attention-checks.js';
import type { AssignmentRecord, HitRecord } from './types.js';
import { realItemsOf } from './hit-views.js';

/**
 * Whether an assignment's votes count: it passed every check of its HIT and was neither
 * rejected nor approved-and-discarded. An assignment not reviewed yet counts as soon as it
 * passed its checks (checks alone decide; the review only follows them). A person's
 * override decides instead of the checks. A review that kept an assignment despite a
 * failed check (its worker's record across the batch, quality/worker-review.ts) decides too.
 */
export function assignmentCounts(assignment: AssignmentRecord, score: AttentionCheckScore): boolean {
  if (assignment.overridden) return assignment.overridden === 'counts' && assignment.status !== 'rejected';
  if (assignment.kept) return assignment.status === 'approved';
  return score.passed && assignment.status !== 'rejected' && !assignment.discarded;
}

/** HITs by id; throws on a repeated id, or an item listed twice in a HIT (as a real item or a check). */
export function indexHits(hits: readonly HitRecord[]): Map<string, HitRecord> {
  const byId = new Map<string, HitRecord>();
  for (const [n, hit] of hits.entries()) {
    if (byId.has(hit.hitId)) throw new UserError(`hits[${n}].hitId: ${quote(hit.hitId)} is listed twice`);
    const seen = new Set<string>();
    for (const item of [...hit.items, ...hit.checks.map((c) => c.item)]) {
      if (seen.has(item))
        throw new UserError(`hits[${n}] (${quote(hit.hitId)}): item ${quote(item)} is listed twice among its items and checks`);
      seen.add(item);
    }
    byId.set(hit.hitId, hit);
  }
  return byId;
}

export interface ScoredAssignment {
  readonly assignment: AssignmentRecord;
  readonly hit: HitRecord;
  readonly score: AttentionCheckScore;
  readonly counts: boolean;
}

/**
 * Scores every assignment against its HIT. Throws a UserError naming the assignment when
 * its HIT is unknown or it answers an item that is neither a real item nor a check of it.
 */
export function scoreAssignments(assignments: readonly AssignmentRecord[], hits: readonly HitRecord[]): ScoredAssignment[] {
  const hitById = indexHits(hits);
  return assignments.map((assignment, n) => {
    const where = `assignments[${n}] (${quote(assignment.assignmentId)})`;
    const hit = hitById.get(assignment.hitId);
    if (!hit) throw new UserError(`${where}.hitId: ${quote(assignment.hitId)} is not one of the HITs given`);
    checkDuration(assignment.workTimeMs, `${where}.workTimeMs`);
    const known = new Set([...hit.items, ...hit.checks.map((c) => c.item)]);
    for (const [m, answer] of assignment.answers.entries()) {
      if (!known.has(answer.item))
        throw new UserError(`${where}.answers[${m}].item: ${quote(answer.item)} is not an item of HIT ${quote(hit.hitId)}`);
      if (answer.label !== 'yes' && answer.label !== 'no')
        throw new UserError(`${where}.answers[${m}].label: ${quote(answer.label)} is not "yes" or "no"`);
      checkDuration(answer.timeMs, `${where}.answers[${m}].timeMs`);
    }
    let score: AttentionCheckScore;
    try {
      score = scoreAttentionChecks(assignment.answers, hit.checks);
    } catch (err) {
      throw err instanceof UserError ? new UserError(`${where}: ${err.message}`) : err;
    }
    return { assignment, hit, score, counts: assignmentCounts(assignment, score) };
  });
}

/**
 * The valid votes: answers to real items (never checks) from assignments that count, in
 * input order. Should a worker have answered the same item in two HITs, only the first
 * counted answer is kept: a worker's label counts once per item.
 */
export function countedVotes(scored: readonly ScoredAssignment[]): Vote<Judgment>[] {
  const votes: Vote<Judgment>[] = [];
  // item -> the workers whose vote on it is kept (a few per item: a list is cheaper than a set)
  const seen = new Map<string, string[]>();
  for (const s of scored) {
    if (!s.counts) continue;
    for (const vote of answerVotes(s)) {
      const voters = seen.get(vote.item);
      if (!voters) seen.set(vote.item, [vote.worker]);
      else if (voters.includes(vote.worker)) continue;
      else voters.push(vote.worker);
      votes.push(vote);
    }
  }
  return votes;
}

/**
 * A scored assignment's answers to real items as votes, in the order of its answers, made once
 * per scored assignment: a collection round counts the whole batch's votes, and the scores of
 * unchanged assignments are the same objects from one round to the next
 * (batches/derived-records.ts). The votes are shared: never changed in place.
 */
const votesOfScored = new WeakMap<ScoredAssignment, readonly Vote<Judgment>[]>();

export function answerVotes(s: ScoredAssignment): readonly Vote<Judgment>[] {
  let votes = votesOfScored.get(s);
  if (!votes) {
    const real = realItemsOf(s.hit);
    const worker = s.assignment.worker;
    votes = s.assignment.answers.flatMap((answer) => (real.has(answer.item) ? [{ item: answer.item, worker, label: answer.label }] : []));
    votesOfScored.set(s, votes);
  }
  return votes;
}

/** item -> number of valid votes (items without any are absent). */
export function validVoteCounts(votes: readonly Vote[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of votes) counts.set(v.item, (counts.get(v.item) ?? 0) + 1);
  return counts;
}

function checkDuration(ms: number | undefined, where: string): void {
  if (ms !== undefined && (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)) {
    throw new UserError(`${where}: ${quote(ms)} is not a duration in milliseconds (a finite number >= 0)`);
  }
}
