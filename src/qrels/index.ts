/**
 * qrels: reading and writing qrels and runs, merging labels into qrels with provenance,
 * and evaluating runs before/after. Pure modules plus the file adapters read.ts,
 * write.ts and atomic-write.ts.
 */
export { compareIds, sortIds, quote } from './ids.js';
export { InputLineError } from './input-error.js';
export { countJudgments, QRELS_FORMATS, QRELS_OUTPUT_FORMATS, RELEVANT } from './types.js';
export type { Qrels, QrelsFormat, QrelsOutputFormat, RankedDoc, Run } from './types.js';
export { BEIR_HEADER, detectQrelsFormat, parseQrelsText, QrelsParser } from './qrels-parse.js';
export type { QrelsParseResult } from './qrels-parse.js';
export { parseRunText, rankingOrder, RunParser } from './run-parse.js';
export type { RunParseResult } from './run-parse.js';
export { forEachLine, readQrels, readRun } from './read.js';
export type { ReadQrelsOptions, RunFile } from './read.js';
export { outputFormatFor, qrelsLines, writeQrels } from './write.js';
export {
  ADJUDICATOR_CONFIDENCE,
  agreementError,
  CONSENSUS_CONFIDENCE,
  goldErrorBound,
  majorityError,
  oneCoinPosterior,
  pairKey,
  posteriorOf,
  withPosteriors,
  type PosteriorModel,
} from './posterior.js';
export type { WritableEntry } from './write.js';
export { writeLinesAtomically, writeTextAtomically } from './atomic-write.js';
export {
  entriesFromQrels,
  HumanLabel,
  HumanLabelSource,
  LABEL_SOURCES,
  LabelSource,
  mergeQrels,
  MergeInputError,
  qrelsFromEntries,
  Votes,
} from './merge.js';
export type { MergeConflict, MergeCounts, MergeInput, MergeResult, MergeSummary, QrelsEntry } from './merge.js';
export {
  DEFAULT_MEASURES,
  isPairMeasure,
  KNOWN_MEASURES,
  MEASURE_NAMES,
  measuresHelp,
  parseMeasure,
  parseMeasures,
} from './measure-names.js';
export type { Measure, MeasureName } from './measure-names.js';
export { lexicalOrder, measureQuery, prepareQrels, relevantCount } from './measures.js';
export type { PreparedQrels, QueryContext, QueryJudgments } from './measures.js';
export { competitionRanks, kendallTauAP, kendallTauB } from './kendall.js';
export {
  compareSystems,
  definedMean,
  evaluateSystem,
  evaluateSystems,
  evaluationContext,
  MEAN_TIE_TOLERANCE,
  perQueryRecords,
} from './evaluate.js';
export {
  bootstrapMeans,
  holm,
  pairedTTest,
  percentileInterval,
  randomizationTest,
  randomizationTests,
  seededRandom,
} from './statistics.js';
export type { Interval, TTestResult } from './statistics.js';
export { studentTwoSidedP } from './student-t.js';
export { bootstrapIntervals, DEFAULT_SIGNIFICANCE, pairSignificance, significanceReport } from './significance.js';
export type {
  ChangeInterval,
  MeanInterval,
  PairSignificance,
  QrelsSide,
  RankCorrelationIntervals,
  SignificanceOptions,
  SignificanceReport,
} from './significance.js';
export type {
  EvaluationContext,
  EvaluationInput,
  EvaluationReport,
  MeasureResult,
  MeasureValues,
  PerQuery,
  SystemEvaluation,
  SystemInput,
  SystemPerQuery,
  SystemScore,
} from './evaluate.js';
export { evaluationDocument, renderEvaluationTable } from './render.js';
export { evaluateFiles, systemNames, type EvaluateFilesInput } from './evaluate-files.js';
export type { EvaluationInputs, QrelsInfo, RunInfo } from './render.js';
export { PER_QUERY_FORMATS, perQueryLines } from './per-query.js';
export type { PerQueryFormat } from './per-query.js';
export type { EvaluateFilesResult } from './evaluate-files.js';
export { holesMattered } from './holes-matter.js';
export { SIGNIFICANCE_LEVEL } from './significance.js';
export type { HolesMattered, HolesMatteredRun, SwappedPair } from './holes-matter.js';
export { HOLES_JUDGED_MEASURE, holesMatteredFromFiles } from './holes-matter-files.js';
export type { HolesMatteredFiles } from './holes-matter-files.js';
export { changedComparisons, NAMED_LABELS } from './holes-comparisons.js';
export type { ChangedComparison, ChangedComparisons, LabelToRejudge, LabelVerdict, SettleEstimate } from './holes-comparisons.js';
export { labelsToSettle, SETTLED_BELOW } from './settle.js';
