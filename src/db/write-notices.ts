import type { Connection, MongooseQueryMiddleware, Schema } from 'mongoose';

/**
 * In-process notices of writes through a model, for readers that keep what they read in
 * memory (the API's batch fingerprints, src/api/answers.ts): a write through this process's
 * connection reaches them before it is sent and again when it is done, so that nothing read
 * before a write is served after it. Writes by other processes do not come here; those
 * readers re-read within their own bounded staleness.
 */
type Listener = (collection: string) => void;

const listeners = new WeakMap<Connection, Set<Listener>>();

function notify(connection: Connection | undefined, collection: string): void {
  if (!connection) return;
  for (const listener of listeners.get(connection) ?? []) listener(collection);
}

/** Every way mongoose writes: query, model and document middleware. */
const QUERY_WRITES: MongooseQueryMiddleware[] = [
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
];

/** Announces the writes of models compiled from `schema` (call it before the first model is). */
export function announceWrites(schema: Schema, collection: string): void {
  // `this` is the query (query middleware), the model (insertMany, bulkWrite) or the document (save)
  const fromQuery = function (this: { model: { db: Connection } }) {
    notify(this.model.db, collection);
  };
  const fromModel = function (this: { db: Connection }) {
    notify(this.db, collection);
  };
  schema.pre(QUERY_WRITES, { document: false, query: true }, fromQuery);
  schema.post(QUERY_WRITES, { document: false, query: true }, fromQuery);
  schema.pre('insertMany', fromModel);
  schema.post('insertMany', fromModel);
  schema.pre('bulkWrite', fromModel);
  schema.post('bulkWrite', fromModel);
  schema.pre('save', fromModel);
  schema.post('save', fromModel);
}

/** Calls `listener` with the collection's name on every announced write through `connection`; returns the unsubscribe. */
export function onWrites(connection: Connection, listener: Listener): () => void {
  let set = listeners.get(connection);
  if (!set) listeners.set(connection, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}
