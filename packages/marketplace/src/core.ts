import type { Connection } from 'mongoose';
import type { Logger } from './log.js';
import type { Clock } from './clock.js';
import { hashId } from './ids.js';
import { TypeCaches } from './store/caches.js';
import { loadClock, saveClock } from './store/clock-store.js';
import type { Writes } from './store/background-writer.js';
import { AnswerStore } from './store/answers.js';
import { HitRepository } from './store/hits.js';
import { Lease } from './store/lease.js';
import { Ledger } from './store/ledger.js';
import { marketplaceDb, marketplaceModels, type MarketplaceModels } from './store/models.js';
import { KeyedMutex } from './store/mutex.js';
import { WorkerQualifications } from './store/worker-qualifications.js';
import { WorkerRecords } from './store/worker-records.js';
import { Outbox } from './store/outbox.js';
import { QuestionStore } from './store/questions.js';

/** Everything the operations, the worker functions and the background loops share. */
export interface MarketplaceSettings {
  accessKeyId: string;
  secretAccessKey: string;
  initialBalanceCents: number;
  /** Notification delivery: first retry after `retryBaseMs`, doubling up to `retryCapMs`, `maxAttempts` in all. */
  delivery: { retryBaseMs: number; retryCapMs: number; maxAttempts: number; timeoutMs: number };
  /** Allowed difference between a request's signing time and the real time. */
  maxClockSkewMs: number;
  /** The region requests must be signed for. */
  region: string;
  /**
   * A private simulated marketplace (`qrelay simulate`): HIT ids derived from this seed,
   * the marketplace clock and the request token instead of the real time and random bytes,
   * so that the same simulation lists its HITs in the same order every time.
   */
  idSeed?: string;
}

/** MTurk's only region: its clients sign for it whatever endpoint they call. */
export const MARKETPLACE_REGION = 'us-east-1';

export const DEFAULT_DELIVERY = { retryBaseMs: 1000, retryCapMs: 10 * 60_000, maxAttempts: 15, timeoutMs: 10_000 };

export interface Marketplace {
  settings: MarketplaceSettings;
  logger: Logger;
  clock: Clock;
  models: MarketplaceModels;
  hits: HitRepository;
  /** HITs' questions by HIT id. */
  questions: QuestionStore;
  /** Submitted answers by assignment id. */
  answers: AnswerStore;
  ledger: Ledger;
  outbox: Outbox;
  types: TypeCaches;
  /** Workers' records of custom qualification types: every operation's reads and writes of them. */
  workerQualifications: WorkerQualifications;
  /** Workers' accounts, blocks and custom qualifications, read through a cache (every write calls its `forget`). */
  workerRecords: WorkerRecords;
  /** One HIT changes at a time (its slot claims, reviews and events are one document). */
  hitLocks: KeyedMutex;
  /** One worker's qualification requests at a time. */
  workerLocks: KeyedMutex;
  /** The requester's customer id (notifications' CustomerId). */
  customerId: string;
  dbName: string;
  /** Every change made so far is in the database (`background` writes; a failed write is thrown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  connection: Connection;
  settings: MarketplaceSettings;
  logger: Logger;
  /** Simulated milliseconds per real millisecond; unset keeps the saved clock's speed. */
  clockSpeed?: number;
  /** How HIT changes and submitted answers reach the database (store/background-writer.ts); default `each`. */
  writes?: Writes;
}

/** Claims the marketplace database, loads its working state and makes the initial deposit once. */
export async function openMarketplace(opts: OpenOptions): Promise<Marketplace> {
  const db = marketplaceDb(opts.connection);
  const models = marketplaceModels(db);
  const started = Date.now();
  const lease = await Lease.acquire(models.settings, {
    dbName: db.name,
    onLost: () => opts.logger.error({ database: db.name }, 'the marketplace lost its database lease: another process took it over'),
  });
  try {
    const clock = await loadClock(models, opts.clockSpeed);
    const writes = opts.writes ?? 'each';
    const hits = new HitRepository(models, writes);
    const questions = new QuestionStore(models, writes);
    const answers = new AnswerStore(models, writes);
    const ledger = new Ledger(models, writes);
    const workerQualifications = new WorkerQualifications(models, writes);
    const outbox = new Outbox(models);
    const types = new TypeCaches(models);
    const [hitCount, entryCount, pending] = await Promise.all([hits.load(), ledger.load(), outbox.load(), types.load()]);
    const marketplace: Marketplace = {
      settings: opts.settings,
      logger: opts.logger,
      clock,
      models,
      hits,
      questions,
      answers,
      ledger,
      outbox,
      types,
      workerQualifications,
      workerRecords: new WorkerRecords(models, workerQualifications),
      hitLocks: new KeyedMutex(),
      workerLocks: new KeyedMutex(),
      customerId: `A${hashId(`requester:${opts.settings.accessKeyId}`, 13)}`,
      dbName: db.name,
      async flush() {
        // a HIT's question before the HIT, as `each` writes them
        await questions.flush();
        await hits.flush();
        await answers.flush();
        await ledger.flush();
        await workerQualifications.flush();
      },
      async close() {
        await marketplace
          .flush()
          .catch((err: unknown) => opts.logger.error({ err, database: db.name }, 'changes written in the background were lost'));
        await saveClock(models, clock).catch(() => undefined);
        await lease.release();
      },
    };
    await ledger.post(
      {
        key: 'deposit:initial',
        kind: 'deposit',
        amountCents: opts.settings.initialBalanceCents,
        rewardCents: 0,
        feeCents: 0,
        at: clock.now(),
        reason: 'initial balance',
      },
      { requireCover: false },
    );
    opts.logger.info(
      { database: db.name, hits: hitCount, ledgerEntries: entryCount, pendingNotifications: pending, loadMs: Date.now() - started },
      'marketplace state loaded',
    );
    return marketplace;
  } catch (err) {
    await lease.release().catch(() => undefined);
    throw err;
  }
}
