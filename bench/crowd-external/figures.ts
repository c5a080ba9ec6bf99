/**
 * The `bars/crowd-external` figures of one run (pure), from what qrelay and the
 * marketplace report and what the bots did: discarded diligent assignments, stopped
 * diligent workers, bad workers stopped, careless workers stopped, LLM users' recall and
 * precision, balanced accuracy against the Bayes-optimal decision from the same votes,
 * every case labelled, nothing paid twice. Each figure sits beside the bar's threshold.
 */
import { bayesOptimalLabels, type BayesVote } from '../../src/quality/bayes-optimal.js';
import type { BotKind, ClassAccuracy, Judgment } from './behaviour.js';
import type { BotRecord } from './bot.js';

/** The fields of a `qrelay workers BATCH --json` row the figures read. */
export interface WorkerRowView {
  workerId: string;
  assignments: { submitted: number; approved: number; discarded: number; rejected: number; counted: number };
  checks: { passed: number; total: number; byPolarity?: Record<Judgment, { passed: number; total: number }> };
  agreement?: { compared: number; agreed: number };
  flags: readonly string[];
  blocked: boolean | null;
  blockReason: string | null;
  llmEvidence?: readonly string[];
  medianSecondsPerItem: number | null;
}

/** A `qrelay audit BATCH --json` entry. */
export interface AuditView {
  action: string;
  subject: string;
  reason: string;
  at: string;
  details?: { cause?: string };
}

export interface LedgerView {
  kind: string;
  assignmentId?: string;
  amountCents: number;
}

export interface FiguresInput {
  bots: readonly (BotRecord & { accuracy: ClassAccuracy | null })[];
  workers: readonly WorkerRowView[];
  audit: readonly AuditView[];
  /** Case key -> exported label (cases only). */
  labels: ReadonlyMap<string, Judgment>;
  /** Case key -> true label (the batch's cases, not the gold items). */
  truth: ReadonlyMap<string, Judgment>;
  ledger: readonly LedgerView[];
  /** Marketplace assignment id -> status. */
  assignmentStatus: ReadonlyMap<string, string>;
}

export interface BarFigure {
  name: string;
  value: number | null;
  /** How the value is shown: a share, a count or a difference. */
  shown: string;
  threshold: string;
  met: boolean | null;
}

export interface Figures {
  bars: BarFigure[];
  balancedAccuracy: number | null;
  optimum: number | null;
  /** Per bot, what qrelay made of it: the diagnosis's raw material. */
  perBot: {
    name: string;
    workerId: string | undefined;
    kind: BotKind;
    params: Record<string, number | string | boolean>;
    submitted: number;
    row: WorkerRowView | undefined;
    stoppedEver: boolean;
    stops: AuditView[];
    /** Assignments the bot submitted before its first stop (all of them when never stopped). */
    submittedBeforeStop: number;
  }[];
}

const BAD: ReadonlySet<string> = new Set(['spammer', 'always-yes', 'always-no', 'copier']);
const pct = (x: number | null) => (x === null ? 'n/a' : `${(100 * x).toFixed(1)}%`);
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

export function balancedAccuracy(labels: ReadonlyMap<string, Judgment>, truth: ReadonlyMap<string, Judgment>): number | null {
  const byClass = { yes: { n: 0, right: 0 }, no: { n: 0, right: 0 } };
  for (const [key, t] of truth) {
    const l = labels.get(key);
    if (l === undefined) continue;
    byClass[t].n++;
    if (l === t) byClass[t].right++;
  }
  const recalls = [byClass.yes, byClass.no].filter((c) => c.n > 0).map((c) => c.right / c.n);
  return recalls.length === 0 ? null : recalls.reduce((s, r) => s + r, 0) / recalls.length;
}

function stopped(row: WorkerRowView | undefined): boolean {
  return row?.blocked === true;
}

function llmFlagged(row: WorkerRowView | undefined): boolean {
  return row !== undefined && (row.flags.includes('llm-assisted') || /llm-assisted/.test(row.blockReason ?? ''));
}

