import mongoose, { type Connection } from 'mongoose';
import type { Config } from '../config.js';
import { UserError, errorMessage } from '../errors.js';
import { AddressInUseError, isListening, splitAddress, startDevdb, type DevdbHandle } from './devdb.js';
import { devdbAddressMessage } from './listener-answer.js';
import { probeListener } from './listener.js';

export const DEFAULT_DB_NAME = 'qrelay';

export interface DatabaseTarget {
  uri: string;
  /** Set when this process started the dev database and so must stop it. */
  devdb?: DevdbHandle;
  /** QRELAY_DEVDB_ADDRESS when the dev database is used (MONGODB_URI unset). */
  devdbAddress?: string;
  describe: string;
}

function withDbName(baseUri: string, name: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(\/[^?]*)?(\?.*)?$/.exec(baseUri);
  if (!m) return baseUri;
  const path = m[2] && m[2] !== '/' ? m[2] : `/${name}`;
  return `${m[1]}${path}${m[3] ?? ''}`;
}

/**
 * MONGODB_URI when set; otherwise the dev database at QRELAY_DEVDB_ADDRESS, started here
 * when nothing listens there, so that a second terminal shares the running one's data.
 */
export async function resolveDatabase(config: Config): Promise<DatabaseTarget> {
  if (config.mongoUri) {
    return { uri: withDbName(config.mongoUri, DEFAULT_DB_NAME), describe: 'MONGODB_URI' };
  }
  const address = config.env.QRELAY_DEVDB_ADDRESS;
  const { host, port } = splitAddress(address);
  const uri = withDbName(`mongodb://${address}`, DEFAULT_DB_NAME);
  if (await isListening(host, port)) {
    return { uri, devdbAddress: address, describe: `dev database already running at ${address}` };
  }
  try {
    const devdb = await startDevdb({ address, dataDir: config.devdbDataDir });
    return { uri, devdb, devdbAddress: address, describe: `dev database started at ${address} (data in ${config.devdbDataDir})` };
  } catch (err) {
    // Another qrelay process may have started it between our probe and our start.
    if (err instanceof AddressInUseError && (await isListening(host, port))) {
      return { uri, devdbAddress: address, describe: `dev database already running at ${address}` };
    }
    throw err;
  }
}

export async function connectMongoose(uri: string, timeoutMs = 10000): Promise<Connection> {
  try {
    // a serverSelectionTimeoutMS in the URI wins over our default
    const timeout = /[?&]serverSelectionTimeoutMS=/i.test(uri) ? {} : { serverSelectionTimeoutMS: timeoutMs };
    // indexes are built by migrations, never implicitly at model compile time
    await mongoose.connect(uri, { ...timeout, autoIndex: false });
    return mongoose.connection;
  } catch (err) {
    const shown = uri.replace(/\/\/[^@/]*@/, '//***@');
    throw new UserError(
      `cannot reach the database at ${shown}: ${errorMessage(err)}; check MONGODB_URI, or unset it to use the dev database`,
      { cause: err },
    );
  }
}

export interface Database {
  connection: Connection;
  target: DatabaseTarget;
  close(): Promise<void>;
}

export async function openDatabase(config: Config): Promise<Database> {
  const target = await resolveDatabase(config);
  try {
    const connection = await connectMongoose(target.uri);
    return {
      connection,
      target,
      async close() {
        await mongoose.disconnect();
        await target.devdb?.stop();
      },
    };
  } catch (err) {
    await target.devdb?.stop();
    // something else listens at the dev database's address: say what, naming the variable
    if (target.devdbAddress && !target.devdb) {
      const { host, port } = splitAddress(target.devdbAddress);
      const driverError = errorMessage(err instanceof Error && err.cause !== undefined ? err.cause : err);
      throw new UserError(devdbAddressMessage(target.devdbAddress, await probeListener(host, port), driverError), { cause: err });
    }
    throw err;
  }
}

export function requireDb(connection: Connection) {
  const db = connection.db;
  if (!db) throw new UserError('the database connection is not open');
  return db;
}
