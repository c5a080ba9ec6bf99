import type { AnyBulkWriteOperation, Collection } from 'mongodb';
import type { ImportCounts, RecordDoc } from '../db/models/index.js';
import type { IngestKind } from '../ingest/index.js';
import { BULK_SLICE, bulkWriteSliced, insertRefusingStored } from './bulk.js';
import type { PipelineContext } from './context.js';
import { recordModel } from './records.js';

/** Documents under our string `_id`s, as the driver's generic collections see them. */
interface StringIdDoc {
  _id: string;
  [field: string]: unknown;
}

type NewRecord = RecordDoc & StringIdDoc;

interface Pending {
  doc: NewRecord;
  record: unknown;
}

/**
 * The writes of one import, chunk by chunk: new records inserted (texts first), records
 * already stored given the import's id, an unfinished import's other version replaced.
 * `undo` deletes what this import inserted (a file found bad after its first chunks).
 */
export class ImportWriter {
  private inserts: Pending[] = [];
  private replaces: Pending[] = [];
  private existingIds: string[] = [];
  private readonly inserted: string[] = [];
  private begun = false;

  constructor(
    private readonly ctx: PipelineContext,
    private readonly kind: IngestKind,
    private readonly importId: string,
    private readonly begin: () => Promise<void>,
  ) {}

  get pending(): number {
    return this.inserts.length + this.replaces.length + this.existingIds.length;
  }

  insert(doc: NewRecord, record: unknown): void {
    this.inserts.push({ doc, record });
  }

  replace(doc: NewRecord, record: unknown): void {
    this.replaces.push({ doc, record });
  }

  existing(id: string): void {
    this.existingIds.push(id);
  }

  private texts(): Collection<StringIdDoc> | null {
    const { itemTexts, goldTexts } = this.ctx.models;
    return this.kind === 'escalations'
      ? (itemTexts.collection as unknown as Collection<StringIdDoc>)
      : this.kind === 'gold'
        ? (goldTexts.collection as unknown as Collection<StringIdDoc>)
        : null;
  }

  async flush(counts: ImportCounts): Promise<void> {
    if (this.pending === 0) return;
    // taken before the first await: the caller fills the next chunk meanwhile
    const [inserts, replaces, existingIds] = [this.inserts, this.replaces, this.existingIds];
    this.inserts = [];
    this.replaces = [];
    this.existingIds = [];
    if (!this.begun) {
      this.begun = true;
      await this.begin();
    }
    const records = recordModel(this.ctx, this.kind);
    const recordCollection = records.collection as unknown as Collection<StringIdDoc>;
    if (replaces.length > 0) await records.deleteMany({ _id: { $in: replaces.map((r) => r.doc._id) } });

    // texts first: a record is never visible without its text
    const texts = this.texts();
    if (texts) {
      const taken = await insertRefusingStored(
        texts,
        inserts.map(({ doc, record }) => ({ _id: doc._id, record })),
      );
      const rewrite = [...inserts.filter((p) => taken.has(p.doc._id)), ...replaces];
      for (let i = 0; i < rewrite.length; i += BULK_SLICE) {
        const ops: AnyBulkWriteOperation<StringIdDoc>[] = rewrite
          .slice(i, i + BULK_SLICE)
          .map(({ doc, record }) => ({ updateOne: { filter: { _id: doc._id }, update: { $set: { record } }, upsert: true } }));
        await texts.bulkWrite(ops, { ordered: false });
      }
    }

    const fresh = [...inserts, ...replaces].map((p) => p.doc);
    const taken = await insertRefusingStored(recordCollection, fresh);
    for (const d of fresh) if (!taken.has(d._id)) this.inserted.push(d._id);
    counts.inserted += fresh.length - taken.size;
    // stored already (before this import, or by a concurrent one): only this import's id is added
    const known = [...existingIds, ...fresh.filter((d) => taken.has(d._id)).map((d) => d._id)];
    if (known.length > 0) {
      const result = await bulkWriteSliced(
        records,
        known.map((_id) => ({ updateOne: { filter: { _id }, update: { $addToSet: { imports: this.importId } } } })),
      );
      counts.existing += result.matched;
    }
  }

  /** Deletes the records and texts this import inserted, and its import record. */
  async undo(): Promise<void> {
    this.inserts = [];
    this.replaces = [];
    this.existingIds = [];
    const records = recordModel(this.ctx, this.kind);
    const texts = this.texts();
    for (let i = 0; i < this.inserted.length; i += 500) {
      const ids = this.inserted.slice(i, i + 500);
      await records.deleteMany({ _id: { $in: ids } });
      if (texts) await texts.deleteMany({ _id: { $in: ids } });
    }
    await this.ctx.models.imports.deleteOne({ _id: this.importId });
  }
}
