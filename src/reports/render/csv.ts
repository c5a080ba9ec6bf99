import { formatUsd } from '@qrelay/marketplace/fees';
import { z } from 'zod';
import type { ItemRow, Report, WorkerRow } from '../types.js';

/** Which table a csv report holds: one table per csv file, so that any csv reader or spreadsheet takes it. */
export const CsvTable = z.enum(['workers', 'items']);
export type CsvTable = z.infer<typeof CsvTable>;

type Value = string | number | boolean | null;

/**
 * One RFC 4180 field. A text that a spreadsheet would run as a formula (it starts with
 * `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'` first (OWASP's CSV
 * injection advice); then a field holding `,`, `"`, CR or LF is quoted, its quotes doubled.
 * null is an empty field.
 */
export function csvField(value: Value): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(head: readonly string[], rows: readonly (readonly Value[])[]): string {
  return [head, ...rows].map((r) => `${r.map(csvField).join(',')}\r\n`).join('');
}

const dollars = (cents: number | null) => (cents === null ? null : formatUsd(cents));

const WORKER_COLUMNS = [
  'worker',
  'assignments',
  'approved',
  'approved_discarded',
  'rejected',
  'pending_review',
  'counted_assignments',
  'valid_votes',
  'answers',
  'answers_yes',
  'answers_no',
  'checks',
  'checks_passed',
  'check_pass_rate',
  'checks_yes',
  'checks_yes_passed',
  'checks_no',
  'checks_no_passed',
  'agreement_compared',
  'agreement_agreed',
  'agreement_rate',
  'median_seconds_per_item',
  'paid_usd',
  'bonus_usd',
  'work_seconds',
  'hourly_pay_usd',
  'flags',
];

function workerRow(w: WorkerRow): Value[] {
  const { assignments: a, checks: c, agreement: g } = w;
  return [
    w.worker,
    a.submitted,
    a.approved,
    a.discarded,
    a.rejected,
    a.pendingReview,
    a.counted,
    w.votes,
    w.answers.total,
    w.answers.yes,
    w.answers.no,
    c.total,
    c.passed,
    c.passRate,
    c.byPolarity.yes.total,
    c.byPolarity.yes.passed,
    c.byPolarity.no.total,
    c.byPolarity.no.passed,
    g.compared,
    g.agreed,
    g.rate,
    w.medianSecondsPerItem,
    dollars(w.paidCents),
    dollars(w.bonusCents),
    w.workSeconds,
    dollars(w.hourlyPayCents),
    w.flags.join(';'),
  ];
}

function itemTable(report: Report): string {
  const agents = report.quality.agents.map((a) => a.agent);
  const head = [
    'item',
    'query_id',
    'chunk_id',
    'dataset',
    'hits',
    'valid_votes',
    'yes',
    'no',
    'label',
    'decided_by',
    ...agents.map((a) => `agent_${a}`),
    'hidden_label',
    'correct',
    'time_to_target_seconds',
  ];
  const row = (it: ItemRow): Value[] => [
    it.item,
    it.queryId,
    it.chunkId,
    it.dataset,
    it.hits.join(';'),
    it.validVotes,
    it.yes,
    it.no,
    it.label,
    it.decidedBy,
    ...agents.map((a) => (Object.hasOwn(it.agentLabels, a) ? it.agentLabels[a]! : null)),
    it.hiddenLabel,
    it.correct,
    it.timeToTargetSeconds,
  ];
  return csv(head, report.itemRows.map(row));
}

/**
 * The per-worker or per-item table as RFC 4180 csv (CRLF line ends, a header row). Money
 * in dollars (`_usd` columns, exact: "1.20"), durations in seconds, rates as fractions,
 * lists joined with `;`, unknown values empty.
 */
export function renderCsv(report: Report, table: CsvTable = 'workers'): string {
  return table === 'items' ? itemTable(report) : csv(WORKER_COLUMNS, report.workers.map(workerRow));
}
