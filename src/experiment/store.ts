import { Schema, type Connection, type Model } from 'mongoose';
import { model } from '../db/models/index.js';
import { armOf } from './assign.js';
import type { ArmName } from './compare.js';

/**
 * The debate experiment's records (docs/experiment.md): each worker's arm, written when
 * the worker first opens a page of the batch and before that page is answered, and the
 * batch's count of arrivals that ranks them. Filters are by `_id` alone (the dev database).
 *
 * | collection | `_id` | holds |
 * |---|---|---|
 * | experiment_arms | `<batch>|<worker>` | the worker's arrival rank, arm, when and on which HIT |
 * | experiment_arrivals | the batch | how many workers have arrived |
 */

export interface ExperimentArmDoc {
  _id: string;
  batch: string;
  workerId: string;
  /** 0 for the batch's first worker to arrive. */
  rank: number;
  arm: ArmName;
  assignedAt: Date;
  /** The HIT whose page the worker opened first. */
  firstHit: number;
}

interface ArrivalsDoc {
  _id: string;
  count: number;
}

const opts = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

const armSchema = new Schema<ExperimentArmDoc>(
  {
    _id: String,
    batch: { type: String, required: true },
    workerId: { type: String, required: true },
    rank: { type: Number, required: true },
    arm: { type: String, enum: ['debate', 'no-debate'], required: true },
    assignedAt: { type: Date, required: true },
    firstHit: { type: Number, required: true },
  },
  opts('experiment_arms'),
);
armSchema.index({ batch: 1 });
const arrivalsSchema = new Schema<ArrivalsDoc>({ _id: String, count: { type: Number, required: true } }, opts('experiment_arrivals'));

export interface ExperimentModels {
  arms: Model<ExperimentArmDoc>;
  arrivals: Model<ArrivalsDoc>;
}

export function experimentModels(connection: Connection): ExperimentModels {
  return {
    arms: model(connection, 'ExperimentArm', armSchema),
    arrivals: model(connection, 'ExperimentArrivals', arrivalsSchema),
  };
}

const armId = (batch: string, workerId: string) => `${batch}|${workerId}`;

const isDuplicateKey = (err: unknown): boolean => (err as { code?: number }).code === 11000;

/**
 * The worker's arm in the batch's experiment: the one recorded, or (first arrival) the next
 * rank's arm by the seeded assignment (assign.ts), recorded before it is returned. Two
 * first arrivals of one worker at once (a double click): the first record stands; the
 * other's rank is left unused (the balance then holds to within that one rank).
 */
export async function arriveInExperiment(
  models: ExperimentModels,
  arrival: { batch: string; seed: string; workerId: string; hit: number; now: Date },
): Promise<ExperimentArmDoc> {
  const { batch, seed, workerId } = arrival;
  const id = armId(batch, workerId);
  const known = await models.arms.findById(id).lean<ExperimentArmDoc>();
  if (known) return known;
  const counter = await models.arrivals
    .findOneAndUpdate({ _id: batch }, { $inc: { count: 1 } }, { upsert: true, returnDocument: 'after' })
    .lean<ArrivalsDoc>();
  if (!counter) throw new Error(`experiment_arrivals: the arrival count of batch ${batch} could not be stored; open the page again`);
  const rank = counter.count - 1;
  const doc: ExperimentArmDoc = { _id: id, batch, workerId, rank, arm: armOf(seed, rank), assignedAt: arrival.now, firstHit: arrival.hit };
  try {
    await models.arms.create(doc);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const first = await models.arms.findById(id).lean<ExperimentArmDoc>();
    if (!first) throw err;
    return first;
  }
  return doc;
}

/** Every recorded arm of the batch, in arrival order. */
export async function experimentArms(models: ExperimentModels, batch: string): Promise<ExperimentArmDoc[]> {
  return models.arms.find({ batch }).sort({ rank: 1 }).lean<ExperimentArmDoc[]>();
}

/** Each worker's recorded arm in the batch. */
export async function armsByWorker(connection: Connection, batch: string): Promise<Map<string, ArmName>> {
  const arms = await experimentArms(experimentModels(connection), batch);
  return new Map(arms.map((a) => [a.workerId, a.arm]));
}
