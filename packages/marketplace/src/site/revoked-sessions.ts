import { Schema, type Model } from 'mongoose';
import type { Marketplace } from '../core.js';
import { isDuplicateKey, model } from '../store/models.js';

/**
 * Sessions ended on the server: logging out (or logging in over a logged-in session) puts
 * the session's id here until the cookie would have expired, so a copy of the cookie stops
 * working at once. Kept in the marketplace database (a restart does not bring a session
 * back) and in memory (every request checks it); loaded at the first request, expired ids
 * dropped then and whenever one is added.
 */

interface RevokedSessionDoc {
  _id: string;
  expiresAt: Date;
}

const schema = new Schema<RevokedSessionDoc>(
  { _id: String, expiresAt: { type: Date } },
  { versionKey: false, strict: 'throw', autoIndex: false, autoCreate: false },
);

export class RevokedSessions {
  private readonly ids = new Map<string, number>();
  private loading: Promise<void> | undefined;
  private readonly store: Model<RevokedSessionDoc>;

  constructor(mp: Marketplace) {
    this.store = model(mp.models.settings.db, 'worker_sessions_revoked', schema);
  }

  /** Loads the revoked ids once (the dev database scans for any filter: one read of all). */
  ready(): Promise<void> {
    this.loading ??= (async () => {
      const now = Date.now();
      const docs = await this.store.find({}).lean();
      for (const d of docs) if (d.expiresAt.getTime() > now) this.ids.set(d._id, d.expiresAt.getTime());
      const expired = docs.filter((d) => d.expiresAt.getTime() <= now).map((d) => d._id);
      if (expired.length > 0) await this.store.deleteMany({ _id: { $in: expired } });
    })();
    this.loading.catch(() => (this.loading = undefined)); // a failed load is tried again by the next request
    return this.loading;
  }

  has(sid: string): boolean {
    return this.ids.has(sid);
  }

  /** Written to the database before the logout answers: a crash never brings the session back. */
  async revoke(sid: string, expiresMs: number): Promise<void> {
    await this.ready();
    try {
      await this.store.create({ _id: sid, expiresAt: new Date(expiresMs) });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    this.ids.set(sid, expiresMs);
    const now = Date.now();
    const expired = [...this.ids].filter(([, at]) => at <= now).map(([id]) => id);
    for (const id of expired) this.ids.delete(id);
    if (expired.length > 0) await this.store.deleteMany({ _id: { $in: expired } });
  }
}
