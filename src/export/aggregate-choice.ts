import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';
import { AGGREGATES, type AggregateChoiceDoc } from './aggregate-decision.js';

/** Where the forecast's choice of labels is kept (collection `aggregate_choices`, one document per batch). */
const figures = { accuracy: { type: Number, default: null }, balancedAccuracy: { type: Number, default: null } };
const schema = new Schema<AggregateChoiceDoc>(
  {
    _id: { type: String, required: true },
    better: { type: String, required: true, enum: AGGREGATES },
    majority: figures,
    ds: figures,
    simulatedAs: { type: String, required: true },
    seed: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: collections.aggregateChoices, versionKey: false },
);

export function aggregateChoiceModel(connection: Connection): Model<AggregateChoiceDoc> {
  return (
    (connection.models.AggregateChoice as Model<AggregateChoiceDoc> | undefined) ??
    connection.model<AggregateChoiceDoc>('AggregateChoice', schema)
  );
}

/** Records a forecast's choice for the source batch and for its simulated copy (the latest forecast wins). */
export async function recordAggregateChoice(
  connection: Connection,
  source: string,
  choice: Omit<AggregateChoiceDoc, '_id'>,
): Promise<void> {
  const model = aggregateChoiceModel(connection);
  for (const id of new Set([source, choice.simulatedAs])) await model.replaceOne({ _id: id }, { _id: id, ...choice }, { upsert: true });
}

export async function recordedAggregateChoice(connection: Connection, batch: string): Promise<Omit<AggregateChoiceDoc, '_id'> | null> {
  const doc = await aggregateChoiceModel(connection).findById(batch).lean<AggregateChoiceDoc>();
  if (!doc) return null;
  const { _id: _batch, ...rest } = doc;
  return rest;
}
