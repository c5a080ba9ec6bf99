/** Moved to src/batches/errors.ts, where the batches' read models use it without importing the pipeline; re-exported for the stages. */
export { BatchNotFound, BatchStateError } from '../batches/errors.js';
