import { createHash } from 'node:crypto';
import type { ScoredAssignment } from '../quality/index.js';
import { compareArms, type ArmName, type ExperimentSummary } from './compare.js';
import { armObservations } from './observations.js';

/** The bootstrap's seed from the batch's seed: the same batch and answers give the same intervals. */
export const experimentSeed = (batchSeed: string): number =>
  createHash('sha256').update(`debate-experiment\u0000${batchSeed}`, 'utf8').digest().readUInt32LE(0);

/**
 * The debate experiment of a batch (pure): its scored assignments (every answer, counted or
 * not: observations.ts says why) split by the recorded arms, compared (compare.ts).
 * `qrelay status` and `qrelay report` give it from the same inputs, so they agree; a
 * worker with no recorded arm is left out.
 */
export function batchExperiment(
  scored: readonly ScoredAssignment[],
  arms: ReadonlyMap<string, ArmName>,
  batchSeed: string,
): ExperimentSummary {
  return compareArms(
    armObservations(scored, (w) => arms.get(w)),
    { seed: experimentSeed(batchSeed) },
  );
}
