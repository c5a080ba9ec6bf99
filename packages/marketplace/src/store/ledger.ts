import { DomainError } from '../domain/errors.js';
import { balanceOf, usd, type LedgerEntry } from '../domain/money.js';
import { BackgroundWriter, type Writes } from './background-writer.js';
import { insertRefusingStored, isDuplicateKey, type LedgerDoc, type MarketplaceModels } from './models.js';
import { Mutex } from './mutex.js';

/**
 * The account's money. The ledger collection is append-only and is the truth: each
 * movement is one document whose `_id` is its idempotency key (`approval:<AssignmentId>`,
 * `bonus:<token>`, `deposit:<reference>`), inserted once and never changed. The balance is
 * the sum of the entries, computed when the marketplace starts and kept in memory.
 *
 * Crash safety: the insert is the only write, so a crash leaves a movement either wholly
 * done or not done at all; repeating it finds the entry and pays nothing twice. When an
 * effect outside the ledger follows a payment (an approval changes its assignment), that
 * second write is completed from the ledger after a crash (see reconcileApprovals).
 *
 * Covering a debit is checked against the in-memory balance under a lock, which is exact
 * because one process owns the database (see lease.ts).
 *
 * A throwaway marketplace (`background` writes, store/background-writer.ts) posts a
 * movement in memory and inserts it with the next ones: its entries never change, every
 * read but the audit comes from memory, and the audit flushes first. The lock then holds
 * no database round trip, where each approval of a simulation's round waited for the
 * previous one's insert.
 */

function toEntry(doc: LedgerDoc): LedgerEntry {
  const { _id, ...rest } = doc;
  return { key: _id, ...rest };
}

function toDoc(entry: LedgerEntry): LedgerDoc {
  const { key, ...rest } = entry;
  return { _id: key, ...rest };
}

export class Ledger {
  private readonly entries = new Map<string, LedgerEntry>();
  private balance = 0;
  private readonly lock = new Mutex();
  private readonly background: BackgroundWriter | undefined;

  constructor(
    private readonly models: MarketplaceModels,
    writes: Writes = 'each',
  ) {
    if (writes === 'background') this.background = new BackgroundWriter((keys) => this.insertPosted(keys));
  }

  async load(): Promise<number> {
    const docs = await this.models.ledger.find({}).lean<LedgerDoc[]>();
    this.entries.clear();
    for (const d of docs) this.entries.set(d._id, toEntry(d));
    this.balance = balanceOf(this.entries.values());
    return docs.length;
  }

  balanceCents(): number {
    return this.balance;
  }

  get(key: string): LedgerEntry | undefined {
    return this.entries.get(key);
  }

  all(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  /**
   * Records a movement once. A repeat of the same key returns the first entry with
   * `duplicate: true` and moves nothing. With `requireCover`, a debit the balance cannot
   * cover fails with InsufficientFunds and writes nothing.
   */
  async post(entry: LedgerEntry, opts: { requireCover: boolean }): Promise<{ entry: LedgerEntry; duplicate: boolean }> {
    return this.lock.run(async () => {
      const existing = this.entries.get(entry.key);
      if (existing) return { entry: existing, duplicate: true };
      if (opts.requireCover && entry.amountCents < 0 && this.balance + entry.amountCents < 0) {
        throw new DomainError(
          'InsufficientFunds',
          `This Requester has insufficient funds in their account to complete this transaction: it needs $${usd(-entry.amountCents)} and the balance is $${usd(this.balance)}. Deposit funds (qrelay marketplace deposit <amount>) and try again.`,
        );
      }
      const key = entry.key;
      if (this.background) {
        this.background.add(key);
        this.entries.set(key, entry);
        this.balance += entry.amountCents;
        return { entry, duplicate: false };
      }
      try {
        await this.models.ledger.create(toDoc(entry));
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        // written by an earlier attempt whose answer was lost: adopt it
        const doc = await this.models.ledger.findById(key).lean<LedgerDoc>();
        if (doc && !this.entries.has(key)) {
          this.entries.set(key, toEntry(doc));
          this.balance += doc.amountCents;
        }
        return { entry: this.entries.get(key) ?? entry, duplicate: true };
      }
      this.entries.set(key, entry);
      this.balance += entry.amountCents;
      return { entry, duplicate: false };
    });
  }

  /** Every movement posted so far is in the database (`background` writes; a failed write is thrown). */
  async flush(): Promise<void> {
    await this.background?.flush();
  }

  /**
   * The entries posted in memory, inserted together. One stored already is the same entry
   * (a key is posted once, and the entries stored before the start were loaded).
   */
  private async insertPosted(keys: string[]): Promise<void> {
    await insertRefusingStored(
      this.models.ledger,
      keys.map((k) => toDoc(this.entries.get(k)!)),
    );
  }

  /** Recomputes the balance from the stored ledger (an audit: it must equal the working balance). */
  async audit(): Promise<{ storedBalanceCents: number; workingBalanceCents: number; entries: number }> {
    await this.flush();
    const docs = await this.models.ledger.find({}).lean<LedgerDoc[]>();
    return { storedBalanceCents: balanceOf(docs), workingBalanceCents: this.balance, entries: docs.length };
  }
}
