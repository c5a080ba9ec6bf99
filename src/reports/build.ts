import { costReport } from './cost.js';
import { parseReportInput, type ReportInput } from './input.js';
import { latencyReport, timesToTarget } from './latency.js';
import { resolveReportOptions, type ReportOptions } from './options.js';
import { payByWorker } from './pay.js';
import { prepareFacts } from './prepare.js';
import { humanLabels, qualityReport } from './quality.js';
import { itemRows, workerRows } from './rows.js';
import { confusionTables } from './trust.js';
import { labelsByItem } from '../aggregate/index.js';
import type { ManualDecisionRow, Report } from './types.js';
import { batchExperiment } from '../experiment/summary.js';

/**
 * The cost, latency and quality report of a batch, from plain data (see input.ts). Pure:
 * no I/O, no clock; the same input gives the same report, whatever the order of its
 * lists. Throws a UserError naming the field on bad input.
 */
export function buildReport(input: ReportInput, options: ReportOptions = {}): Report {
  const opts = resolveReportOptions(options);
  const facts = prepareFacts(parseReportInput(input));
  const human = humanLabels(facts, opts);
  const reached = timesToTarget(facts, opts.decision);
  const pay = payByWorker(facts);
  const tables = confusionTables(facts.scored, labelsByItem(human.result));
  // both come from the same scored assignments, so every worker row has its tables
  const workers = workerRows(facts, pay, opts.flagThresholds).map((w) => ({ ...w, confusion: tables.byWorker.get(w.worker)! }));
  const quality = qualityReport(facts, human, workers, opts, tables.gold);
  const labels = quality.labels.yes + quality.labels.no;
  const rows = itemRows(facts, human.result, reached);
  return {
    reportVersion: 2,
    batch: facts.input.batch,
    generatedAt: opts.generatedAt,
    ...(opts.simulatedClock && { simulatedClock: true as const }),
    publishedAt: facts.input.publishedAt,
    items: facts.input.items.length,
    hits: facts.input.hits.length,
    assignments: facts.assignments.length,
    votes: facts.votes.length,
    labels,
    fleissKappa: quality.fleissKappa.value,
    krippendorffAlpha: quality.krippendorffAlpha.value,
    cost: costReport(facts, labels),
    latency: latencyReport(facts, reached, pay, opts),
    quality,
    workers,
    itemRows: rows,
    manualDecisions: manualDecisions(facts.input.manualLabels, rows),
    ...(options.experiment && {
      experiment: batchExperiment(facts.scored, options.experiment.arms, options.experiment.seed),
    }),
  };
}

/**
 * The items decided by hand, each beside the crowd's label of its row. The one section a
 * manual decision changes (holes found aside, when a base qrels is known): a report can be
 * brought up to date with `{ ...report, manualDecisions: manualDecisions(labels, report.itemRows) }`.
 */
export function manualDecisions(
  labels: readonly Omit<ManualDecisionRow, 'crowdLabel'>[],
  rows: readonly Pick<Report['itemRows'][number], 'item' | 'label'>[],
): ManualDecisionRow[] {
  const crowd = new Map(rows.map((r) => [r.item, r.label]));
  return [...labels]
    .sort((a, b) => (a.item < b.item ? -1 : a.item > b.item ? 1 : 0))
    .map((m) => ({ ...m, crowdLabel: crowd.get(m.item) ?? null }));
}
