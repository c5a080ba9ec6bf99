import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';
import { announceWrites } from '../db/write-notices.js';
import type { QrelsFormat, QrelsOutputFormat } from '../qrels/index.js';

/**
 * The last qrels export of each batch (`_id`: the batch name). It remembers the base
 * qrels the batch was merged into, so that `qrelay report` and the report route can
 * count the holes the crowd found without being given the base again.
 */
export interface QrelsExportDoc {
  _id: string;
  /** Absolute path of the base qrels, as read at export time. */
  base: string;
  baseFormat: QrelsFormat;
  consensusFile: string | null;
  out: string;
  format: QrelsOutputFormat;
  exportedAt: Date;
  labels: number;
  unresolved: number;
  holesFound: number;
  holesFilled: number;
  flips: number;
  conflicts: number;
}

const schema = new Schema<QrelsExportDoc>(
  {
    _id: { type: String, required: true },
    base: { type: String, required: true },
    baseFormat: { type: String, required: true },
    consensusFile: { type: String, default: null },
    out: { type: String, required: true },
    format: { type: String, required: true },
    exportedAt: { type: Date, required: true },
    labels: { type: Number, required: true },
    unresolved: { type: Number, required: true },
    holesFound: { type: Number, required: true },
    holesFilled: { type: Number, required: true },
    flips: { type: Number, required: true },
    conflicts: { type: Number, required: true },
  },
  { collection: collections.qrelsExports, versionKey: false },
);
// the report's fingerprint includes the last export (src/api/answers.ts)
announceWrites(schema, collections.qrelsExports);

export function qrelsExportModel(connection: Connection): Model<QrelsExportDoc> {
  return (connection.models.QrelsExport as Model<QrelsExportDoc> | undefined) ?? connection.model<QrelsExportDoc>('QrelsExport', schema);
}
