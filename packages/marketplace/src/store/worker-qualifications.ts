import { HeldDocuments, type Writes } from './background-writer.js';
import type { MarketplaceModels, WorkerQualificationDoc } from './models.js';

/**
 * Workers' records of custom qualification types (granted with a value, or revoked), by
 * `workerQualificationId(type, worker)`: every operation reads and writes them through here
 * (the records export, read after a flush or a close, and the import, which flushes first,
 * work on the collection itself).
 *
 * With `background` writes (store/background-writer.ts) a record is kept in memory at once
 * and written with the next ones in one bulk write; until then a read by id is answered from
 * memory, and a listing (a worker's qualifications, a type's workers) writes them first. A
 * requester who sets the values of a few dozen workers every round (qrelay's reputation) then
 * waits for no write per value (812 values in a 4,056-case `qrelay simulate`).
 */
export class WorkerQualifications {
  /** `background` writes: records stored and not written yet. */
  private readonly unwritten: HeldDocuments<WorkerQualificationDoc> | undefined;

  constructor(
    private readonly models: MarketplaceModels,
    writes: Writes = 'each',
  ) {
    if (writes === 'background') this.unwritten = new HeldDocuments((docs) => this.writeUnwritten(docs));
  }

  /** Stores the record as it is now (a new one, or one that replaces the worker's record of that type). */
  async write(doc: WorkerQualificationDoc): Promise<void> {
    if (this.unwritten) this.unwritten.add(doc);
    else await this.models.workerQualifications.replaceOne({ _id: doc._id }, doc, { upsert: true });
  }

  async byId(id: string): Promise<WorkerQualificationDoc | null> {
    return this.unwritten?.get(id) ?? (await this.models.workerQualifications.findById(id).lean<WorkerQualificationDoc>());
  }

  /** The records of a worker, or of a type (of one status), in `_id` order. */
  async find(
    filter: { workerId: string } | { typeId: string; status?: WorkerQualificationDoc['status'] },
  ): Promise<WorkerQualificationDoc[]> {
    await this.flush();
    return this.models.workerQualifications.find(filter).sort({ _id: 1 }).lean<WorkerQualificationDoc[]>();
  }

  /** Every record stored so far is in the database (a failed background write is thrown). */
  async flush(): Promise<void> {
    await this.unwritten?.flush();
  }

  private async writeUnwritten(docs: WorkerQualificationDoc[]): Promise<void> {
    await this.models.workerQualifications.bulkWrite(
      docs.map((d) => ({ replaceOne: { filter: { _id: d._id }, replacement: d, upsert: true } })),
      { ordered: false },
    );
  }
}
