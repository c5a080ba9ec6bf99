import { Schema, type Connection, type Model } from 'mongoose';
import type { HitState } from '../domain/hit.js';
import type { LedgerEntry } from '../domain/money.js';
import type { QualificationTypeState } from '../domain/qualification-types.js';
import type { WorkerProfile } from '../domain/system-qualifications.js';
import type { Locale } from '../domain/types.js';

/**
 * The marketplace's collections, in a database of its own (`<main db>_marketplace`), so
 * qrelay's collections never mix with its state and each test file stays isolated.
 * Every document is found by a meaningful `_id` (the dev database only indexes `_id`);
 * large texts (question XML, answers, tests) live in side collections keyed by `_id`.
 */

export const MARKETPLACE_DB_SUFFIX = '_marketplace';

export type HitDoc = HitState & { _id: string; version: number; uniqueRequestToken?: string };

export interface TextDoc {
  _id: string;
  xml: string;
  hitId?: string;
}

export interface HitTypeDoc {
  _id: string;
  groupId: string;
  props: HitState['props'];
  createdAt: Date;
  notification?: { Destination: string; Transport: string; Version: string; EventTypes: string[] };
  notificationActive: boolean;
}

export interface RequestTokenDoc {
  _id: string;
  /** What the token created (HIT id, ledger key, ...). */
  target: string;
  at: Date;
}

export type QualificationTypeDoc = QualificationTypeState & { _id: string };

export interface QualificationTestDoc {
  _id: string;
  test: string;
  answerKey?: string;
}

export interface NameDoc {
  _id: string;
  target: string;
}

export interface WorkerQualificationDoc {
  _id: string;
  typeId: string;
  workerId: string;
  integerValue?: number;
  localeValue?: Locale;
  status: 'Granted' | 'Revoked';
  grantTime: Date;
}

export interface QualificationRequestDoc {
  _id: string;
  typeId: string;
  workerId: string;
  answer?: string;
  submitTime: Date;
  status: 'Pending' | 'Approved' | 'Rejected';
  reason?: string;
  score?: number;
}

export interface QualificationAttemptDoc {
  _id: string;
  lastRequestAt?: Date;
  /** Retakes of the test under the marketplace's retake policy (domain/retakes.ts). */
  retakesUsed?: number;
  testStartedAt?: Date;
  testDeadline?: Date;
}

export interface WorkerDoc {
  _id: string;
  displayName: string;
  passwordHash?: string;
  profile: WorkerProfile;
  createdAt: Date;
}

export interface BlockDoc {
  _id: string;
  reason: string;
  createdAt: Date;
}

export interface MessageDoc {
  _id: string;
  workerId: string;
  subject: string;
  text: string;
  sentAt: Date;
}

/** A ledger entry as stored: its idempotency key is the document's `_id`. */
export type LedgerDoc = Omit<LedgerEntry, 'key'> & { _id: string };

export interface OutboxDoc {
  _id: string;
  destination: string;
  body: string;
  attempts: number;
  nextAttemptAt: Date;
  state: 'pending' | 'delivered' | 'failed';
  lastError?: string;
  createdAt: Date;
  deliveredAt?: Date;
}

export interface SettingDoc {
  _id: string;
  value: Record<string, unknown>;
}

const opts = { versionKey: false, strict: 'throw', autoIndex: false, autoCreate: false } as const;
const date = { type: Date };

const requirement = new Schema({}, { _id: false, strict: false });
const assignment = new Schema(
  {
    id: String,
    workerId: String,
    status: String,
    acceptTime: Date,
    deadline: Date,
    submitTime: Date,
    autoApprovalTime: Date,
    approvalTime: Date,
    rejectionTime: Date,
    requesterFeedback: String,
  },
  { _id: false, strict: 'throw' },
);
const event = new Schema(
  { key: String, type: String, at: Date, hitId: String, hitTypeId: String, assignmentId: String },
  { _id: false, strict: 'throw' },
);
const props = new Schema(
  {
    title: String,
    description: String,
    keywords: String,
    reward: String,
    rewardCents: Number,
    assignmentDurationSeconds: Number,
    autoApprovalDelaySeconds: Number,
    qualificationRequirements: [requirement],
  },
  { _id: false, strict: 'throw' },
);

