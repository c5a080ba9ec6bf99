import type { Connection } from 'mongoose';
import { savedClockMs } from '../store/clock-store.js';
import { marketplaceDb, marketplaceModels, type MarketplaceModels, type WorkerDoc } from '../store/models.js';
import { RECORDS_FORMAT, type RequesterRecords } from './schema.js';

/**
 * Reads a requester's records from a marketplace database (the one beside `connection`,
 * as startMarketplace uses it), whether its marketplace is running or closed: the
 * database is the truth (every change is written through before it shows in memory).
 * Password hashes stay behind. `exportedAt` is that marketplace's clock when last saved
 * (a closed marketplace's last time; the real time when it never saved one).
 */
export async function exportRequesterRecords(connection: Connection): Promise<RequesterRecords> {
  return exportRecordsFrom(marketplaceModels(marketplaceDb(connection)));
}

/** The same from a marketplace's models (a running marketplace's, for GET /admin/records). */
export async function exportRecordsFrom(m: MarketplaceModels): Promise<RequesterRecords> {
  const all = <T>(model: { find(filter: object): { lean<R>(): Promise<R> } }) => model.find({}).lean<T[]>();
  const [
    clock,
    qualificationTypes,
    qualificationTests,
    workers,
    workerQualifications,
    qualificationRequests,
    qualificationAttempts,
    blocks,
    messages,
    hitTypes,
    hits,
    questions,
    answers,
    ledger,
    requestTokens,
  ] = await Promise.all([
    savedClockMs(m),
    all<RequesterRecords['qualificationTypes'][number]>(m.qualificationTypes),
    all<RequesterRecords['qualificationTests'][number]>(m.qualificationTests),
    all<WorkerDoc>(m.workers),
    all<RequesterRecords['workerQualifications'][number]>(m.workerQualifications),
    all<RequesterRecords['qualificationRequests'][number]>(m.qualificationRequests),
    all<RequesterRecords['qualificationAttempts'][number]>(m.qualificationAttempts),
    all<RequesterRecords['blocks'][number]>(m.blocks),
    all<RequesterRecords['messages'][number]>(m.messages),
    all<RequesterRecords['hitTypes'][number]>(m.hitTypes),
    all<RequesterRecords['hits'][number]>(m.hits),
    all<RequesterRecords['questions'][number]>(m.questions),
    all<RequesterRecords['answers'][number]>(m.answers),
    all<RequesterRecords['ledger'][number]>(m.ledger),
    all<RequesterRecords['requestTokens'][number]>(m.requestTokens),
  ]);
  const byId = <T extends { _id: string }>(docs: T[]) => docs.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return {
    format: RECORDS_FORMAT,
    exportedAt: new Date(clock ?? Date.now()),
    qualificationTypes: byId(qualificationTypes),
    qualificationTests: byId(qualificationTests),
    workers: byId(workers.map(({ passwordHash: _hash, ...w }) => w)),
    workerQualifications: byId(workerQualifications),
    qualificationRequests: byId(qualificationRequests),
    qualificationAttempts: byId(qualificationAttempts),
    blocks: byId(blocks),
    messages: byId(messages),
    hitTypes: byId(hitTypes),
    hits: byId(hits),
    questions: byId(questions),
    answers: byId(answers),
    ledger: byId(ledger),
    requestTokens: byId(requestTokens),
  };
}
