import { Schema, type SchemaDefinition } from 'mongoose';
import type { EscalatedCase, GoldItem, Judgment } from '../../domain/cases.js';
import type { IngestKind } from '../../ingest/index.js';
import { collections } from '../collections.js';
import { required } from '../fields.js';

/**
 * An imported record (escalated case, gold item or consensus label) as a small document
 * the pipeline may filter by batch. Large texts (query, chunk, debate) are in the kind's
 * text collection under the same `_id`, read by `_id` only.
 *
 * Visibility: a record belongs to every import that wrote it (`imports`); readers show it
 * only when one of those imports is `done`, so a file whose import crashed half-way is not
 * seen until an import of it completes.
 */
export interface RecordDoc {
  /** `${batch}|${caseKey}`. */
  _id: string;
  batch: string;
  caseKey: string;
  /** The HIT page's opaque key (`simKey`). */
  key: string;
  queryId: string;
  chunkId: string;
  dataset: string;
  /** Gold and consensus: the label; escalations: the hidden true label, when known. */
  label: Judgment | null;
  /** sha256 of the canonical record: a re-import of a changed record is refused. */
  sha: string;
  imports: string[];
  /** [start of the first import that wrote it (ms), line]: the batch's order. */
  order: number[];
}

export interface ItemTextDoc {
  _id: string;
  record: EscalatedCase;
}

export interface GoldTextDoc {
  _id: string;
  record: GoldItem;
}

export const IMPORT_STATES = ['committing', 'done'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export interface ImportCounts {
  lines: number;
  records: number;
  /** Records new to the batch. */
  inserted: number;
  /** Records the batch already held, identical. */
  existing: number;
  /** Lines repeating an earlier line of the file. */
  duplicates: number;
  /** BRIDGE rows of the other kind. */
  skipped: number;
}

export interface ImportDoc {
  _id: string;
  batch: string;
  kind: IngestKind;
  file: string;
  format: string | null;
  state: ImportState;
  startedAt: Date;
  finishedAt: Date | null;
  counts: ImportCounts;
}

const recordFields: SchemaDefinition<RecordDoc> = {
  ...required(String, '_id', 'batch', 'caseKey', 'key', 'queryId', 'chunkId', 'dataset'),
  label: { type: String, default: null },
  sha: { type: String, required: true },
  imports: { type: [String], default: [] },
  order: { type: [Number], default: [] },
};

const options = (collection: string) => ({ collection, versionKey: false as const, minimize: false });

export const itemSchema = new Schema<RecordDoc>(recordFields, options(collections.items));
export const goldSchema = new Schema<RecordDoc>(recordFields, options(collections.gold));
export const consensusSchema = new Schema<RecordDoc>(recordFields, options(collections.consensus));

export const itemTextSchema = new Schema<ItemTextDoc>(
  { _id: { type: String, required: true }, record: { type: Schema.Types.Mixed, required: true } },
  options(collections.itemTexts),
);
export const goldTextSchema = new Schema<GoldTextDoc>(
  { _id: { type: String, required: true }, record: { type: Schema.Types.Mixed, required: true } },
  options(collections.goldTexts),
);

export const importSchema = new Schema<ImportDoc>(
  {
    ...required(String, '_id', 'batch', 'kind', 'file'),
    format: { type: String, default: null },
    state: { type: String, enum: IMPORT_STATES, required: true },
    startedAt: { type: Date, required: true },
    finishedAt: { type: Date, default: null },
    counts: { type: Schema.Types.Mixed, required: true },
  },
  options(collections.imports),
);
