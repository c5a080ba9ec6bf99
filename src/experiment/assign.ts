import { seededRng } from '../hits/random.js';

/**
 * The debate experiment's assignment rule (pure): a worker's arm follows from the
 * experiment's seed and the worker's rank among the batch's workers in order of arrival
 * (0 for the first worker to arrive). Permuted blocks of two: ranks 2b and 2b+1 form
 * block b, and the seed decides, block by block, which of the two sees the debate. Every
 * two arrivals are split evenly, so the arms stay balanced over the batch's life (early
 * and late workers alike), and the rule, replayed with the recorded seed and arrival
 * order, gives every worker's arm again. `qrelay publish --experiment debate` assigns
 * workers with it; `qrelay simulate --experiment debate` splits its simulated crowd with it.
 */

export const EXPERIMENT_ARMS = ['debate', 'no-debate'] as const;
export type ExperimentArm = (typeof EXPERIMENT_ARMS)[number];

/** Workers per block of the stratification (one per arm). */
export const BLOCK_SIZE = EXPERIMENT_ARMS.length;

/** The arm of the worker who arrived `rank`-th (from 0) in an experiment seeded `seed`. */
export function armOf(seed: string, rank: number): ExperimentArm {
  if (!Number.isInteger(rank) || rank < 0) throw new RangeError(`armOf: the arrival rank must be a whole number from 0, not ${rank}`);
  const block = Math.floor(rank / BLOCK_SIZE);
  const debateFirst = seededRng(`${seed}:experiment:debate:block:${block}`).next() < 0.5;
  const first: ExperimentArm = debateFirst ? 'debate' : 'no-debate';
  const second: ExperimentArm = debateFirst ? 'no-debate' : 'debate';
  return rank % BLOCK_SIZE === 0 ? first : second;
}

/** Every worker's arm, the workers given in order of arrival (a worker named twice keeps the first arm). */
export function assignArms(seed: string, workersInArrivalOrder: readonly string[]): Map<string, ExperimentArm> {
  const arms = new Map<string, ExperimentArm>();
  for (const workerId of workersInArrivalOrder) if (!arms.has(workerId)) arms.set(workerId, armOf(seed, arms.size));
  return arms;
}
