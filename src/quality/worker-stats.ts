import { byCodeUnits, quote, type Vote } from '../aggregate/votes.js';
import type { Judgment } from '../domain/cases.js';
import { UserError } from '../errors.js';
import { countedVotes, type ScoredAssignment } from './counted-votes.js';
import { llmAssistedVerdicts, type LlmItemInfo } from './llm-flags.js';
import { realItemsOf } from './hit-views.js';

export type WorkerFlag = 'always-same-answer' | 'fast' | 'low-agreement' | 'low-check-pass-rate' | 'llm-assisted';

export interface WorkerFlagThresholds {
  /** `always-same-answer` when all of at least this many answers are the same. */
  readonly sameAnswerMinAnswers: number;
  /** `fast` when the median time per item is below this many milliseconds. */
  readonly fastMsPerItem: number;
  /** `low-agreement` when the leave-one-out agreement rate is below this ... */
  readonly lowAgreement: number;
  /** ... over at least this many compared items. */
  readonly agreementMinCompared: number;
  /** `low-check-pass-rate` when the attention-check pass rate is below this. */
  readonly minCheckPassRate: number;
}

/**
 * Defaults: a HIT item (query, answers, passage, the agents' debate) takes tens of seconds
 * to read (the DREAM paper paid $0.10 a case at $7.5/h, i.e. 48 s), so under 10 s an item
 * is fast; on a yes/no question chance agreement is about 0.5, so under 0.6 is low.
 */
export const DEFAULT_FLAG_THRESHOLDS: WorkerFlagThresholds = {
  sameAnswerMinAnswers: 10,
  fastMsPerItem: 10_000,
  lowAgreement: 0.6,
  agreementMinCompared: 5,
  minCheckPassRate: 0.8,
};

export interface PassRate {
  readonly total: number;
  readonly passed: number;
  /** passed / total; null without checks. */
  readonly passRate: number | null;
}

export interface WorkerStats {
  readonly worker: string;
  /** `submitted` counts all; the others split it: not reviewed yet, approved (votes counted unless they failed checks), approved and discarded, rejected. */
  readonly assignments: {
    readonly submitted: number;
    readonly pendingReview: number;
    readonly approved: number;
    readonly discarded: number;
    readonly rejected: number;
    /** Assignments whose votes count. */
    readonly counted: number;
  };
  /** All answers, real items and checks alike. */
  readonly answers: { readonly total: number; readonly yes: number; readonly no: number };
  readonly checks: PassRate & { readonly byPolarity: Record<Judgment, PassRate> };
  /**
   * Agreement with the leave-one-out majority: for each real item this worker answered (in
   * any of their assignments, counted or not), the majority of the other workers' valid
   * votes on it. Items without other votes, or where the others tie, are skipped.
   */
  readonly agreement: {
    readonly compared: number;
    readonly agreed: number;
    readonly rate: number | null;
    readonly skippedTies: number;
    readonly skippedNoOthers: number;
  };
  /** Median of per-item times: measured ones when present, else the assignment's work time / its answers. */
  readonly medianMsPerItem: number | null;
  readonly flags: readonly WorkerFlag[];
  /** Why the worker is flagged `llm-assisted` (one sentence per signal); absent when not flagged. */
  readonly llmEvidence?: readonly string[];
}

/** Per-worker statistics, sorted by worker id, from assignments scored by `scoreAssignments`. */
/**
 * With `items` (the real items' agents' labels and text lengths), workers whose answers,
 * times, page events or comments show LLM-assisted work are flagged `llm-assisted`
 * (llm-flags.ts), with the evidence.
 */
