import { formatUsd } from '@qrelay/marketplace/fees';
import type { ExportQrelsResult } from '../export/index.js';
import type { EvaluationReport } from '../qrels/index.js';
import type { QuoteDifference, Report } from '../reports/index.js';
import { formatDuration } from './progress.js';

/**
 * The demo's final summary (pure): agreement, cost, latency, what the crowd changed in the
 * qrels and in the systems' rankings, and the files written. Money in whole cents,
 * durations in seconds, as in the report it is drawn from.
 */

export interface RankChange {
  system: string;
  rankBase: number;
  rankNew: number;
}

export interface DemoSummary {
  batch: string;
  cases: number;
  /** This session continued a run that had stopped: its wall times cover this session only. */
  resumed: boolean;
  agreement: { fleissKappa: number | null; krippendorffAlpha: number | null; labels: number; unresolved: number; accuracy: number | null };
  cost: {
    currency: 'USD';
    unit: 'cents';
    total: number;
    perLabel: number | null;
    perHole: number | null;
    holesFound: number | null;
    quoted: number | null;
    difference: number | null;
    differences: QuoteDifference[];
  };
  latency: {
    /** Publishing to each item's 3rd valid vote, in the marketplace's (simulated) time. */
    timeToTarget: { voteTarget: number; p50Seconds: number | null; p90Seconds: number | null };
    /** Publishing to the last valid vote, simulated. */
    simulatedSeconds: number | null;
    /** Real time of the crowd's work (the work and review stages) and of the whole workflow. */
    workWallSeconds: number;
    totalWallSeconds: number;
  };
  qrels: {
    holesFilled: number;
    byCrowd: number;
    byConsensus: number;
    flips: number;
    unchanged: number;
    newNonRelevant: number;
    conflicts: number;
  };
  rankings: Array<{ measure: string; kendallTau: number | null; changed: RankChange[] }>;
  /** Label -> absolute path, in the order they are listed. */
  files: Array<{ what: string; path: string }>;
}

export interface DemoSummaryInput {
  batch: string;
  cases: number;
  resumed: boolean;
  report: Report;
  exported: ExportQrelsResult;
  evaluation: EvaluationReport;
  wall: { workSeconds: number; totalSeconds: number };
  files: Array<{ what: string; path: string }>;
}

export function demoSummary(input: DemoSummaryInput): DemoSummary {
  const { report, exported } = input;
  const q = report.cost.quote;
  const merge = exported.summary.overall;
  return {
    batch: input.batch,
    cases: input.cases,
    resumed: input.resumed,
    agreement: {
      fleissKappa: report.fleissKappa,
      krippendorffAlpha: report.krippendorffAlpha,
      labels: report.labels,
      unresolved: exported.human.unresolved.length,
      accuracy: report.quality.accuracy?.accuracy.value ?? null,
    },
    cost: {
      currency: 'USD',
      unit: 'cents',
      total: report.cost.total,
      perLabel: report.cost.perLabel,
      perHole: report.cost.perHole,
      holesFound: report.cost.holesFound,
      quoted: q ? q.quoted.total : null,
      difference: q ? q.difference : null,
      differences: q ? q.differences.filter((d) => d.cents !== 0 || d.count !== 0).map((d) => ({ ...d })) : [],
    },
    latency: {
      timeToTarget: {
        voteTarget: report.latency.timeToTarget.voteTarget,
        p50Seconds: report.latency.timeToTarget.p50Seconds,
        p90Seconds: report.latency.timeToTarget.p90Seconds,
      },
      simulatedSeconds: report.latency.publishToLastValidVoteSeconds,
      workWallSeconds: input.wall.workSeconds,
      totalWallSeconds: input.wall.totalSeconds,
    },
    qrels: {
      holesFilled: merge.holesFilled,
      byCrowd: exported.holesFound,
      byConsensus: merge.holesFilled - exported.holesFound,
      flips: merge.flips,
      unchanged: merge.unchanged,
      newNonRelevant: merge.newNonRelevant,
      conflicts: exported.summary.conflicts.length,
    },
    rankings: input.evaluation.measures
      .filter((m) => m.queries.base !== null)
      .map((m) => ({
        measure: m.measure,
        kendallTau: m.kendallTau,
        changed: m.systems.flatMap((s) =>
          s.rankBase !== null && s.rankBase !== s.rankNew ? [{ system: s.system, rankBase: s.rankBase, rankNew: s.rankNew }] : [],
        ),
      })),
    files: input.files.map((f) => ({ ...f })),
  };
}

