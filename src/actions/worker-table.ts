import type { AssignmentDoc, HitDoc, LabelDoc } from '../db/models/index.js';
import type { Judgment } from '../domain/cases.js';
import { BLOCKED_QUALIFICATION, BLOCKED_TYPE_NAME } from '../pipeline/blocked-qualification.js';
import type { WorkerFlag, WorkerStats } from '../quality/index.js';

/**
 * The workers table of `qrelay workers BATCH` and the console (pure): per worker, their
 * assignments, attention-check results, agreement, time per item and flags (from the
 * pipeline's worker statistics), whether the platform has them blocked, their scores on
 * the batch's qualification types, and the bonuses paid to them.
 */

export interface WorkerRow {
  workerId: string;
  /** The same id under the name the pipeline's statistics use. */
  worker: string;
  assignments: WorkerStats['assignments'];
  /** The worker's AssignmentIds in the batch, in submission order (what `worker bonus --assignment` takes). */
  assignmentIds: string[];
  answers: WorkerStats['answers'];
  checks: WorkerStats['checks'];
  agreement: WorkerStats['agreement'];
  medianSecondsPerItem: number | null;
  flags: readonly WorkerFlag[];
  /** Null when the platform did not answer (unknown). */
  blocked: boolean | null;
  /** With the `llm-assisted` flag: why, one sentence per signal. */
  llmEvidence?: readonly string[];
  blockReason: string | null;
  /** Qualification name (the preset's test name) -> score; absent when not held; null when the platform did not answer. */
  qualifications: Record<string, number> | null;
  bonuses: { count: number; cents: number };
  /** Cross-batch reputation on the batch's target (src/pipeline/reputation.ts): the score 0–100 and why; the neutral score for a worker without a record. */
  reputation?: { score: number; reason: string };
  /**
   * Every stop quality control put on the worker in this batch, lifted or not, oldest first
   * (from the audit log): a stop lifted a round later leaves `blocked` false, but the worker
   * was kept from the batch's HITs meanwhile and was told so twice.
   */
  stops: WorkerStop[];
}

/** One stop of quality control (a soft block) and its lift, if later evidence cleared the worker. */
export interface WorkerStop {
  /** ISO 8601, real time. */
  at: string;
  /** not-working | llm-assisted | drift */
  cause: string;
  reason: string;
  /** When the stop was lifted (ISO 8601), or null while it holds. */
  liftedAt: string | null;
  liftReason: string | null;
}

/** The audit entries that make the stop history: the review's soft blocks and their lifts. */
export interface StopAuditEntry {
  action: string;
  subject: string;
  at: Date;
  reason: string;
  details: Record<string, unknown>;
}

/** A person's `qrelay qualify WORKER --qualification qrelay-blocked --revoke`: the soft block taken away by hand. */
const revokesTheSoftBlock = (e: StopAuditEntry) =>
  e.action === 'revoke' && (e.details.qualification === BLOCKED_QUALIFICATION || e.details.qualification === BLOCKED_TYPE_NAME);

/**
 * Each worker's stops from the audit entries (pure): the review's `soft-block` opens a stop;
 * the next lift of the same worker closes it, whether the review's `unblock` (later evidence
 * cleared them) or a person's revoke of the soft block's qualification. Entries are taken in
 * time order whatever order they come in; a lift without an open stop is not a stop.
 */
export function stopHistory(entries: readonly StopAuditEntry[]): Map<string, WorkerStop[]> {
  const byWorker = new Map<string, WorkerStop[]>();
  const ordered = [...entries].sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const e of ordered) {
    const stops = byWorker.get(e.subject) ?? [];
    const open = stops.find((s) => s.liftedAt === null);
    if (e.action === 'soft-block' && !open) {
      const cause = typeof e.details.cause === 'string' ? e.details.cause : 'not-working';
      stops.push({ at: e.at.toISOString(), cause, reason: e.reason, liftedAt: null, liftReason: null });
    } else if ((e.action === 'unblock' || revokesTheSoftBlock(e)) && open) {
      open.liftedAt = e.at.toISOString();
      open.liftReason = e.reason;
    }
    if (stops.length > 0) byWorker.set(e.subject, stops);
  }
  return byWorker;
}

/** What the platform says of the workers (worker -> block reason; qualification name -> worker -> score); null: it did not answer. */
export interface PlatformFacts {
  blocks: ReadonlyMap<string, string> | null;
  scores: ReadonlyMap<string, ReadonlyMap<string, number>> | null;
}

export interface WorkerTableInput extends PlatformFacts {
  stats: readonly WorkerStats[];
  bonuses: readonly { workerId: string; amountCents: number; state: string }[];
  /** worker -> AssignmentIds, in submission order. */
  assignmentIds?: ReadonlyMap<string, readonly string[]>;
  /** worker -> the stops of quality control (stopHistory). */
  stops?: ReadonlyMap<string, readonly WorkerStop[]>;
}

