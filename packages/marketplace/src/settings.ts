import type { MarketplaceEnv } from './config.js';
import { parseUsd } from './fees.js';
import { DEFAULT_DELIVERY, MARKETPLACE_REGION, type MarketplaceSettings } from './core.js';
import { NO_CHAOS, parseChaosSpec, type ChaosSettings } from './protocol/chaos.js';

/** The marketplace's settings from its environment schema (config.ts). */
export interface MarketplaceConfig {
  settings: MarketplaceSettings;
  chaos: ChaosSettings;
  /** Unset: the saved clock keeps its speed. */
  clockSpeed?: number;
  listen: { host: string; port: number };
}

/** `config`: anything carrying the parsed MARKETPLACE_* variables (qrelay passes its own config). */
export function marketplaceConfig(config: { env: MarketplaceEnv }): MarketplaceConfig {
  const env = config.env;
  const url = new URL(env.MARKETPLACE_URL);
  return {
    settings: {
      accessKeyId: env.MARKETPLACE_ACCESS_KEY_ID,
      secretAccessKey: env.MARKETPLACE_SECRET_ACCESS_KEY,
      initialBalanceCents: parseUsd(env.MARKETPLACE_INITIAL_BALANCE),
      delivery: DEFAULT_DELIVERY,
      maxClockSkewMs: 5 * 60_000,
      region: MARKETPLACE_REGION,
    },
    chaos: env.MARKETPLACE_CHAOS ? parseChaosSpec(env.MARKETPLACE_CHAOS) : NO_CHAOS,
    ...(env.MARKETPLACE_CLOCK_SPEED !== undefined ? { clockSpeed: env.MARKETPLACE_CLOCK_SPEED } : {}),
    listen: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    },
  };
}