export function workerStatistics(
  scored: readonly ScoredAssignment[],
  thresholds: Partial<WorkerFlagThresholds> = {},
  items?: ReadonlyMap<string, LlmItemInfo>,
  /** `countedVotes(scored)`, when the caller has it already. */
  counted: readonly Vote<Judgment>[] = countedVotes(scored),
): WorkerStats[] {
  const limits = { ...DEFAULT_FLAG_THRESHOLDS, ...thresholds };
  for (const [name, value] of Object.entries(limits)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw new UserError(`thresholds.${name}: ${quote(value)} is not a finite number >= 0`);
  }
  const valid = groupBy(counted, (v) => v.item);
  const byWorker = groupBy(scored, (s) => s.assignment.worker);
  const llm = items ? llmAssistedVerdicts(scored, items) : undefined;

  return [...byWorker.keys()].sort(byCodeUnits).map((worker) => {
    const mine = byWorker.get(worker)!;
    const assignments = {
      submitted: mine.length,
      pendingReview: mine.filter((s) => s.assignment.status === 'submitted').length,
      approved: mine.filter((s) => s.assignment.status === 'approved' && !s.assignment.discarded).length,
      discarded: mine.filter((s) => s.assignment.status === 'approved' && s.assignment.discarded).length,
      rejected: mine.filter((s) => s.assignment.status === 'rejected').length,
      counted: mine.filter((s) => s.counts).length,
    };
    const all = mine.flatMap((s) => s.assignment.answers);
    const answers = { total: all.length, yes: all.filter((a) => a.label === 'yes').length, no: all.filter((a) => a.label === 'no').length };
    const checks = checkRates(mine);
    const agreement = leaveOneOutAgreement(worker, mine, valid);
    const medianMsPerItem = median(mine.flatMap(itemTimes));

    const flags: WorkerFlag[] = [];
    if (answers.total >= limits.sameAnswerMinAnswers && Math.max(answers.yes, answers.no) === answers.total)
      flags.push('always-same-answer');
    if (medianMsPerItem !== null && medianMsPerItem < limits.fastMsPerItem) flags.push('fast');
    if (agreement.rate !== null && agreement.compared >= limits.agreementMinCompared && agreement.rate < limits.lowAgreement)
      flags.push('low-agreement');
    if (checks.passRate !== null && checks.passRate < limits.minCheckPassRate) flags.push('low-check-pass-rate');
    const verdict = llm?.get(worker);
    if (verdict?.flagged) flags.push('llm-assisted');
    return {
      worker,
      assignments,
      answers,
      checks,
      agreement,
      medianMsPerItem,
      flags,
      ...(verdict?.flagged && { llmEvidence: verdict.evidence }),
    };
  });
}

function rate(total: number, passed: number): PassRate {
  return { total, passed, passRate: total === 0 ? null : passed / total };
}

function checkRates(mine: readonly ScoredAssignment[]): WorkerStats['checks'] {
  const sum = (pick: (s: ScoredAssignment) => number) => mine.reduce((a, s) => a + pick(s), 0);
  return {
    ...rate(
      sum((s) => s.score.checks),
      sum((s) => s.score.correct),
    ),
    byPolarity: {
      yes: rate(
        sum((s) => s.score.byPolarity.yes.total),
        sum((s) => s.score.byPolarity.yes.passed),
      ),
      no: rate(
        sum((s) => s.score.byPolarity.no.total),
        sum((s) => s.score.byPolarity.no.passed),
      ),
    },
  };
}

function leaveOneOutAgreement(
  worker: string,
  mine: readonly ScoredAssignment[],
  valid: ReadonlyMap<string, readonly { worker: string; label: Judgment }[]>,
): WorkerStats['agreement'] {
  const own = new Map<string, Judgment>();
  for (const { assignment, hit } of mine) {
    const real = realItemsOf(hit);
    for (const a of assignment.answers) if (real.has(a.item) && !own.has(a.item)) own.set(a.item, a.label);
  }
  let compared = 0;
  let agreed = 0;
  let skippedTies = 0;
  let skippedNoOthers = 0;
  for (const [item, label] of own) {
    const others = (valid.get(item) ?? []).filter((v) => v.worker !== worker);
    const yes = others.filter((v) => v.label === 'yes').length;
    const no = others.length - yes;
    if (others.length === 0) skippedNoOthers++;
    else if (yes === no) skippedTies++;
    else {
      compared++;
      if (label === (yes > no ? 'yes' : 'no')) agreed++;
    }
  }
  return { compared, agreed, rate: compared === 0 ? null : agreed / compared, skippedTies, skippedNoOthers };
}

function itemTimes({ assignment }: ScoredAssignment): number[] {
  const { answers, workTimeMs } = assignment;
  const share = workTimeMs !== undefined && answers.length > 0 ? workTimeMs / answers.length : undefined;
  return answers.flatMap((a) => {
    const t = a.timeMs ?? share;
    return t === undefined ? [] : [t];
  });
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  // a typed array sorts numbers without a comparator call per comparison (medians are taken of every worker every round)
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function groupBy<T>(values: readonly T[], key: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const k = key(value);
    const group = groups.get(k);
    if (group) group.push(value);
    else groups.set(k, [value]);
  }
  return groups;
}
