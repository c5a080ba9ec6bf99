import { z } from 'zod';
import { quote } from '../aggregate/votes.js';
import { finalLabels, Judgment, type EscalatedCase } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { summariseDebate } from '../hits/debate-view.js';
import type { CostQuote } from '../hits/quote.js';

/**
 * What a report is built from: plain data only (ids, labels, ISO 8601 timestamps, whole
 * cents), so the pipeline maps its database records onto it and `buildReport` stays pure.
 * Every object is strict: a field this schema does not know is an error, which catches a
 * mapping that passes the wrong record.
 */

const id = z.string().min(1).max(512);
const cents = z.number().int().min(0);
/** An instant as ISO 8601 with a zone (`2026-05-01T12:00:00.000Z`, `...+02:00`): what `Date#toISOString()` writes. */
const Timestamp = z.iso.datetime({ offset: true });
const durationMs = z.number().finite().min(0);

/** One real item of the batch (an escalated case), as a report describes it. */
export const ReportItem = z.strictObject({
  /** The id HITs and answers use for this item. */
  item: id,
  queryId: id,
  chunkId: id,
  dataset: z.string().min(1).default('default'),
  /** Each debating agent's final label (`finalLabels(case.debate)`; see `reportItemFromCase`). */
  agentLabels: z.record(z.string().min(1), Judgment).default({}),
  /** The true label, when known (simulations, gold studies): enables accuracy. */
  hiddenLabel: Judgment.optional(),
  /** Characters of text the HIT page shows for the item (query, answers, chunk, the agents' final turns): reading time is judged against it. */
  textLength: z.number().int().min(0).optional(),
});

export const ReportHit = z.strictObject({
  hitId: id,
  /** The HIT's real items (ids from `items`), checks excluded. */
  items: z.array(id),
  /** Its attention checks with their known answers (the polarity is `expected`). */
  checks: z.array(z.strictObject({ item: id, expected: Judgment })).default([]),
  /** Reward per assignment, whole cents. */
  rewardCents: cents,
  /** The HIT's MaxAssignments now (after any extra assignments): decides the 10+ fee. */
  maxAssignments: z.number().int().min(1),
  /** Whether the HIT requires Masters (+5% fee). */
  masters: z.boolean().default(false),
});

export const ReportAssignment = z.strictObject({
  assignmentId: id,
  hitId: id,
  worker: id,
  /** `submitted`: not reviewed yet. */
  status: z.enum(['submitted', 'approved', 'rejected']),
  /** Approved (paid) but its votes do not count (review action `approve-and-discard`). */
  discarded: z.boolean().default(false),
  /** Approved and counted by the review although a check failed: its worker's record spoke for them (quality/worker-review.ts). */
  kept: z.boolean().default(false),
  /** A person's review override (`qrelay review override`): `counts` or `excluded`, whatever the checks said. */
  overridden: z.enum(['counts', 'excluded']).optional(),
  /** Answers to real items and checks alike; `timeMs` when the HIT page measured it. */
  answers: z.array(
    z.strictObject({
      item: id,
      label: Judgment,
      timeMs: durationMs.optional(),
      /** The worker's comment, the page's event counts and the canary word the item carried (LLM-assisted detection). */
      comment: z.string().optional(),
      copies: z.number().int().min(0).optional(),
      pastes: z.number().int().min(0).optional(),
      focusLosses: z.number().int().min(0).optional(),
      canary: z.string().optional(),
    }),
  ),
  /** MTurk's AcceptTime. */
  acceptedAt: Timestamp.optional(),
  /** MTurk's SubmitTime. */
  submittedAt: Timestamp,
  /** Work time when known otherwise; default `submittedAt − acceptedAt`. */
  workTimeMs: durationMs.optional(),
});

/** A bonus paid (SendBonus); the worker receives `amountCents`, MTurk charges a 20% fee on top. */
export const ReportBonus = z.strictObject({
  worker: id,
  assignmentId: id.optional(),
  amountCents: z.number().int().min(1),
});

/** An item decided by hand (`qrelay label`): listed in the report; export-qrels uses it over the crowd's label. */
export const ReportManualLabel = z.strictObject({
  item: id,
  queryId: id,
  chunkId: id,
  label: Judgment,
  note: z.string(),
  who: z.string(),
  at: Timestamp,
});

/** The quote the batch was published with (`quoteCost` in src/hits/quote.ts), whole cents. */
export const ReportQuote = z.strictObject({
  currency: z.literal('USD'),
  unit: z.literal('cents'),
  hits: z.number().int().min(0),
  assignmentsPerHit: z.number().int().min(1),
  assignments: z.number().int().min(0),
  realItems: z.number().int().min(0),
  checkItems: z.number().int().min(0),
  rewardPerAssignment: cents,
  feePerAssignment: cents,
  feePercent: z.number().min(0),
  masters: z.boolean(),
  rewards: cents,
  fees: cents,
  total: cents,
  checkOverhead: cents,
  checkShare: z.number().min(0).max(1),
  perLabel: cents,
}) satisfies z.ZodType<CostQuote>;

export const ReportInput = z.strictObject({
  /** The batch name (as in `qrelay report <batch>`). */
  batch: z.string().min(1),
  /** When publishing started; null for a batch not published yet. */
  publishedAt: Timestamp.nullable(),
  quote: ReportQuote.nullable().default(null),
  /** Holes found: (query, chunk) pairs the humans labelled relevant that the base qrels lacked. Null when not known. */
  holesFound: z.number().int().min(0).nullable().default(null),
  items: z.array(ReportItem),
  hits: z.array(ReportHit),
  /** Every submitted assignment (MTurk lists no others), whatever its review status. */
  assignments: z.array(ReportAssignment),
  bonuses: z.array(ReportBonus).default([]),
  /** Whose fees the batch pays: MTurk's, or Prolific's (a third of rewards and bonuses). */
  platform: z.enum(['mturk', 'prolific']).default('mturk'),
  manualLabels: z.array(ReportManualLabel).default([]),
});

