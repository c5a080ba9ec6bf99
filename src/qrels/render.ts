import type { EvaluationReport, MeasureResult } from './evaluate.js';
import type { PairSignificance, SignificanceReport } from './significance.js';
import type { Interval } from './statistics.js';
import type { QrelsFormat } from './types.js';

/** What the report says about its inputs. */
export interface EvaluationInputs {
  qrels: { base: QrelsInfo; new: QrelsInfo };
  runs: RunInfo[];
}

export interface QrelsInfo {
  file: string;
  format: QrelsFormat;
  queries: number;
  judgments: number;
  relevant: number;
}

export interface RunInfo {
  system: string;
  file: string;
  tags: string[];
  queries: number;
  documents: number;
}

/** An interval with its `withLabels` (`--posterior`) beside it, when there is one. */
const withLabelsOf = (interval: Interval | null, labels: Interval | null | undefined) =>
  interval && labels !== undefined ? { ...interval, withLabels: labels } : interval;

/**
 * The `--json` document: inputs, then the report. With significance: each measure gets
 * the 95% intervals of τ-b and τ_AP, each of its systems the interval of its change
 * (new − base), and the document `significance` and `intervals`.
 */
export function evaluationDocument(inputs: EvaluationInputs, report: EvaluationReport, significance: SignificanceReport | null = null) {
  const measures = significance
    ? report.measures.map((m) => {
        const tau = significance.rankCorrelation.find((r) => r.measure === m.measure);
        return {
          ...m,
          kendallTauInterval: withLabelsOf(tau?.kendallTau ?? null, tau?.withLabels?.kendallTau),
          kendallTauAPInterval: withLabelsOf(tau?.kendallTauAP ?? null, tau?.withLabels?.kendallTauAP),
          systems: m.systems.map((s) => ({
            ...s,
            changeInterval: significance.changes.find((c) => c.measure === m.measure && c.system === s.system)?.interval ?? null,
          })),
        };
      })
    : report.measures;
  return {
    qrels: inputs.qrels,
    runs: inputs.runs,
    measures,
    perQuery: report.perQuery,
    ...(significance && { significance: significance.significance, intervals: significance.intervals }),
  };
}

