import { UserError } from '../../errors.js';
import type { Report } from '../types.js';
import { CsvTable } from './csv.js';
import { REPORT_FORMATS, ReportFormat, type RenderOptions } from './formats.js';

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
  return REPORT_FORMATS[f.data].render(report, { table: table.data, compact: options.compact ?? false });
}

export { CsvTable } from './csv.js';
export { REPORT_FORMATS, REPORT_MEDIA_TYPES, renderJson, ReportFormat, type RenderOptions } from './formats.js';