const hitSchema = new Schema<HitDoc>(
  {
    _id: String,
    typeId: String,
    groupId: String,
    creationTime: date,
    props,
    maxAssignments: Number,
    expiration: date,
    requesterAnnotation: String,
    reviewing: Boolean,
    disposed: Boolean,
    expiredNoticed: Boolean,
    reviewableNoticed: Boolean,
    nextSeq: Number,
    eventSeq: Number,
    extensionTokens: [new Schema({ token: String, at: Date }, { _id: false, strict: 'throw' })],
    assignments: [assignment],
    pendingEvents: [event],
    version: Number,
    uniqueRequestToken: String,
  },
  opts,
);

const localeSchema = new Schema({ Country: String, Subdivision: String }, { _id: false, strict: 'throw' });

export interface MarketplaceModels {
  hits: Model<HitDoc>;
  questions: Model<TextDoc>;
  answers: Model<TextDoc>;
  hitTypes: Model<HitTypeDoc>;
  requestTokens: Model<RequestTokenDoc>;
  qualificationTypes: Model<QualificationTypeDoc>;
  qualificationTests: Model<QualificationTestDoc>;
  qualificationTypeNames: Model<NameDoc>;
  workerQualifications: Model<WorkerQualificationDoc>;
  qualificationRequests: Model<QualificationRequestDoc>;
  qualificationAttempts: Model<QualificationAttemptDoc>;
  workers: Model<WorkerDoc>;
  workerNames: Model<NameDoc>;
  blocks: Model<BlockDoc>;
  messages: Model<MessageDoc>;
  ledger: Model<LedgerDoc>;
  outbox: Model<OutboxDoc>;
  settings: Model<SettingDoc>;
}

export function model<T>(db: Connection, name: string, schema: Schema<T>): Model<T> {
  return (db.models[name] as Model<T> | undefined) ?? db.model<T>(name, schema, name);
}

/** The marketplace's database next to `connection`'s (same server, name + `_marketplace`). */
export function marketplaceDb(connection: Connection): Connection {
  if (!connection.name) throw new Error('the database connection has no database name');
  return connection.useDb(`${connection.name}${MARKETPLACE_DB_SUFFIX}`, { useCache: true });
}

