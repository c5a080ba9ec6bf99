import type { BatchOverview } from '../actions/batches.js';
import type { ItemRow } from '../actions/items-table.js';
import type { AuditDoc } from '../actions/models.js';
import type { WorkerAnswer, WorkerRow } from '../actions/worker-table.js';
import { decimal, duration, percent, usd } from '../reports/render/format.js';
import type { AgreementInterval, AgreementResult } from '../aggregate/index.js';
import { intervalText } from '../reports/render/trust-section.js';

/**
 * What the console's templates show (pure): rows of display strings built from the
 * actions' read models. Templates escape every value (`{{...}}`); only SVG charts that
 * qrelay draws itself (already escaped) go in unescaped.
 */

/**
 * A URL in the pieces a line may break between (the template joins them with <wbr>): after
 * the scheme's `//`, and before each `.`, `:`, `/`, `?` after it, so that a narrow card
 * breaks a target at a dot or before its port rather than inside a number.
 */
export function breakableParts(text: string): string[] {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const rest = text
    .slice(scheme.length)
    .split(/(?=[.:/?])/)
    .filter(Boolean);
  return scheme ? [scheme, ...rest] : rest;
}

const LIVE_STATES = new Set(['publishing', 'collecting']);
export const isLive = (state: string) => LIVE_STATES.has(state);

export function batchRowView(b: BatchOverview, timeToTargetSeconds: number | null) {
  return {
    batch: b.batch,
    href: `/console/batches/${encodeURIComponent(b.batch)}`,
    state: b.state,
    live: isLive(b.state),
    target: b.target ?? 'not published',
    targetParts: breakableParts(b.target ?? 'not published'),
    progress: `${b.itemsComplete} / ${b.items}`,
    progressPercent: b.progress === null ? 0 : Math.round(b.progress * 100),
    spend: usd(b.spendCents),
    budget: b.budgetCents === null ? 'no budget' : usd(b.budgetCents),
    hasBudget: b.budgetCents !== null,
    overBudget: b.budgetCents !== null && b.spendCents > b.budgetCents,
    kappa: decimal(b.fleissKappa),
    timeToTarget: duration(timeToTargetSeconds),
  };
}

/**
 * κ or α with its interval as the report computes them (`report.quality`): one computation
 * and one seed, so the console and the report print the same figures.
 */
export function intervalView(name: string, point: AgreementResult, interval: AgreementInterval, items: number) {
  return {
    name,
    value: decimal(point.value),
    interval:
      interval.low === null || interval.high === null
        ? (point.reason ?? 'no interval (too few items)')
        : `${Math.round(interval.level * 100)}% interval ${intervalText(interval)}`,
    detail: `bootstrap over ${items} items, ${interval.replicates} resamples`,
  };
}

export const FLAG_FILTERS = [
  'flagged',
  'blocked',
  'always-same-answer',
  'fast',
  'low-agreement',
  'low-check-pass-rate',
  'llm-assisted',
] as const;

export function workerRowView(batch: string, w: WorkerRow) {
  return {
    workerId: w.workerId,
    href: `/console/batches/${encodeURIComponent(batch)}/workers/${encodeURIComponent(w.workerId)}`,
    assignments: `${w.assignments.submitted}`,
    assignmentsDetail: `${w.assignments.counted} counted, ${w.assignments.discarded} discarded, ${w.assignments.rejected} rejected, ${w.assignments.pendingReview} pending`,
    checks: `${w.checks.passed}/${w.checks.total}`,
    checksRate: percent(w.checks.passRate, 0),
    agreement: percent(w.agreement.rate, 0),
    agreementDetail: `of ${w.agreement.compared} items`,
    time: w.medianSecondsPerItem === null ? 'n/a' : `${w.medianSecondsPerItem} s`,
    flags: [...w.flags],
    blocked: w.blocked === true,
    /** The platform did not answer: neither blocked nor not. */
    blockedUnknown: w.blocked === null,
    blockReason: w.blockReason ?? '',
    qualifications: w.qualifications === null ? ['unknown'] : Object.entries(w.qualifications).map(([name, value]) => `${name} ${value}`),
    bonuses: w.bonuses.count === 0 ? 'none' : `${w.bonuses.count} · ${usd(w.bonuses.cents)}`,
    // cross-batch reputation on the batch's target (src/pipeline/reputation.ts)
    reputation: w.reputation ? `${w.reputation.score}` : 'n/a',
    reputationReason: w.reputation?.reason ?? '',
  };
}

export function answerView(a: WorkerAnswer) {
  return {
    ...a,
    answer: a.answer ?? 'no answer',
    expected: a.expected ?? (a.kind === 'check' ? 'n/a' : 'open'),
    agreesText: a.agrees === null ? '' : a.agrees ? 'agrees' : 'differs',
    seconds: a.seconds === null ? '' : `${a.seconds} s`,
  };
}

export function itemView(batch: string, i: ItemRow) {
  return {
    ...i,
    id: i.item,
    anchor: `item-${i.queryId}-${i.chunkId}`.replace(/[^A-Za-z0-9_-]/g, '_'),
    labelText: i.label ?? (i.unresolved ? 'unresolved' : 'open'),
    votesText: `${i.yes} yes · ${i.no} no`,
    commented: i.votes.filter((v) => v.comment.trim() !== ''),
    needsDecision: i.unresolved || i.contested,
    decideAction: `/console/batches/${encodeURIComponent(batch)}/label`,
  };
}

const stamp = (d: Date) => `${new Date(d).toISOString().replace('T', ' ').slice(0, 19)} UTC`;

/** An audit entry: `at` in real time; a simulated marketplace's time beside it, labelled so. */
export function auditView(a: AuditDoc) {
  return {
    at: stamp(a.at),
    simulatedAt: a.simulatedAt ? `simulated ${stamp(a.simulatedAt)}` : '',
    who: a.who,
    action: a.action,
    subject: a.subject,
    reason: a.reason,
    outcome: a.outcome,
  };
}

/** A return path after a form: only our own console pages (and `/`). */
export function safeReturnPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string') return fallback;
  const ok = /^\/(console\/[A-Za-z0-9_.~%/-]*)?(\?[A-Za-z0-9_.~%=&+-]*)?(#[A-Za-z0-9_-]*)?$/.test(value) && !value.startsWith('//');
  return ok ? value : fallback;
}

/** `path?notice=...#fragment` (or `error`), keeping the path's own query and fragment. */
export function withMessage(path: string, kind: 'notice' | 'error', message: string): string {
  const hashAt = path.indexOf('#');
  const hash = hashAt >= 0 ? path.slice(hashAt) : '';
  const [base, query = ''] = (hashAt >= 0 ? path.slice(0, hashAt) : path).split('?');
  const params = new URLSearchParams(query);
  params.delete('notice');
  params.delete('error');
  params.set(kind, message.slice(0, 500));
  return `${base}?${params.toString()}${hash}`;
}