const usd = (cents: number | null) => (cents === null ? '–' : `$${formatUsd(cents)}`);
const signedUsd = (cents: number) => `${cents >= 0 ? '+' : '−'}$${formatUsd(Math.abs(cents))}`;
const fixed = (v: number | null, digits = 3) => (v === null ? 'undefined' : v.toFixed(digits));
const duration = (s: number | null) => (s === null ? '–' : formatDuration(s));

const DIFFERENCE_NAMES: Record<QuoteDifference['reason'], string> = {
  'extra-assignments': 'extra assignments',
  'not-submitted': 'not submitted',
  'pending-review': 'pending review',
  rejected: 'rejected',
  bonuses: 'bonuses',
};

function costLines(c: DemoSummary['cost']): string[] {
  const perHole = c.perHole === null ? 'per hole found: –' : `${usd(c.perHole)} per hole found (${c.holesFound} holes)`;
  const lines = [`${usd(c.total)} in total · ${usd(c.perLabel)} per label · ${perHole}`];
  if (c.quoted !== null && c.difference !== null) {
    const why = c.differences.map((d) => `${DIFFERENCE_NAMES[d.reason]} ${d.count} ${signedUsd(d.cents)}`).join(', ');
    lines.push(`quote ${usd(c.quoted)} → actual ${usd(c.total)} (${signedUsd(c.difference)}${why ? `: ${why}` : ''})`);
  }
  return lines;
}

function rankingLine(r: DemoSummary['rankings'][number], width: number): string {
  const moved =
    r.changed.length === 0
      ? 'no system changed rank'
      : `moved: ${r.changed.map((c) => `${c.system} ${c.rankBase}→${c.rankNew}`).join(', ')}`;
  return `${r.measure.padEnd(width)}  Kendall τ ${r.kendallTau === null ? 'undefined' : r.kendallTau.toFixed(3)} · ${moved}`;
}

/** The summary as text: one topic per block, labels in a left column. */
export function renderDemoSummary(s: DemoSummary): string {
  const block = (label: string, lines: string[]) => lines.map((l, i) => `${(i === 0 ? label : '').padEnd(12)}${l}`);
  const a = s.agreement;
  const accuracy = a.accuracy === null ? '' : ` · accuracy ${(a.accuracy * 100).toFixed(1)}% against the hidden labels`;
  const l = s.latency;
  const width = Math.max(0, ...s.rankings.map((r) => r.measure.length));
  const fileWidth = Math.max(0, ...s.files.map((f) => f.what.length));
  return `${[
    `qrelay demo: batch ${s.batch}, ${s.cases} escalated cases, finished in ${formatDuration(l.totalWallSeconds)}${s.resumed ? ' (this session; it continued a stopped run)' : ''}`,
    ...block('agreement', [
      `Fleiss κ ${fixed(a.fleissKappa)} · Krippendorff α ${fixed(a.krippendorffAlpha)} · ${a.labels} labels, ${a.unresolved} unresolved${accuracy}`,
    ]),
    ...block('cost', costLines(s.cost)),
    ...block('latency', [
      `time to decided p50 ${duration(l.timeToTarget.p50Seconds)}, p90 ${duration(l.timeToTarget.p90Seconds)} (simulated); last vote after ${duration(l.simulatedSeconds)} (simulated)`,
      `wall time: crowd work ${formatDuration(l.workWallSeconds)}, whole workflow ${formatDuration(l.totalWallSeconds)}`,
    ]),
    ...block('qrels', [
      `holes filled ${s.qrels.holesFilled} (${s.qrels.byCrowd} by the crowd, ${s.qrels.byConsensus} by consensus) · flips ${s.qrels.flips} · unchanged ${s.qrels.unchanged} · conflicts ${s.qrels.conflicts}`,
    ]),
    ...block('rankings', s.rankings.length ? s.rankings.map((r) => rankingLine(r, width)) : ['no measure with a base ranking']),
    ...block(
      'files',
      s.files.map((f) => `${f.what.padEnd(fileWidth)}  ${f.path}`),
    ),
  ].join('\n')}\n`;
}
