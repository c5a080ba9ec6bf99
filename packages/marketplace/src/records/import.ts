import type { Model } from 'mongoose';
import type { Marketplace } from '../core.js';
import { DomainError } from '../domain/errors.js';
import { usd } from '../domain/money.js';
import type { HitTypeProps } from '../domain/hit.js';
import { nameKey } from '../ops/qualifications.js';
import { workerQualificationId } from '../services/access.js';
import { hitTypeIdsOf } from '../services/hits.js';
import { insertRefusingStored, type QualificationTypeDoc } from '../store/models.js';
import type { RequesterRecords } from './schema.js';

/**
 * Takes a requester's records made on another marketplace (records/export.ts) into this
 * one, so that their HITs, assignments, workers, qualifications, blocks and payments are
 * served here as if they had been made here.
 *
 * - Records already here (same `_id`) are left as they are; only missing ones are added.
 *   So a second import of the same records changes nothing, and an import cut short (a
 *   crash) completes when it is run again.
 * - Checked before anything is written: a worker whose display name another worker here
 *   holds, and payments the account's balance cannot cover, refuse the whole import.
 * - A qualification type whose name a type here already has (names are unique per
 *   requester) is merged into that type: its id is replaced by the one here in every
 *   record, and the HIT types that require it get the ids their properties give here.
 * - Payments (approvals and bonuses) are debited from this account; deposits are the other
 *   account's own and are not carried. Pending notifications of the HITs are not either
 *   (their events happened there).
 * Writes follow the marketplace's own order (a payment before the approval that shows it,
 * an answer before its submitted assignment), so a partial import is consistent.
 */

export type RecordCollection = Exclude<keyof RequesterRecords, 'format' | 'exportedAt'>;

export interface ImportSummary {
  /** Records added, per collection. */
  added: Partial<Record<RecordCollection, number>>;
  /** Records that were here already (left as they are), per collection. */
  present: Partial<Record<RecordCollection, number>>;
  /** Qualification type ids replaced by those of same-named types here (source id -> id here). */
  qualificationTypeIds: Record<string, string>;
  /** HIT type ids that changed with them (source id -> id here). */
  hitTypeIds: Record<string, string>;
  /** Deposit entries not carried. */
  depositsLeftOut: number;
}

type Keyed = { _id: string };

/** The `_id`s of `ids` that `model` holds (looked up in slices). */
async function existingIds(model: Model<Keyed>, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const docs = await model.find({ _id: { $in: ids.slice(i, i + 500) } }, { _id: 1 }).lean<Keyed[]>();
    for (const d of docs) found.add(d._id);
  }
  return found;
}

export async function importRequesterRecords(mp: Marketplace, records: RequesterRecords): Promise<ImportSummary> {
  // the import reads what the database holds and writes there directly: changes held for a background write go first
  await mp.flush();
  try {
    return await importRecords(mp, records);
  } finally {
    // workers, blocks and qualifications were written directly: what the cache holds may be out of date
    mp.workerRecords.forgetAll();
  }
}

