import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Model } from 'mongoose';
import { MarketplaceUserError } from '../errors.js';
import { isDuplicateKey, type SettingDoc } from './models.js';

/**
 * One marketplace process per database. The marketplace keeps its HITs, ledger and
 * outbox in memory (the dev database can only look documents up by `_id` quickly) and
 * writes every change through to the database; that is only correct when it is the sole
 * writer. The lease enforces it: a second process on the same database refuses to start,
 * and a lease whose heartbeat stopped (a crashed process) is taken over.
 */

const LEASE_ID = 'lease';

type LeaseValue = {
  owner: string;
  heartbeatAt: number;
};

/** A holder on this machine whose process is gone (killed, crashed) needs no waiting for. */
function deadOnThisHost(owner: string): boolean {
  const [host, pid] = owner.split(':');
  if (host !== hostname() || !pid || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class Lease {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly settings: Model<SettingDoc>,
    readonly owner: string,
    private readonly onLost: () => void,
  ) {}

  static async acquire(settings: Model<SettingDoc>, opts: { dbName: string; staleMs?: number; onLost?: () => void }): Promise<Lease> {
    const staleMs = opts.staleMs ?? 30_000;
    const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    const value = (): LeaseValue => ({ owner, heartbeatAt: Date.now() });
    try {
      await settings.create({ _id: LEASE_ID, value: value() });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const existing = await settings.findById(LEASE_ID).lean();
      const held = existing?.value as LeaseValue | undefined;
      const age = held ? Date.now() - held.heartbeatAt : Infinity;
      if (held && age < staleMs && !deadOnThisHost(held.owner)) {
        throw new MarketplaceUserError(
          `another marketplace process (${held.owner}) is serving the database ${opts.dbName} (its heartbeat is ${Math.round(age / 1000)} s old): stop it, or give this one another database; a claim whose heartbeat stops is taken over after ${staleMs / 1000} s`,
        );
      }
      const taken = await settings.findOneAndUpdate(
        { _id: LEASE_ID, 'value.owner': held?.owner, 'value.heartbeatAt': held?.heartbeatAt },
        { $set: { value: value() } },
      );
      if (!taken)
        throw new MarketplaceUserError(`another marketplace process claimed the database ${opts.dbName} at the same moment; try again`);
    }
    const lease = new Lease(settings, owner, opts.onLost ?? (() => {}));
    lease.timer = setInterval(() => void lease.beat(), Math.max(1000, staleMs / 3));
    lease.timer.unref();
    return lease;
  }

  private async beat(): Promise<void> {
    try {
      const r = await this.settings.updateOne({ _id: LEASE_ID, 'value.owner': this.owner }, { $set: { 'value.heartbeatAt': Date.now() } });
      if (r.matchedCount === 0) this.onLost();
    } catch {
      // a transient database error: the next beat retries
    }
  }

  async release(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.settings.deleteOne({ _id: LEASE_ID, 'value.owner': this.owner });
  }
}
