import { z } from 'zod';
import type { Report } from '../types.js';
import { renderCsv, type CsvTable } from './csv.js';
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

interface ReportFormatSpec {
  /** The media type to serve it with. */
  readonly mediaType: string;
  render(report: Report, options: { readonly table: CsvTable; readonly compact: boolean }): string;
}

/**
 * The report formats, one entry each: `--format` of `qrelay report` and `?format=` of the
 * report route list them in this order. A new format: its renderer in its own file, then
 * an entry here.
 */
export const REPORT_FORMATS = {
  json: { mediaType: 'application/json; charset=utf-8', render: (report, { compact }) => renderJson(report, compact) },
  md: { mediaType: 'text/markdown; charset=utf-8', render: (report) => renderMarkdown(report) },
  html: { mediaType: 'text/html; charset=utf-8', render: (report) => renderHtml(report) },
  csv: { mediaType: 'text/csv; charset=utf-8; header=present', render: (report, { table }) => renderCsv(report, table) },
} as const satisfies Record<string, ReportFormatSpec>;

export type ReportFormat = keyof typeof REPORT_FORMATS;
export const ReportFormat = z.enum(Object.keys(REPORT_FORMATS) as [ReportFormat, ...ReportFormat[]]);

/** Media types to serve each format with. */
export const REPORT_MEDIA_TYPES = Object.fromEntries(ReportFormat.options.map((f) => [f, REPORT_FORMATS[f].mediaType])) as Record<
  ReportFormat,
  string
>;