async function importRecords(mp: Marketplace, records: RequesterRecords): Promise<ImportSummary> {
  const m = mp.models;
  const summary: ImportSummary = { added: {}, present: {}, qualificationTypeIds: {}, hitTypeIds: {}, depositsLeftOut: 0 };
  const count = (what: RecordCollection, added: boolean) => {
    const bucket = added ? summary.added : summary.present;
    bucket[what] = (bucket[what] ?? 0) + 1;
  };

  // --- the plan: read only ---
  const newTypes: QualificationTypeDoc[] = [];
  for (const t of records.qualificationTypes) {
    if (mp.types.qualificationTypes.has(t._id)) {
      count('qualificationTypes', false);
      continue;
    }
    const holder = await m.qualificationTypeNames.findById(nameKey(t.name)).lean();
    const same = holder ? mp.types.qualificationTypes.get(holder.target) : undefined;
    if (same && !same.deleted) {
      summary.qualificationTypeIds[t._id] = same.id;
      count('qualificationTypes', false);
    } else newTypes.push(t);
  }
  const typeId = (id: string) => summary.qualificationTypeIds[id] ?? id;
  const retyped = (props: HitTypeProps): HitTypeProps => ({
    ...props,
    qualificationRequirements: props.qualificationRequirements.map((r) => ({ ...r, QualificationTypeId: typeId(r.QualificationTypeId) })),
  });
  const hitTypeOf = (id: string, props: HitTypeProps) => {
    const changed = props.qualificationRequirements.some((r) => typeId(r.QualificationTypeId) !== r.QualificationTypeId);
    if (!changed) return undefined;
    const ids = hitTypeIdsOf(retyped(props));
    summary.hitTypeIds[id] = ids.id;
    return ids;
  };
  const hitTypes = records.hitTypes.map((t) => {
    const ids = hitTypeOf(t._id, t.props);
    return ids ? { ...t, _id: ids.id, groupId: ids.groupId, props: retyped(t.props) } : t;
  });
  for (const h of records.hits) hitTypeOf(h.typeId, h.props);

  const presentWorkers = await existingIds(
    m.workers as unknown as Model<Keyed>,
    records.workers.map((w) => w._id),
  );
  const taken: string[] = [];
  for (const w of records.workers) {
    if (presentWorkers.has(w._id)) continue;
    const holder = await m.workerNames.findById(w.displayName.trim().toLowerCase()).lean();
    if (holder && holder.target !== w._id && (await m.workers.exists({ _id: holder.target }))) taken.push(`${w.displayName} (${w._id})`);
  }
  if (taken.length > 0)
    throw new DomainError(
      'WorkerNameTaken',
      `workers: ${taken.length} display name${taken.length === 1 ? ' is' : 's are'} held by other workers here: ${taken.slice(0, 5).join(', ')}${taken.length > 5 ? ', ...' : ''}; rename them at the source, then import again`,
    );

  const payments = records.ledger.filter((e) => e.kind !== 'deposit');
  summary.depositsLeftOut = records.ledger.length - payments.length;
  const owed = payments.filter((e) => !mp.ledger.get(e._id)).reduce((sum, e) => sum + e.amountCents, 0);
  if (mp.ledger.balanceCents() + owed < 0)
    throw new DomainError(
      'InsufficientFunds',
      `ledger: the imported payments need $${usd(-owed)} and the balance is $${usd(mp.ledger.balanceCents())}; deposit funds (POST /admin/deposits) and import again`,
    );

  // --- the writes, each record once ---
  const insertMissing = async <T extends Keyed>(what: RecordCollection, model: Model<T>, docs: readonly T[]) => {
    const here = await existingIds(
      model as unknown as Model<Keyed>,
      docs.map((d) => d._id),
    );
    const missing = docs.filter((d) => !here.has(d._id));
    for (const d of docs) if (here.has(d._id)) count(what, false);
    // an earlier attempt may have written some of them: those are refused as duplicates, anything else throws
    for (let i = 0; i < missing.length; i += 50) await insertRefusingStored(model, missing.slice(i, i + 50));
    for (let i = 0; i < missing.length; i++) count(what, true);
  };

  for (const t of newTypes) {
    const test = records.qualificationTests.find((x) => x._id === t._id);
    if (test) await m.qualificationTests.replaceOne({ _id: t._id }, test, { upsert: true });
    await m.qualificationTypeNames.replaceOne({ _id: nameKey(t.name) }, { _id: nameKey(t.name), target: t._id }, { upsert: true });
    const { _id, ...state } = t;
    await mp.types.saveQualificationType({ ...state, id: _id });
    count('qualificationTypes', true);
  }

  for (const w of records.workers) {
    if (presentWorkers.has(w._id)) {
      count('workers', false);
      continue;
    }
    const key = w.displayName.trim().toLowerCase();
    await m.workerNames.replaceOne({ _id: key }, { _id: key, target: w._id }, { upsert: true });
  }
  await insertMissing(
    'workers',
    m.workers,
    records.workers.filter((w) => !presentWorkers.has(w._id)),
  );

  await insertMissing(
    'workerQualifications',
    m.workerQualifications,
    records.workerQualifications.map((q) => ({ ...q, typeId: typeId(q.typeId), _id: workerQualificationId(typeId(q.typeId), q.workerId) })),
  );
  await insertMissing(
    'qualificationRequests',
    m.qualificationRequests,
    records.qualificationRequests.map((q) => ({ ...q, typeId: typeId(q.typeId) })),
  );
  await insertMissing(
    'qualificationAttempts',
    m.qualificationAttempts,
    records.qualificationAttempts.map((a) => {
      const at = a._id.indexOf(':');
      return at < 0 ? a : { ...a, _id: `${typeId(a._id.slice(0, at))}${a._id.slice(at)}` };
    }),
  );
  await insertMissing('blocks', m.blocks, records.blocks);
  await insertMissing('messages', m.messages, records.messages);

  for (const t of hitTypes) {
    if (mp.types.hitTypes.has(t._id)) count('hitTypes', false);
    else {
      await mp.types.saveHitType(t);
      count('hitTypes', true);
    }
  }
  await insertMissing('questions', m.questions, records.questions);
  await insertMissing('answers', m.answers, records.answers);

  for (const e of payments) {
    const { _id, ...rest } = e;
    const { duplicate } = await mp.ledger.post({ key: _id, ...rest }, { requireCover: false });
    count('ledger', !duplicate);
  }

  for (const h of records.hits) {
    const ids = summary.hitTypeIds[h.typeId] ? hitTypeIdsOf(retyped(h.props)) : undefined;
    const doc = {
      ...h,
      ...(ids && { typeId: ids.id, groupId: ids.groupId, props: retyped(h.props) }),
      pendingEvents: [],
      version: 1,
    };
    const added = await mp.hitLocks.run(h._id, () => mp.hits.adopt(doc));
    count('hits', added);
  }
  await insertMissing('requestTokens', m.requestTokens, records.requestTokens);
  return summary;
}
