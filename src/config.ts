import { resolve } from 'node:path';
import { z } from 'zod';
import { httpUrl, marketplaceEnvShape, parseEnvironment } from '@qrelay/marketplace/config';
import { UserError } from './errors.js';

/**
 * The one place where the environment becomes typed configuration. Every variable qrelay
 * reads is declared here, documented in docs/configuration.md, and validated with a message that
 * names the variable.
 */

const mongoUri = z
  .string()
  .trim()
  .refine((v) => /^mongodb(\+srv)?:\/\/[^/?#\s]+(\/[^?#\s]*)?(\?\S*)?$/.test(v), {
    message: 'expected a MongoDB connection string such as mongodb://host:27017/qrelay',
  });

const port = z.coerce
  .number({ message: 'expected a port number' })
  .int('expected a whole port number')
  .min(0, 'expected a port from 0 to 65535')
  .max(65535, 'expected a port from 0 to 65535');

const hostPort = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, 'expected host:port, for example 127.0.0.1:27017');

/** `local`, `sandbox`, `production`, or the URL of any MTurk-compatible endpoint. */
export const mturkTarget = z.union([z.enum(['local', 'sandbox', 'production']), httpUrl]);
export type MturkTarget = z.infer<typeof mturkTarget>;

const optionalSecret = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

export { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY } from '@qrelay/marketplace/config';

export const envSchema = z.object({
  MONGODB_URI: mongoUri.optional(),
  QRELAY_DEVDB_ADDRESS: hostPort.default('127.0.0.1:27017'),
  QRELAY_DATA_DIR: z.string().trim().min(1).default('data'),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: port.default(8080),
  QRELAY_API_TOKEN: optionalSecret,
  /** A second bearer token that reads worker data but changes nothing (a dashboard's, an auditor's). */
  QRELAY_API_READ_TOKEN: optionalSecret,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MTURK_TARGET: mturkTarget.default('local'),
  AWS_ACCESS_KEY_ID: optionalSecret,
  AWS_SECRET_ACCESS_KEY: optionalSecret,
  AWS_REGION: z.string().trim().min(1).default('us-east-1'),
  // the bundled marketplace's variables, declared by the marketplace package
  ...marketplaceEnvShape,
  OPENAI_API_KEY: optionalSecret,
  OPENAI_BASE_URL: httpUrl.optional(),
  /** A JSON file of token prices per model (src/debate/prices.ts) for the LLM cost lines. */
  QRELAY_LLM_PRICES: z.string().trim().min(1).optional(),
  /** Where participants reach qrelay's own task pages (`/tasks/...`); default http://HOST:PORT. */
  QRELAY_PUBLIC_URL: httpUrl.optional(),
  /** Prolific's researcher API token, for `--target prolific`. */
  PROLIFIC_API_TOKEN: optionalSecret,
  PROLIFIC_API_URL: httpUrl.default('https://api.prolific.com/api/v1/'),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env;
  /** Absolute data directory; the dev database keeps its files in `<dataDir>/devdb`. */
  dataDir: string;
  devdbDataDir: string;
  mongoUri: string | undefined;
  http: { host: string; port: number };
  /** The public base URL of qrelay's server (task pages), without a trailing slash. */
  publicUrl: string;
  logLevel: Env['LOG_LEVEL'];
}

/** Parses the environment, reporting every bad variable at once. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  let env: Env;
  try {
    env = parseEnvironment(envSchema, source);
  } catch (err) {
    throw new UserError((err as Error).message);
  }
  const dataDir = resolve(env.QRELAY_DATA_DIR);
  return {
    env,
    dataDir,
    devdbDataDir: resolve(dataDir, 'devdb'),
    mongoUri: env.MONGODB_URI,
    http: { host: env.HOST, port: env.PORT },
    publicUrl: env.QRELAY_PUBLIC_URL ?? `http://${env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST}:${env.PORT}`,
    logLevel: env.LOG_LEVEL,
  };
}
