/** Moved to src/batches/votes.ts, where the batches' read models use it without importing the pipeline; re-exported for the stages. */
export {
  aggregateStored,
  assignmentRecord,
  type BatchAggregate,
  bySubmission,
  CATEGORIES,
  hitRecord,
  labelVotes,
  pageSignals,
  scoreStored,
  storedHitRecord,
  tiePolicyOf,
} from '../batches/votes.js';