export function workerTable(input: WorkerTableInput): WorkerRow[] {
  return input.stats.map((s) => {
    const paid = input.bonuses.filter((b) => b.workerId === s.worker && b.state === 'paid');
    let qualifications: Record<string, number> | null = null;
    if (input.scores) {
      qualifications = {};
      for (const [name, byWorker] of input.scores) {
        const v = byWorker.get(s.worker);
        if (v !== undefined) qualifications[name] = v;
      }
    }
    return {
      workerId: s.worker,
      worker: s.worker,
      assignments: s.assignments,
      assignmentIds: [...(input.assignmentIds?.get(s.worker) ?? [])],
      answers: s.answers,
      checks: s.checks,
      agreement: s.agreement,
      medianSecondsPerItem: s.medianMsPerItem === null ? null : Math.round(s.medianMsPerItem / 100) / 10,
      flags: s.flags,
      ...(s.llmEvidence && { llmEvidence: s.llmEvidence }),
      blocked: input.blocks ? input.blocks.has(s.worker) : null,
      blockReason: input.blocks?.get(s.worker) ?? null,
      qualifications,
      bonuses: { count: paid.length, cents: paid.reduce((sum, b) => sum + b.amountCents, 0) },
      stops: [...(input.stops?.get(s.worker) ?? [])],
    };
  });
}

export const SORT_KEYS = ['worker', 'assignments', 'checks', 'agreement', 'time', 'flags'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

const sortValue: Record<SortKey, (r: WorkerRow) => number | string> = {
  worker: (r) => r.workerId,
  assignments: (r) => r.assignments.submitted,
  checks: (r) => r.checks.passRate ?? -1,
  agreement: (r) => r.agreement.rate ?? -1,
  time: (r) => r.medianSecondsPerItem ?? -1,
  flags: (r) => r.flags.length,
};

/** Sorted (stable, then by id) and filtered to workers carrying `flag` (`blocked` is a flag here too). */
export function sortAndFilter(rows: readonly WorkerRow[], opts: { sort?: SortKey; descending?: boolean; flag?: string }): WorkerRow[] {
  const key = opts.sort ?? 'worker';
  const sign = opts.descending ? -1 : 1;
  const kept = opts.flag
    ? rows.filter((r) =>
        opts.flag === 'blocked'
          ? r.blocked === true
          : opts.flag === 'flagged'
            ? r.flags.length > 0
            : (r.flags as readonly string[]).includes(opts.flag as string),
      )
    : [...rows];
  return kept.sort((a, b) => {
    const x = sortValue[key](a);
    const y = sortValue[key](b);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c !== 0 ? sign * c : a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0;
  });
}

export interface WorkerAnswer {
  assignmentId: string;
  hitIndex: number;
  position: number;
  kind: 'real' | 'check';
  queryId: string;
  chunkId: string;
  answer: Judgment | null;
  /** Checks: the known answer; real items: the item's final label (null while open). */
  expected: Judgment | null;
  agrees: boolean | null;
  difficult: boolean;
  comment: string;
  seconds: number | null;
  /** The assignment's review: approved, approved-and-discard, rejected, or pending; `override` when a person decided. */
  review: string;
}

/** One worker's answers next to the final labels (real items) or the known answers (checks). */
export function workerAnswers(
  workerId: string,
  hits: readonly HitDoc[],
  assignments: readonly AssignmentDoc[],
  labels: ReadonlyMap<string, Judgment | null>,
): WorkerAnswer[] {
  const byHit = new Map(hits.map((h) => [h._id, h]));
  const mine = assignments
    .filter((a) => a.workerId === workerId)
    .sort((a, b) => new Date(a.submittedAt ?? 0).getTime() - new Date(b.submittedAt ?? 0).getTime());
  return mine.flatMap((a) => {
    const hit = byHit.get(a.hit);
    const review = a.override
      ? `override: ${a.override.decision}`
      : a.reviewState !== 'done'
        ? 'pending'
        : a.outcome === 'rejected'
          ? 'rejected'
          : a.review?.countsVotes === false
            ? 'approved, discarded'
            : 'approved';
    return a.answers.map((x) => {
      const planned = hit?.items.find((i) => i.position === x.position);
      const expected = x.kind === 'check' ? (planned?.kind === 'check' ? planned.expected : null) : (labels.get(x.item) ?? null);
      return {
        assignmentId: a._id,
        hitIndex: hit?.index ?? -1,
        position: x.position,
        kind: x.kind,
        queryId: planned?.queryId ?? '',
        chunkId: planned?.chunkId ?? '',
        answer: x.answer,
        expected,
        agrees: x.answer && expected ? x.answer === expected : null,
        difficult: x.difficult,
        comment: x.comment,
        seconds: typeof x.ms === 'number' ? Math.round(x.ms / 100) / 10 : null,
        review,
      };
    });
  });
}

/** Final labels by item id, for `workerAnswers`. */
export const labelMap = (labels: readonly Pick<LabelDoc, '_id' | 'label'>[]) => new Map(labels.map((l) => [l._id, l.label]));
