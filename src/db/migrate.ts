import { readdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Db } from 'mongodb';
import { UserError, errorMessage } from '../errors.js';

/**
 * Ordered, idempotent migrations: `migrations/NNNN-name.ts`, each exporting
 * `description` and `up(db)`. Applied ones are recorded in the `migrations` collection.
 *
 * Two processes may run this at once (two `serve`s starting together). Each migration is
 * claimed by inserting its record with status `applying`; the unique `_id` lets exactly
 * one process win, the others wait until it is `applied`. A claim whose heartbeat stops
 * (the process died) is taken over after `staleAfterMs`; migrations are written to be
 * safe to re-run, so a half-done one is simply run again.
 */

export interface Migration {
  id: string;
  description: string;
  up(db: Db): Promise<void>;
}

interface MigrationRecord {
  _id: string;
  status: 'applying' | 'applied';
  description: string;
  owner: string;
  heartbeatAt: Date;
  appliedAt?: Date;
}

const FILE_PATTERN = /^(\d{4}-[a-z0-9-]+)\.(ts|js)$/;

export async function loadMigrations(dir: string): Promise<Migration[]> {
  const files = readdirSync(dir)
    .filter((f) => FILE_PATTERN.test(f) && !f.endsWith('.d.ts'))
    .sort();
  const seen = new Set<string>();
  const migrations: Migration[] = [];
  for (const file of files) {
    const id = FILE_PATTERN.exec(file)![1]!;
    if (seen.has(id)) continue;
    seen.add(id);
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as Partial<Migration>;
    if (typeof mod.up !== 'function' || typeof mod.description !== 'string') {
      throw new UserError(`migration ${join(dir, file)} must export a string 'description' and a function 'up(db)'`);
    }
    migrations.push({ id, description: mod.description, up: mod.up.bind(mod) });
  }
  return migrations;
}

export interface MigrateOptions {
  owner?: string;
  staleAfterMs?: number;
  pollMs?: number;
  waitTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface MigrateResult {
  applied: string[];
  skipped: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

export async function runMigrations(db: Db, migrations: Migration[], opts: MigrateOptions = {}): Promise<MigrateResult> {
  const owner = opts.owner ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const staleAfterMs = opts.staleAfterMs ?? 60_000;
  const pollMs = opts.pollMs ?? 100;
  const waitTimeoutMs = opts.waitTimeoutMs ?? 10 * 60_000;
  const log = opts.log ?? (() => {});
  const records = db.collection<MigrationRecord>('migrations');
  const result: MigrateResult = { applied: [], skipped: [] };

  for (const migration of migrations) {
    const started = Date.now();
    for (;;) {
      const claimed = await claim(migration);
      if (claimed === 'applied-elsewhere') {
        result.skipped.push(migration.id);
        break;
      }
      if (claimed === 'ours') {
        await apply(migration);
        result.applied.push(migration.id);
        break;
      }
      if (Date.now() - started > waitTimeoutMs) {
        throw new UserError(`migration ${migration.id} is held by another process for too long; check the 'migrations' collection`);
      }
      await sleep(pollMs);
    }
  }
  return result;

  async function claim(migration: Migration): Promise<'ours' | 'applied-elsewhere' | 'busy'> {
    const now = new Date();
    try {
      await records.insertOne({
        _id: migration.id,
        status: 'applying',
        description: migration.description,
        owner,
        heartbeatAt: now,
      });
      return 'ours';
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const existing = await records.findOne({ _id: migration.id });
    if (!existing) return 'busy';
    if (existing.status === 'applied') return 'applied-elsewhere';
    if (now.getTime() - existing.heartbeatAt.getTime() < staleAfterMs) return 'busy';
    const taken = await records.findOneAndUpdate(
      { _id: migration.id, status: 'applying', owner: existing.owner, heartbeatAt: existing.heartbeatAt },
      { $set: { owner, heartbeatAt: now } },
      { returnDocument: 'after' },
    );
    if (taken) log(`taking over migration ${migration.id} from ${existing.owner}, whose claim went stale`);
    return taken ? 'ours' : 'busy';
  }

  async function apply(migration: Migration): Promise<void> {
    log(`applying migration ${migration.id}: ${migration.description}`);
    const heartbeat = setInterval(
      () => {
        void records.updateOne({ _id: migration.id, owner }, { $set: { heartbeatAt: new Date() } }).catch(() => undefined);
      },
      Math.max(1000, staleAfterMs / 4),
    );
    try {
      await migration.up(db);
    } catch (err) {
      await records.deleteOne({ _id: migration.id, owner, status: 'applying' }).catch(() => undefined);
      throw new UserError(`migration ${migration.id} failed: ${errorMessage(err)}`, { cause: err });
    } finally {
      clearInterval(heartbeat);
    }
    await records.updateOne({ _id: migration.id, owner }, { $set: { status: 'applied', appliedAt: new Date(), heartbeatAt: new Date() } });
  }
}