/** Names from outside (file names) shown without control characters. */
function shown(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const fixed = (v: number | null) => (v === null ? '–' : v.toFixed(4));
const signed = (v: number | null) => (v === null ? '' : v > 0 ? `+${v}` : v < 0 ? `−${-v}` : '=');

function table(rows: string[][], rightAligned: ReadonlySet<number>): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => [...r[c]!].length)));
  return rows.map((r) =>
    r
      .map((cell, c) => {
        const pad = ' '.repeat(widths[c]! - [...cell].length);
        return rightAligned.has(c) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

const p = (v: number | null) => (v === null ? '–' : v < 0.0001 ? v.toExponential(1) : v.toFixed(4));
const ci = (i: { low: number; high: number } | null | undefined) => (i ? `[${i.low.toFixed(4)}, ${i.high.toFixed(4)}]` : '[–]');
const SIGNIFICANT = 0.05;

/** Lines under a measure's table: intervals, and the pairs of systems whose significance the new qrels changed. */
function significanceLines(m: MeasureResult, s: SignificanceReport): string[] {
  const pairs = (qrels: 'base' | 'new') => s.significance.filter((x) => x.measure === m.measure && x.qrels === qrels);
  const count = (list: PairSignificance[]) => `${list.filter((x) => x.pHolm !== null && x.pHolm < SIGNIFICANT).length} of ${list.length}`;
  const newPairs = pairs('new');
  const lines: string[] = [];
  if (m.queries.base !== null) {
    const tau = s.rankCorrelation.find((r) => r.measure === m.measure);
    lines.push(
      `τ_AP ${m.kendallTauAP === null ? '–' : m.kendallTauAP.toFixed(4)}; 95% bootstrap intervals: τ-b ${ci(tau?.kendallTau)}, τ_AP ${ci(tau?.kendallTauAP)}`,
    );
    const changes = s.changes.filter((c) => c.measure === m.measure).map((c) => `${shown(c.system)} ${ci(c.interval)}`);
    if (changes.length > 0) lines.push(`Δ 95% interval: ${changes.join(' · ')}`);
    const basePairs = pairs('base');
    lines.push(`pairs of systems different (paired t-test, Holm p < ${SIGNIFICANT}): base ${count(basePairs)}, new ${count(newPairs)}`);
    for (const after of newPairs) {
      const before = basePairs.find((x) => x.a === after.a && x.b === after.b);
      const was = before?.pHolm !== null && before?.pHolm !== undefined && before.pHolm < SIGNIFICANT;
      const is = after.pHolm !== null && after.pHolm < SIGNIFICANT;
      if (was !== is) {
        lines.push(
          `  ${shown(after.a)} vs ${shown(after.b)}: ${is ? 'now different' : 'no longer different'} (Holm p ${p(before?.pHolm ?? null)} → ${p(after.pHolm)}; randomization p ${p(before?.randomization.p ?? null)} → ${p(after.randomization.p)})`,
        );
      }
    }
  } else {
    lines.push(`pairs of systems different (paired t-test, Holm p < ${SIGNIFICANT}): ${count(newPairs)}`);
  }
  return [...lines, ...labelDoubtLines(m, s, newPairs)];
}

/** Above this share of label draws that reverse a pair, its order is said to depend on the labels. */
const LABEL_DEPENDENT = 0.05;

/** With `--posterior`: the τ interval with the labels' doubt, and the comparisons whose conclusion the labels decide. */
function labelDoubtLines(m: MeasureResult, s: SignificanceReport, newPairs: PairSignificance[]): string[] {
  const drawn = newPairs.filter((x) => x.pFlip !== undefined);
  if (drawn.length === 0) return [];
  const tau = s.rankCorrelation.find((r) => r.measure === m.measure)?.withLabels;
  const lines = tau ? [`with the labels' doubt (--posterior): τ-b ${ci(tau.kendallTau)}, τ_AP ${ci(tau.kendallTauAP)}`] : [];
  const doubtful = drawn.filter((x) => x.pFlip! > LABEL_DEPENDENT).sort((x, y) => y.pFlip! - x.pFlip!);
  if (doubtful.length === 0) {
    lines.push(
      `no comparison depends on the labels: every order of two systems holds in at least ${(1 - LABEL_DEPENDENT) * 100}% of the label draws`,
    );
    return lines;
  }
  lines.push(`comparisons that depend on the labels (the order reverses in more than ${LABEL_DEPENDENT * 100}% of the label draws):`);
  for (const x of doubtful) {
    const ahead = x.meanDifference >= 0 ? [x.a, x.b] : [x.b, x.a];
    // a significant verdict the labels can reverse is the conclusion most worth a warning
    const verdict = x.pHolm !== null && x.pHolm < SIGNIFICANT ? ` (significant, Holm p ${p(x.pHolm)}, yet)` : '';
    lines.push(
      `  ${shown(ahead[0]!)} ahead of ${shown(ahead[1]!)} by ${Math.abs(x.meanDifference).toFixed(4)}${verdict}: reversed in ${(x.pFlip! * 100).toFixed(1)}% of the draws, so this order rests on labels in doubt`,
    );
  }
  return lines;
}

function measureBlock(m: MeasureResult): string[] {
  const pair = m.queries.base === null;
  if (pair) {
    const rows = [['system', 'value', 'rank'], ...m.systems.map((s) => [shown(s.system), fixed(s.new), String(s.rankNew)])];
    return [
      `${m.measure}  (new relevant documents unjudged in the base; ${m.queries.new} queries of the new qrels)`,
      ...table(rows, new Set([1, 2])).map((l) => `  ${l}`),
    ];
  }
  const rows = [
    ['system', 'base', 'new', 'Δ', 'rank base → new', 'moved'],
    ...m.systems.map((s) => [
      shown(s.system),
      fixed(s.base),
      fixed(s.new),
      s.base === null ? '' : (s.new - s.base >= 0 ? '+' : '−') + Math.abs(s.new - s.base).toFixed(4),
      `${s.rankBase ?? '–'} → ${s.rankNew}`,
      signed(s.rankChange),
    ]),
  ];
  const tau = m.kendallTau === null ? 'undefined (fewer than 2 systems, or all tied)' : m.kendallTau.toFixed(4);
  return [
    `${m.measure}  (queries: base ${m.queries.base}, new ${m.queries.new})  Kendall τ-b ${tau}`,
    ...table(rows, new Set([1, 2, 3, 4, 5])).map((l) => `  ${l}`),
  ];
}

/** The human-readable report. */
export function renderEvaluationTable(
  inputs: EvaluationInputs,
  report: EvaluationReport,
  significance: SignificanceReport | null = null,
): string {
  const q = (label: string, info: QrelsInfo) => [
    label,
    shown(info.file),
    info.format,
    `${info.queries} queries`,
    `${info.judgments} judgments`,
    `${info.relevant} relevant`,
  ];
  const header = table([q('base qrels', inputs.qrels.base), q('new qrels', inputs.qrels.new)], new Set([3, 4, 5]));
  const runs = table(
    inputs.runs.map((r) => ['run', shown(r.system), `${r.queries} queries`, `${r.documents} documents`]),
    new Set([2, 3]),
  );
  const blocks = report.measures.map((m) =>
    [...measureBlock(m), ...(significance ? significanceLines(m, significance).map((l) => `  ${l}`) : [])].join('\n'),
  );
  return `${[...header, ...runs].join('\n')}\n\n${blocks.join('\n\n')}\n`;
}
