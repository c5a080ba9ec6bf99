import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { connectMongoose } from '../../src/db/connection.js';
import { isListening, startDevdb } from '../../src/db/devdb.js';

async function freeAddress(): Promise<string> {
  for (let port = 27_400 + Math.floor(Math.random() * 500); ; port++)
    if (!(await isListening('127.0.0.1', port))) return `127.0.0.1:${port}`;
}

/**
 * A throwaway database for a marketplace bench: `MONGODB_URI`, else a dev database on a
 * free port in a temporary directory, with a fresh database `${prefix}_${time}`. `drop`
 * removes it and the marketplace's beside it, and stops the dev database.
 */
export async function benchDatabase(prefix: string): Promise<{ connection: Connection; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'qrelay-bench-marketplace-'));
  const devdb = process.env.MONGODB_URI ? undefined : await startDevdb({ address: await freeAddress(), dataDir });
  const connection = await connectMongoose(`${process.env.MONGODB_URI ?? devdb!.uri}${prefix}_${Date.now()}`);
  return {
    connection,
    async drop() {
      await connection.db?.dropDatabase();
      await connection.useDb(`${connection.name}_marketplace`).dropDatabase();
      await mongoose.disconnect();
      await devdb?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
