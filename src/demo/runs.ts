import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';

/**
 * The demo's runs (`_id`: the batch name): which batches the demo made, with what sample
 * size, and whether the workflow reached its summary. `qrelay start` continues a run that
 * did not (Ctrl-C, a crash) instead of starting a second one.
 */
export interface DemoRunDoc {
  _id: string;
  /** Escalated cases taken from the sample (the first n). */
  cases: number;
  state: 'running' | 'done';
  startedAt: Date;
  finishedAt: Date | null;
  /** Where its files went. */
  outDir: string;
  /**
   * The hand-over of its simulated marketplace's records to the bundled marketplace
   * (stages/hand-over.ts): the target's time it is anchored at (kept, so that a hand-over
   * continued after a crash maps times as the first attempt did), and when it finished.
   */
  handOver?: { anchor: Date; target: string; doneAt: Date | null } | null;
}

const schema = new Schema<DemoRunDoc>(
  {
    _id: { type: String, required: true },
    cases: { type: Number, required: true },
    state: { type: String, enum: ['running', 'done'], required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    outDir: { type: String, required: true },
    handOver: { type: new Schema({ anchor: Date, target: String, doneAt: Date }, { _id: false }), default: null },
  },
  { collection: collections.demoRuns, versionKey: false },
);

export function demoRunModel(connection: Connection): Model<DemoRunDoc> {
  return (connection.models.DemoRun as Model<DemoRunDoc> | undefined) ?? connection.model<DemoRunDoc>('DemoRun', schema);
}

export const DEMO_BATCH = 'sample';

/** `sample`, else `sample-2`, `sample-3`, ...: the first name no batch and no demo run has. */
export function nextDemoBatch(taken: ReadonlySet<string>): string {
  if (!taken.has(DEMO_BATCH)) return DEMO_BATCH;
  for (let n = 2; ; n++) if (!taken.has(`${DEMO_BATCH}-${n}`)) return `${DEMO_BATCH}-${n}`;
}

/** The most recent run that did not finish, if any. */
export async function unfinishedRun(connection: Connection): Promise<DemoRunDoc | null> {
  const runs = await demoRunModel(connection).find({ state: 'running' }).lean<DemoRunDoc[]>();
  return runs.sort((a, b) => new Date(b.startedAt).getTime() - new Date(a.startedAt).getTime())[0] ?? null;
}
