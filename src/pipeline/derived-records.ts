/** Moved to src/batches/derived-records.ts, where the batches' read models use it without importing the pipeline; re-exported for the stages. */
export { recentByScores, rememberedAssignmentRecord, rememberedHitRecord, scoreRemembered } from '../batches/derived-records.js';
