/**
 * Cost, latency and quality reports, pure: plain batch data in (input.ts), a Report out
 * (types.ts), rendered as json, md, html (with SVG charts) or csv.
 *
 *   const report = buildReport(input, { generatedAt: new Date().toISOString() });
 *   process.stdout.write(renderReport(report, 'md'));
 */
export { buildReport, manualDecisions } from './build.js';
export { checkReportContract, ReportContract } from './contract.js';
export {
  parseReportInput,
  ReportAssignment,
  ReportBonus,
  ReportHit,
  ReportInput,
  ReportItem,
  ReportQuote,
  reportItemFromCase,
  type ParsedReportInput,
} from './input.js';
export { resolveReportOptions, type ReportAggregator, type ReportOptions, type ResolvedReportOptions } from './options.js';
export type * from './types.js';
export { CsvTable, REPORT_MEDIA_TYPES, renderJson, renderReport, ReportFormat, type RenderOptions } from './render/index.js';
export { renderCsv, csvField } from './render/csv.js';
export { renderHtml } from './render/html.js';
export { renderMarkdown, escapeMarkdown } from './render/markdown.js';
export { loadReportTemplates, REPORT_TEMPLATE_DIR, type ReportTemplates } from './render/templates.js';
