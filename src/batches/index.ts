/** Read models of a batch: the batch, its HITs and assignments, its labels. */
export { draftBatch, requireBatch, loadBatchData, loadBatchHits, type BatchData } from './repository.js';
export { buildLabels, plannedItems, type BatchAggregation } from './labels.js';
