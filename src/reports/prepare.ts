import { byCodeUnits } from '../aggregate/votes.js';
import type { Vote } from '../aggregate/index.js';
import type { Judgment } from '../domain/cases.js';
import { countedVotes, scoreAssignments, type AssignmentRecord, type HitRecord, type ScoredAssignment } from '../quality/index.js';
import type { ParsedReportInput, ReportAssignment, ReportHit } from './input.js';

/** An assignment with its instants as epoch milliseconds. */
export interface TimedAssignment {
  readonly input: ReportAssignment;
  readonly acceptMs: number | null;
  readonly submitMs: number;
  /** `workTimeMs`, else SubmitTime − AcceptTime, else the sum of measured item times; null when none is known. */
  readonly workMs: number | null;
}

/** A valid vote and the SubmitTime of the assignment it came from. */
export interface TimedVote extends Vote<Judgment> {
  readonly atMs: number;
}

/** What every section of the report reads: the input, checked and put in one order. */
export interface BatchFacts {
  readonly input: ParsedReportInput;
  readonly publishedMs: number | null;
  readonly hits: ReadonlyMap<string, ReportHit>;
  /** Sorted by SubmitTime, then assignment id, so that the result does not depend on input order. */
  readonly assignments: readonly TimedAssignment[];
  /** Parallel to `assignments`. */
  readonly scored: readonly ScoredAssignment[];
  /** In SubmitTime order: a worker's vote on an item is their earliest counted answer to it. */
  readonly votes: readonly TimedVote[];
}

function workTime(a: ReportAssignment, acceptMs: number | null, submitMs: number): number | null {
  if (a.workTimeMs !== undefined) return a.workTimeMs;
  if (acceptMs !== null) return submitMs - acceptMs;
  if (a.answers.length > 0 && a.answers.every((x) => x.timeMs !== undefined)) return a.answers.reduce((sum, x) => sum + x.timeMs!, 0);
  return null;
}

export function prepareFacts(input: ParsedReportInput): BatchFacts {
  const timed: TimedAssignment[] = input.assignments.map((a) => {
    const acceptMs = a.acceptedAt === undefined ? null : Date.parse(a.acceptedAt);
    const submitMs = Date.parse(a.submittedAt);
    return { input: a, acceptMs, submitMs, workMs: workTime(a, acceptMs, submitMs) };
  });
  const hitRecords: HitRecord[] = input.hits.map((h) => ({ hitId: h.hitId, items: h.items, checks: h.checks }));
  const records: AssignmentRecord[] = timed.map(({ input: a, workMs }) => ({
    assignmentId: a.assignmentId,
    hitId: a.hitId,
    worker: a.worker,
    status: a.status,
    discarded: a.discarded,
    ...(a.kept && { kept: true }),
    ...(a.overridden && { overridden: a.overridden }),
    answers: a.answers,
    ...(workMs === null ? {} : { workTimeMs: workMs }),
  }));
  // scored in input order, so that its errors name the assignment's place in the input
  const pairs = scoreAssignments(records, hitRecords)
    .map((scored, n) => ({ scored, timed: timed[n]! }))
    .sort((x, y) => x.timed.submitMs - y.timed.submitMs || byCodeUnits(x.timed.input.assignmentId, y.timed.input.assignmentId));
  const assignments = pairs.map((p) => p.timed);
  const scored = pairs.map((p) => p.scored);

  // countedVotes keeps each worker's first counted answer per item; in SubmitTime order, the earliest.
  const firstCounted = new Map<string, number>();
  scored.forEach((s, n) => {
    if (!s.counts) return;
    const real = new Set(s.hit.items);
    for (const { item } of s.assignment.answers) {
      if (!real.has(item)) continue;
      const key = JSON.stringify([item, s.assignment.worker]);
      if (!firstCounted.has(key)) firstCounted.set(key, assignments[n]!.submitMs);
    }
  });
  const votes = countedVotes(scored).map((v) => ({ ...v, atMs: firstCounted.get(JSON.stringify([v.item, v.worker]))! }));

  return {
    input,
    publishedMs: input.publishedAt === null ? null : Date.parse(input.publishedAt),
    hits: new Map(input.hits.map((h) => [h.hitId, h])),
    assignments,
    scored,
    votes,
  };
}
