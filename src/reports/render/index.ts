import { UserError } from '../../errors.js';
import type { Report } from '../types.js';
import { renderCsv } from './csv.js';
import { CsvTable, ReportFormat } from './formats.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';

export interface RenderOptions {
  /** For csv: the per-worker table (default) or the per-item table. */
  readonly table?: CsvTable;
  /** For json: no indentation and no final newline, for programs (the API's answer: about 40% fewer bytes than indented). */
  readonly compact?: boolean;
}

/**
 * The report as JSON: one object, 2-space indented with a final newline (or `compact`: on
 * one line). Money in cents, durations in seconds (see types.ts).
 */
export function renderJson(report: Report, compact = false): string {
  return compact ? JSON.stringify(report) : `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * The report in a format; the same report always gives the same string. Throws a
 * UserError for a format or table it does not know (they may come from a command line or
 * a query string).
 */
export function renderReport(report: Report, format: ReportFormat, options: RenderOptions = {}): string {
  const f = ReportFormat.safeParse(format);
  if (!f.success) throw new UserError(`report format ${JSON.stringify(format)} is not one of ${ReportFormat.options.join(', ')}`);
  const table = CsvTable.safeParse(options.table ?? 'workers');
  if (!table.success) throw new UserError(`csv table ${JSON.stringify(options.table)} is not one of ${CsvTable.options.join(', ')}`);
  switch (f.data) {
    case 'json':
      return renderJson(report, options.compact);
    case 'md':
      return renderMarkdown(report);
    case 'html':
      return renderHtml(report);
    case 'csv':
      return renderCsv(report, table.data);
  }
}

export { CsvTable, REPORT_MEDIA_TYPES, ReportFormat } from './formats.js';
