import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';
import { announceWrites } from '../db/write-notices.js';
import type { QrelsFormat, QrelsOutputFormat } from '../qrels/index.js';
import { required } from '../db/fields.js';

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
    ...required(String, '_id', 'base', 'baseFormat'),
    consensusFile: { type: String, default: null },
    ...required(String, 'out', 'format'),
    exportedAt: { type: Date, required: true },
    ...required(Number, 'labels', 'unresolved', 'holesFound', 'holesFilled', 'flips', 'conflicts'),
  },
  { collection: collections.qrelsExports, versionKey: false },
);
// the report's fingerprint includes the last export (src/api/answers.ts)
announceWrites(schema, collections.qrelsExports);

export function qrelsExportModel(connection: Connection): Model<QrelsExportDoc> {
  return (connection.models.QrelsExport as Model<QrelsExportDoc> | undefined) ?? connection.model<QrelsExportDoc>('QrelsExport', schema);
}
