import { z } from 'zod';
import { MarketplaceUserError } from './errors.js';
import { parseChaosSpec } from './protocol/chaos.js';

/**
 * The one place where the environment becomes the marketplace's typed configuration:
 * the MARKETPLACE_* variables. A program that embeds the marketplace (qrelay) spreads
 * `marketplaceEnvShape` into its own environment schema, so each variable is declared once.
 */

/** An http(s) URL without trailing slashes (qrelay validates its own URLs with it too). */
export const httpUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\/\S+$/.test(v), { message: 'expected an http(s) URL' })
  .transform((v) => v.replace(/\/+$/, ''));

const usdAmount = z
  .string()
  .trim()
  .regex(/^[0-9]+(\.[0-9]{1,2})?$/, 'expected a USD amount such as 10000.00');

const chaosSpec = z
  .string()
  .trim()
  .superRefine((v, ctx) => {
    try {
      parseChaosSpec(v);
    } catch (err) {
      ctx.addIssue({
        code: 'custom',
        message: `${(err as Error).message}; expected e.g. throttle-rate=5,throttle-burst=10,fault-share=0.05`,
      });
    }
  });

export const DEV_MARKETPLACE_ACCESS_KEY_ID = 'AKQRELAYLOCALDEV0001';
export const DEV_MARKETPLACE_SECRET_ACCESS_KEY = 'qrelay-local-marketplace-development-secret';
/** The researcher token of the Prolific API (`Authorization: Token <token>`) on a development marketplace. */
export const DEV_MARKETPLACE_PROLIFIC_TOKEN = 'qrelay-local-marketplace-prolific-token';

export const marketplaceEnvShape = {
  MARKETPLACE_URL: httpUrl.default('http://127.0.0.1:8090'),
  MARKETPLACE_ACCESS_KEY_ID: z.string().trim().min(1).default(DEV_MARKETPLACE_ACCESS_KEY_ID),
  MARKETPLACE_SECRET_ACCESS_KEY: z.string().trim().min(1).default(DEV_MARKETPLACE_SECRET_ACCESS_KEY),
  MARKETPLACE_PROLIFIC_TOKEN: z
    .string()
    .trim()
    .min(16, 'expected a token of at least 16 characters')
    .default(DEV_MARKETPLACE_PROLIFIC_TOKEN),
  MARKETPLACE_INITIAL_BALANCE: usdAmount.default('10000.00'),
  MARKETPLACE_CLOCK_SPEED: z.coerce
    .number({ message: 'expected a number' })
    .positive('expected a speed above 0 (1 = real time)')
    .optional(),
  MARKETPLACE_CHAOS: chaosSpec.optional(),
};

export const marketplaceEnvSchema = z.object(marketplaceEnvShape);
export type MarketplaceEnv = z.infer<typeof marketplaceEnvSchema>;

/** What the standalone `qrelay-marketplace` command reads besides the shared variables. */
export const marketplaceCommandEnvSchema = marketplaceEnvSchema.extend({
  MARKETPLACE_MONGODB_URI: z
    .string({
      message:
        'required: the MongoDB (or FerretDB) database the marketplace keeps its state in, e.g. mongodb://127.0.0.1:27017/marketplace',
    })
    .trim()
    .refine((v) => /^mongodb(\+srv)?:\/\/[^/?#\s]+(\/[^?#\s]*)?(\?\S*)?$/.test(v), {
      message: 'expected a MongoDB connection string such as mongodb://127.0.0.1:27017/marketplace',
    }),
  MARKETPLACE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type MarketplaceCommandEnv = z.infer<typeof marketplaceCommandEnvSchema>;

/**
 * Parses the environment with `schema`, reporting every bad variable at once (an empty
 * variable means unset: shells and compose files often export KEY=).
 */
export function parseEnvironment<S extends z.ZodType>(schema: S, source: Record<string, string | undefined>): z.infer<S> {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const parsed = schema.safeParse(cleaned);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const variable = String(issue.path[0] ?? 'environment');
    const value = cleaned[variable];
    const shown = value === undefined || /SECRET|TOKEN|KEY/.test(variable) ? '' : ` (got ${JSON.stringify(value)})`;
    return `${variable}: ${issue.message}${shown}`;
  });
  throw new MarketplaceUserError(`bad environment: ${problems.join('; ')}`);
}

export function loadMarketplaceEnv(source: Record<string, string | undefined> = process.env): MarketplaceEnv {
  return parseEnvironment(marketplaceEnvSchema, source);
}