export function computeFigures(input: FiguresInput): Figures {
  const rows = new Map(input.workers.map((w) => [w.workerId, w]));
  const perBot = input.bots.map((b) => {
    const stops = input.audit.filter((a) => a.subject === b.workerId && (a.action === 'soft-block' || a.action === 'unblock'));
    const firstStop = stops.find((a) => a.action === 'soft-block');
    const stopAt = firstStop ? Date.parse(firstStop.at) : Infinity;
    return {
      submittedBeforeStop: b.submissions.filter((s) => s.at < stopAt).length,
      name: b.name,
      workerId: b.workerId,
      kind: b.kind as BotKind,
      params: b.params,
      submitted: b.submissions.length,
      row: b.workerId !== undefined ? rows.get(b.workerId) : undefined,
      stoppedEver: stops.some((a) => a.action === 'soft-block'),
      stops,
    };
  });
  const of = (kind: (k: string) => boolean, min = 1) => perBot.filter((b) => kind(b.kind) && b.submitted >= min);
  const diligent = of((k) => k === 'diligent');
  const dilSubmitted = diligent.reduce((s, b) => s + (b.row?.assignments.submitted ?? 0), 0);
  const dilDiscarded = diligent.reduce((s, b) => s + (b.row ? b.row.assignments.discarded + b.row.assignments.rejected : 0), 0);
  const dilStoppedAtEnd = diligent.filter((b) => stopped(b.row)).length;
  const dilStopped = diligent.filter((b) => stopped(b.row) || b.stoppedEver).length;
  const bad = of((k) => BAD.has(k), 2);
  const badStopped = bad.filter((b) => stopped(b.row)).length;
  // a careless worker counts once they turned: more submissions than their k careful ones
  const careless = perBot.filter((b) => b.kind === 'careless' && b.submitted > Number(b.params.k ?? 0));
  const carelessStopped = careless.filter((b) => stopped(b.row)).length;
  const llm = of((k) => k === 'llm', 2);
  const llmFound = llm.filter((b) => llmFlagged(b.row)).length;
  const flaggedAll = perBot.filter((b) => llmFlagged(b.row));
  const flaggedLlm = flaggedAll.filter((b) => b.kind === 'llm').length;
  // a stop for LLM-assisted answers at any time, lifted or not (the audit log's soft-block entries)
  const llmStoppedEver = perBot.filter((b) => b.stops.some((a) => a.action === 'soft-block' && a.details?.cause === 'llm-assisted'));
  const llmStoppedEverRight = llmStoppedEver.filter((b) => b.kind === 'llm').length;
  const precisionEver = ratio(llmStoppedEverRight, llmStoppedEver.length);

  // the Bayes-optimal yardstick from every submitted vote on the batch's cases
  const votes: BayesVote[] = [];
  const accuracy = new Map<string, ClassAccuracy | null>();
  for (const b of input.bots) {
    if (b.submissions.length === 0) continue;
    accuracy.set(b.name, b.accuracy);
    for (const s of b.submissions)
      for (const i of s.items) if (input.truth.has(i.key)) votes.push({ item: i.key, worker: b.name, answer: i.answer });
  }
  const optimumLabels = votes.length ? bayesOptimalLabels({ votes, accuracy, truth: input.truth }).labels : new Map<string, Judgment>();
  const ba = balancedAccuracy(input.labels, input.truth);
  const optimum = balancedAccuracy(optimumLabels, input.truth);
  const labelled = [...input.truth.keys()].filter((k) => input.labels.has(k)).length;

  const approvals = new Map<string, number>();
  for (const e of input.ledger)
    if (e.kind === 'approval' && e.assignmentId) approvals.set(e.assignmentId, (approvals.get(e.assignmentId) ?? 0) + 1);
  const paidTwice = [...approvals.values()].filter((n) => n > 1).length;
  const paidNotApproved = [...approvals.keys()].filter((a) => input.assignmentStatus.get(a) !== 'Approved').length;

  const dilShare = ratio(dilDiscarded, dilSubmitted);
  const badShare = ratio(badStopped, bad.length);
  const recall = ratio(llmFound, llm.length);
  const precision = ratio(flaggedLlm, flaggedAll.length);
  const gap = ba !== null && optimum !== null ? ba - optimum : null;
  const bars: BarFigure[] = [
    {
      name: 'diligent assignments discarded',
      value: dilShare,
      shown: `${pct(dilShare)} (${dilDiscarded} of ${dilSubmitted})`,
      threshold: '<= 3%',
      met: dilShare === null ? null : dilShare <= 0.03,
    },
    {
      name: 'diligent workers stopped at the end',
      value: dilStoppedAtEnd,
      shown: `${dilStoppedAtEnd} of ${diligent.length}`,
      threshold: '0',
      met: dilStoppedAtEnd === 0,
    },
    {
      name: 'diligent workers stopped (ever, lifted too)',
      value: dilStopped,
      shown: `${dilStopped} of ${diligent.length}`,
      threshold: '0',
      met: dilStopped === 0,
    },
    {
      name: 'bad workers stopped (>= 2 assignments)',
      value: badShare,
      shown: `${pct(badShare)} (${badStopped} of ${bad.length})`,
      threshold: '>= 85%',
      met: badShare === null ? null : badShare >= 0.85,
    },
    {
      name: 'careless (turned) stopped',
      value: ratio(carelessStopped, careless.length),
      shown: `${carelessStopped} of ${careless.length}`,
      threshold: 'all',
      met: careless.length === 0 ? null : carelessStopped === careless.length,
    },
    {
      name: 'LLM-assisted recall (>= 2 assignments)',
      value: recall,
      shown: `${pct(recall)} (${llmFound} of ${llm.length})`,
      threshold: '>= 65%',
      met: recall === null ? null : recall >= 0.65,
    },
    {
      name: 'LLM-assisted precision (flags at the end)',
      value: precision,
      shown: `${pct(precision)} (${flaggedLlm} of ${flaggedAll.length} flagged)`,
      threshold: '>= 85%',
      met: precision === null ? null : precision >= 0.85,
    },
    {
      name: 'LLM-assisted precision of stops (ever)',
      value: precisionEver,
      shown: `${pct(precisionEver)} (${llmStoppedEverRight} of ${llmStoppedEver.length} stopped as LLM-assisted)`,
      threshold: '>= 85%',
      met: precisionEver === null ? null : precisionEver >= 0.85,
    },
    {
      name: 'balanced accuracy - optimum',
      value: gap,
      shown: gap === null ? 'n/a' : `${(100 * gap).toFixed(1)} points (${pct(ba)} vs ${pct(optimum)})`,
      threshold: '>= -2 points',
      met: gap === null ? null : gap >= -0.02,
    },
    {
      name: 'cases labelled',
      value: labelled,
      shown: `${labelled} of ${input.truth.size}`,
      threshold: 'all',
      met: labelled === input.truth.size,
    },
    {
      name: 'assignments paid twice',
      value: paidTwice + paidNotApproved,
      shown: `${paidTwice} paid twice, ${paidNotApproved} paid but not Approved`,
      threshold: '0',
      met: paidTwice + paidNotApproved === 0,
    },
  ];
  return { bars, balancedAccuracy: ba, optimum, perBot };
}