export function marketplaceModels(db: Connection): MarketplaceModels {
  const text = new Schema<TextDoc>({ _id: String, xml: String, hitId: String }, opts);
  const name = new Schema<NameDoc>({ _id: String, target: String }, opts);
  return {
    hits: model(db, 'hits', hitSchema),
    questions: model(db, 'questions', text),
    answers: model(db, 'answers', text),
    hitTypes: model(
      db,
      'hit_types',
      new Schema<HitTypeDoc>(
        {
          _id: String,
          groupId: String,
          props,
          createdAt: date,
          notification: new Schema(
            { Destination: String, Transport: String, Version: String, EventTypes: [String] },
            { _id: false, strict: 'throw' },
          ),
          notificationActive: Boolean,
        },
        opts,
      ),
    ),
    requestTokens: model(db, 'request_tokens', new Schema<RequestTokenDoc>({ _id: String, target: String, at: date }, opts)),
    qualificationTypes: model(
      db,
      'qualification_types',
      new Schema<QualificationTypeDoc>(
        {
          _id: String,
          id: String,
          name: String,
          description: String,
          keywords: String,
          status: String,
          creationTime: date,
          retryDelaySeconds: Number,
          testDurationSeconds: Number,
          hasTest: Boolean,
          hasAnswerKey: Boolean,
          autoGranted: Boolean,
          autoGrantedValue: Number,
          deleted: Boolean,
          retakePolicy: new Schema({ retakes: Number, delaySeconds: Number }, { _id: false, strict: 'throw' }),
        },
        opts,
      ),
    ),
    qualificationTests: model(
      db,
      'qualification_tests',
      new Schema<QualificationTestDoc>({ _id: String, test: String, answerKey: String }, opts),
    ),
    qualificationTypeNames: model(db, 'qualification_type_names', name),
    workerQualifications: model(
      db,
      'worker_qualifications',
      new Schema<WorkerQualificationDoc>(
        { _id: String, typeId: String, workerId: String, integerValue: Number, localeValue: localeSchema, status: String, grantTime: date },
        opts,
      ),
    ),
    qualificationRequests: model(
      db,
      'qualification_requests',
      new Schema<QualificationRequestDoc>(
        { _id: String, typeId: String, workerId: String, answer: String, submitTime: date, status: String, reason: String, score: Number },
        opts,
      ),
    ),
    qualificationAttempts: model(
      db,
      'qualification_attempts',
      new Schema<QualificationAttemptDoc>(
        { _id: String, lastRequestAt: date, retakesUsed: Number, testStartedAt: date, testDeadline: date },
        opts,
      ),
    ),
    workers: model(
      db,
      'workers',
      new Schema<WorkerDoc>(
        {
          _id: String,
          displayName: String,
          passwordHash: String,
          profile: new Schema(
            {
              locale: localeSchema,
              adult: Boolean,
              masters: Boolean,
              baseline: new Schema({ submitted: Number, approved: Number }, { _id: false, strict: 'throw' }),
            },
            { _id: false, strict: 'throw' },
          ),
          createdAt: date,
        },
        opts,
      ),
    ),
    workerNames: model(db, 'worker_names', name),
    blocks: model(db, 'worker_blocks', new Schema<BlockDoc>({ _id: String, reason: String, createdAt: date }, opts)),
    messages: model(
      db,
      'worker_messages',
      new Schema<MessageDoc>({ _id: String, workerId: String, subject: String, text: String, sentAt: date }, opts),
    ),
    ledger: model(
      db,
      'ledger',
      new Schema<LedgerDoc>(
        {
          _id: String,
          kind: String,
          amountCents: Number,
          rewardCents: Number,
          feeCents: Number,
          at: date,
          hitId: String,
          assignmentId: String,
          workerId: String,
          reason: String,
        },
        opts,
      ),
    ),
    outbox: model(
      db,
      'notification_outbox',
      new Schema<OutboxDoc>(
        {
          _id: String,
          destination: String,
          body: String,
          attempts: Number,
          nextAttemptAt: date,
          state: String,
          lastError: String,
          createdAt: date,
          deliveredAt: date,
        },
        opts,
      ),
    ),
    settings: model(db, 'settings', new Schema<SettingDoc>({ _id: String, value: Schema.Types.Mixed }, { ...opts, strict: false })),
  };
}

export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** What an unordered insert needs: a model, or a driver collection. */
interface Inserting<D> {
  insertMany(docs: D[], options: { ordered: false }): Promise<unknown>;
}

/**
 * Inserts documents unordered and answers the indexes (in `docs`) of those refused because
 * their `_id` is stored already, each left as it is; any other failure is thrown.
 */
export async function insertRefusingStored<D>(into: Inserting<D>, docs: D[]): Promise<Set<number>> {
  const refused = new Set<number>();
  if (docs.length === 0) return refused;
  try {
    await into.insertMany(docs, { ordered: false });
  } catch (err) {
    const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
    const list = (Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : []) as { code?: number; index: number }[];
    if (list.length === 0 || !list.every(isDuplicateKey)) throw err;
    for (const e of list) refused.add(e.index);
  }
  return refused;
}

/**
 * Writes a text (a HIT's question, a submission's answers) that is new but for a retry:
 * inserted, or replaced when its `_id` is stored already. An insert costs the dev database
 * about half of an upsert, which queries first.
 */
export async function insertOrReplaceText(model: Model<TextDoc>, doc: TextDoc): Promise<void> {
  try {
    await model.create(doc);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    await model.replaceOne({ _id: doc._id }, doc);
  }
}

/** `insertOrReplaceText` for many texts: inserted together, and those stored already (retries) replaced one by one. */
export async function insertOrReplaceTexts(model: Model<TextDoc>, docs: TextDoc[]): Promise<void> {
  const refused = await insertRefusingStored(model, docs);
  for (const i of refused) await model.replaceOne({ _id: docs[i]!._id }, docs[i]!);
}
