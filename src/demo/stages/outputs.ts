import { join } from 'node:path';
import { batchReport, exportQrels, type ExportQrelsResult } from '../../export/index.js';
import { aggregateBatch } from '../../pipeline/aggregate.js';
import { requireBatch } from '../../batches/index.js';
import {
  DEFAULT_MEASURES,
  DEFAULT_SIGNIFICANCE,
  evaluateFiles,
  evaluationDocument,
  parseMeasures,
  renderEvaluationTable,
  writeTextAtomically,
  type EvaluationReport,
  type QrelsOutputFormat,
} from '../../qrels/index.js';
import { renderReport, type Report, type ReportFormat, type CsvTable } from '../../reports/index.js';
import { checkAborted, type DemoEnv } from '../env.js';
import { sampleFiles } from '../sample.js';

/**
 * Stages 5 to 8: the final labels, the merged qrels in every format, the sample's runs
 * evaluated under the base and the adjudicated qrels, and the report in every format.
 * Each rewrites its files whole (atomically), so running them again is harmless.
 */

export interface WrittenFile {
  what: string;
  path: string;
}

export async function aggregateStage(env: DemoEnv, batch: string): Promise<void> {
  checkAborted(env.signal);
  const bar = env.progress.stage('aggregate', { total: 1, unit: 'batch' });
  const { summary } = await aggregateBatch(env.ctx, await requireBatch(env.ctx, batch));
  bar.update(1, 1);
  bar.finish(`${summary.labels} labels, ${summary.unresolved} unresolved, from ${summary.validVotes} valid votes`);
}

const QRELS_OUTPUTS: Array<[QrelsOutputFormat, string, string]> = [
  ['trec', 'qrels.trec', 'qrels (TREC)'],
  ['beir', 'qrels.tsv', 'qrels (BEIR tsv)'],
  ['jsonl', 'qrels.jsonl', 'qrels (JSONL, provenance)'],
];

export async function exportStage(
  env: DemoEnv,
  batch: string,
  outDir: string,
): Promise<{ result: ExportQrelsResult; files: WrittenFile[] }> {
  const bar = env.progress.stage('export', { total: QRELS_OUTPUTS.length, unit: 'qrels files' });
  const files: WrittenFile[] = [];
  let result: ExportQrelsResult | undefined;
  for (const [i, [format, name, what]] of QRELS_OUTPUTS.entries()) {
    checkAborted(env.signal);
    const path = join(outDir, name);
    const r = await exportQrels(env.ctx, { batch, base: sampleFiles.base, out: path, format });
    result ??= r;
    files.push({ what, path });
    bar.update(i + 1, QRELS_OUTPUTS.length, `${r.out.pairs} pairs`);
  }
  const o = result!.summary.overall;
  bar.finish(`${o.holesFilled} holes filled, ${o.flips} flips, ${result!.summary.conflicts.length} conflicts`);
  return { result: result!, files };
}

export async function evaluateStage(
  env: DemoEnv,
  merged: string,
  outDir: string,
): Promise<{ report: EvaluationReport; files: WrittenFile[] }> {
  checkAborted(env.signal);
  const runs = sampleFiles.runs;
  const bar = env.progress.stage('evaluate', { total: runs.length, unit: 'runs' });
  const { inputs, report, significance } = await evaluateFiles({
    base: sampleFiles.base,
    next: merged,
    runs,
    measures: parseMeasures([...DEFAULT_MEASURES]),
    significance: DEFAULT_SIGNIFICANCE,
  });
  bar.update(runs.length, runs.length);
  const json = join(outDir, 'evaluation.json');
  const text = join(outDir, 'evaluation.txt');
  await writeTextAtomically(json, `${JSON.stringify(evaluationDocument(inputs, report, significance), null, 2)}\n`);
  await writeTextAtomically(text, renderEvaluationTable(inputs, report, significance));
  const moved = report.measures.filter((m) => m.systems.some((s) => s.rankChange !== null && s.rankChange !== 0)).length;
  bar.finish(`base vs adjudicated qrels, ${report.measures.length} measures, rankings changed under ${moved}`);
  return {
    report,
    files: [
      { what: 'evaluation (JSON)', path: json },
      { what: 'evaluation (table)', path: text },
    ],
  };
}

const REPORT_OUTPUTS: Array<[ReportFormat, CsvTable | undefined, string, string]> = [
  ['json', undefined, 'report.json', 'report (JSON)'],
  ['md', undefined, 'report.md', 'report (Markdown)'],
  ['html', undefined, 'report.html', 'report (HTML)'],
  ['csv', 'workers', 'report-workers.csv', 'report (CSV, workers)'],
  ['csv', 'items', 'report-items.csv', 'report (CSV, items)'],
];

export async function reportStage(env: DemoEnv, batch: string, outDir: string): Promise<{ report: Report; files: WrittenFile[] }> {
  checkAborted(env.signal);
  const bar = env.progress.stage('report', { total: REPORT_OUTPUTS.length, unit: 'files' });
  const { report } = await batchReport(env.ctx, batch, { base: sampleFiles.base, runs: sampleFiles.runs });
  const files: WrittenFile[] = [];
  for (const [i, [format, table, name, what]] of REPORT_OUTPUTS.entries()) {
    const path = join(outDir, name);
    await writeTextAtomically(path, renderReport(report, format, table ? { table } : {}));
    files.push({ what, path });
    bar.update(i + 1, REPORT_OUTPUTS.length);
  }
  bar.finish('json, md, html, csv');
  return { report, files };
}
