/**
 * What leaves qrelay for a batch: merged qrels (`qrelay export-qrels`) and reports
 * (`qrelay report`, `GET /api/v1/batches/{batch}/report`). Thin adapters over the
 * database; the merging (src/qrels) and the report (src/reports) are pure.
 */
export {
  datasetsOf,
  describeUnresolved,
  holesFound,
  toHumanLabels,
  type BatchHumanLabels,
  type UnresolvedItem,
  type UnresolvedReason,
} from './human-labels.js';
export { loadHumanLabels } from './load-labels.js';
export { exportQrels, type ExportQrelsOptions, type ExportQrelsResult } from './qrels-export.js';
export { describeConflict, renderExportSummary } from './render.js';
export { batchReport, withCurrentManualLabels, type BatchReport } from './batch-report.js';
export { qrelsExportModel, type QrelsExportDoc } from './store.js';
export { recordAggregateChoice, recordedAggregateChoice } from './aggregate-choice.js';
export { AGGREGATES, decideAggregate, type Aggregate, type AggregateDecision } from './aggregate-decision.js';
