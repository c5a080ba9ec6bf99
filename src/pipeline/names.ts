/** Moved to src/batches/names.ts, where the batches' read models use it without importing the pipeline; re-exported for the stages. */
export { batchIdPrefix, BatchName, checkBatchName, checkItemId, hitAnnotation, hitDocId, itemId } from '../batches/names.js';
