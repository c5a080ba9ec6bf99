import { createHash } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { collections } from '../db/collections.js';
import { model } from '../db/models/index.js';
import { SESSION_TTL_MS, type Session } from './session.js';
import { required } from '../db/fields.js';

/**
 * The console's sessions held on the server. The signed cookie alone proves who made a
 * session, but a copy of it would stay good until it expires; so every session is also
 * recorded here (under a hash of its nonce), a cookie counts only while its record is
 * there, and logging out deletes the record: a copied cookie, and the CSRF token derived
 * from it, are refused from then on, in every process that serves the console.
 */

interface ConsoleSessionDoc {
  /** sha256 of the session's nonce: the database never holds what the cookie holds. */
  _id: string;
  issuedAt: Date;
  expiresAt: Date;
}

const schema = new Schema<ConsoleSessionDoc>(
  {
    _id: { type: String, required: true },
    ...required(Date, 'issuedAt', 'expiresAt'),
  },
  { collection: collections.consoleSessions, versionKey: false },
);

const keyOf = (s: Session) => createHash('sha256').update(s.nonce).digest('hex');

export class ConsoleSessions {
  private model: Model<ConsoleSessionDoc> | undefined;

  // the model is made on first use: an app may be created before its connection is usable
  constructor(private readonly connection: Connection) {}

  private get docs(): Model<ConsoleSessionDoc> {
    return (this.model ??= model(this.connection, 'ConsoleSession', schema));
  }

  /** Records a new session (and forgets the expired ones, so the collection stays small). */
  async begin(s: Session): Promise<void> {
    const now = new Date(s.issuedMs);
    await this.docs.deleteMany({ expiresAt: { $lt: now } });
    await this.docs.create({ _id: keyOf(s), issuedAt: now, expiresAt: new Date(s.issuedMs + SESSION_TTL_MS) });
  }

  /** Whether a session whose cookie verified is still open (not logged out, not expired). */
  async isOpen(s: Session, nowMs: number): Promise<boolean> {
    const doc = await this.docs.findById(keyOf(s), { expiresAt: 1 }).lean<Pick<ConsoleSessionDoc, 'expiresAt'>>();
    return doc !== null && doc.expiresAt.getTime() > nowMs;
  }

  async end(s: Session): Promise<void> {
    await this.docs.deleteOne({ _id: keyOf(s) });
  }
}
