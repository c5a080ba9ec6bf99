/** Moved to src/batches/redundancy.ts, where the batches' read models use it without importing the pipeline; re-exported for the stages. */
export {
  collectTargets,
  completeItems,
  decisionRule,
  firstAssignments,
  isAdaptive,
  recollectOf,
  targetOf,
  voteTargets,
  type VoteTargets,
} from '../batches/redundancy.js';