/** What callers pass (defaults may be left out). */
export type ReportInput = z.input<typeof ReportInput>;
/** After parsing: defaults filled in. */
export type ParsedReportInput = z.output<typeof ReportInput>;
export type ReportItem = z.output<typeof ReportItem>;
export type ReportHit = z.output<typeof ReportHit>;
export type ReportAssignment = z.output<typeof ReportAssignment>;
export type ReportBonus = z.output<typeof ReportBonus>;

/** The report item for an escalated case: its agents' final labels come from the debate. */
export function reportItemFromCase(item: string, escalated: EscalatedCase): z.input<typeof ReportItem> {
  return {
    item,
    queryId: escalated.query_id,
    chunkId: escalated.chunk_id,
    dataset: escalated.dataset,
    agentLabels: Object.fromEntries(finalLabels(escalated.debate)),
    textLength: shownTextLength(escalated),
    ...(escalated.hidden_label ? { hiddenLabel: escalated.hidden_label } : {}),
  };
}

const where = (path: readonly PropertyKey[]) =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`), 'report input');

/**
 * Parses and cross-checks the input. Throws a UserError naming the field
 * (`report input.assignments[3].submittedAt: ...`) on the first problems found.
 */
export function parseReportInput(input: unknown): ParsedReportInput {
  const parsed = ReportInput.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((issue) => `${where(issue.path)}: ${issue.message}`);
    const more = parsed.error.issues.length > 5 ? ` (and ${parsed.error.issues.length - 5} more)` : '';
    throw new UserError(`${problems.join('; ')}${more}`);
  }
  crossCheck(parsed.data);
  return parsed.data;
}

function unique<T>(values: readonly T[], key: (v: T) => string, field: (n: number) => string): Map<string, T> {
  const byKey = new Map<string, T>();
  values.forEach((v, n) => {
    const k = key(v);
    if (byKey.has(k)) throw new UserError(`${field(n)}: ${quote(k)} is listed twice; list each once`);
    byKey.set(k, v);
  });
  return byKey;
}

function crossCheck(input: ParsedReportInput): void {
  const items = unique(
    input.items,
    (i) => i.item,
    (n) => `report input.items[${n}].item`,
  );
  const hits = unique(
    input.hits,
    (h) => h.hitId,
    (n) => `report input.hits[${n}].hitId`,
  );
  const assignments = unique(
    input.assignments,
    (a) => a.assignmentId,
    (n) => `report input.assignments[${n}].assignmentId`,
  );

  input.hits.forEach((hit, n) => {
    hit.items.forEach((item, m) => {
      if (!items.has(item))
        throw new UserError(`report input.hits[${n}].items[${m}]: ${quote(item)} is not one of the batch items; add it to items`);
    });
    if (hit.items.length + hit.checks.length === 0)
      throw new UserError(`report input.hits[${n}] (${quote(hit.hitId)}): a HIT needs at least one item or check`);
  });

  if (input.publishedAt === null && input.assignments.length > 0) {
    throw new UserError('report input.publishedAt: null, but assignments were submitted; give the time publishing started');
  }
  const submittedPerHit = new Map<string, number>();
  input.assignments.forEach((a, n) => {
    const at = `report input.assignments[${n}] (${quote(a.assignmentId)})`;
    const hit = hits.get(a.hitId);
    if (!hit) throw new UserError(`${at}.hitId: ${quote(a.hitId)} is not one of the HITs given`);
    if (a.discarded && a.status !== 'approved')
      throw new UserError(`${at}.discarded: only an approved assignment can be discarded (status is ${quote(a.status)})`);
    if (a.kept && (a.status !== 'approved' || a.discarded))
      throw new UserError(`${at}.kept: only an approved assignment that is not discarded can be kept by its review`);
    if (a.acceptedAt !== undefined && Date.parse(a.acceptedAt) > Date.parse(a.submittedAt)) {
      throw new UserError(`${at}.acceptedAt: ${a.acceptedAt} is after its submittedAt ${a.submittedAt}`);
    }
    const count = (submittedPerHit.get(a.hitId) ?? 0) + 1;
    if (count > hit.maxAssignments) {
      throw new UserError(
        `${at}: HIT ${quote(a.hitId)} has more submitted assignments than its maxAssignments ${hit.maxAssignments}; give the HIT's current MaxAssignments`,
      );
    }
    submittedPerHit.set(a.hitId, count);
  });

  input.bonuses.forEach((b, n) => {
    if (b.assignmentId === undefined) return;
    const a = assignments.get(b.assignmentId);
    if (!a) throw new UserError(`report input.bonuses[${n}].assignmentId: ${quote(b.assignmentId)} is not one of the assignments given`);
    if (a.worker !== b.worker)
      throw new UserError(
        `report input.bonuses[${n}].worker: ${quote(b.worker)} did not do assignment ${quote(b.assignmentId)} (${quote(a.worker)} did)`,
      );
  });
}

/** Characters the HIT page shows of a case: query, answers, chunk, and each agent's last reasoning and quotes. */
export function shownTextLength(escalated: EscalatedCase): number {
  const debate = summariseDebate(escalated.debate).reduce((n, a) => n + a.reasoning.length + a.references.join('').length, 0);
  return escalated.query.length + escalated.answers.join('').length + escalated.chunk.length + debate;
}
