/**
 * The escalation pipeline: plain async stages over a PipelineContext (database models, the
 * crowd backend of a target, a logger, a clock), each idempotent and resumable. The CLI
 * calls them in-process; agenda jobs (src/jobs/pipeline.ts) wrap them for the server.
 *
 *   import -> publish (plan + create HITs) -> collect rounds (reconcile, review,
 *   follow-up, aggregate) until complete -> expire / cleanup
 *
 * Data model: src/db/models/index.ts. Decisions and guarantees: README, "The escalation pipeline".
 */
export { createPipelineContext, parseTargetName, type PipelineContext, type PipelineContextOptions } from './context.js';
export { BatchNotFound, BatchStateError } from './errors.js';
export { BatchName, checkBatchName, itemId, hitDocId, hitAnnotation } from './names.js';
export { importAny, importFile, ImportRejected, type ImportOptions, type ImportOutcome, type ImportResult } from './import.js';
export { PublishRequest, parsePublishRequest, parseBudgetUsd, resolveSettings } from './settings.js';
export { computePlan, planWith } from './plan.js';
export { describePlan } from './describe.js';
export { dryRunPublish, preparePublish, publishBatch, publishPending, requireBatch, type DryRun, type PublishResult } from './publish.js';
export { reconcileBatch, type ReconcileResult } from './reconcile.js';
export { reviewBatch, decide, type ReviewResult } from './review.js';
export { collectBatch, followUpBatch, RoundBusy, MAX_REPOSTS, ROUND_LEASE_MS, type CollectResult, type FollowUpResult } from './collect.js';
export { aggregateBatch, buildLabels, loadBatchData, type BatchAggregation, type BatchData } from './aggregate.js';
export { aggregateStored, labelVotes, type BatchAggregate } from './votes.js';
export { batchStatus, renderStatus, summarizeBatch, type BatchStatus } from './status.js';
export { cleanupBatch, expireBatch, type CleanupResult, type ExpireResult } from './expire.js';
export { reportInputFor } from './report-input.js';
