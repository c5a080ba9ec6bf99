import { MTurkClient, type MTurkClientConfig } from '@aws-sdk/client-mturk';
import { afterAll, beforeAll } from 'vitest';
import { DEV_MARKETPLACE_ACCESS_KEY_ID, DEV_MARKETPLACE_SECRET_ACCESS_KEY, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { keepAliveSdkHandler } from '../../src/keep-alive-agents.js';
import { MARKETPLACE_DB_SUFFIX, type StartMarketplaceOptions } from '@qrelay/marketplace';
import { startMarketplaceWithSimulation, type SimulatedMarketplace } from '../../src/simulation/index.js';
import { useTestDatabase, type TestDatabase } from '../support/db.js';

/** A marketplace on this test file's own database, driven through the real AWS SDK over HTTP. */
export interface MarketplaceHarness {
  db: TestDatabase;
  running: SimulatedMarketplace;
  /** An SDK client for the marketplace (no retries unless asked). */
  client(config?: Partial<MTurkClientConfig>): MTurkClient;
  start(opts?: Partial<StartMarketplaceOptions> & { env?: Record<string, string> }): Promise<SimulatedMarketplace>;
  stop(): Promise<void>;
}

export const CREDENTIALS = { accessKeyId: DEV_MARKETPLACE_ACCESS_KEY_ID, secretAccessKey: DEV_MARKETPLACE_SECRET_ACCESS_KEY };

export function useMarketplace(defaults: Partial<StartMarketplaceOptions> & { env?: Record<string, string> } = {}): MarketplaceHarness {
  const db = useTestDatabase();
  const clients: MTurkClient[] = [];
  const harness: MarketplaceHarness = {
    db,
    running: undefined as unknown as SimulatedMarketplace,
    client(config = {}) {
      const client = new MTurkClient({
        endpoint: harness.running.url,
        region: 'us-east-1',
        credentials: CREDENTIALS,
        maxAttempts: 1,
        requestHandler: keepAliveSdkHandler(),
        ...config,
      });
      clients.push(client);
      return client;
    },
    async start(opts = {}) {
      const { env: defaultEnv, ...startDefaults } = defaults;
      const { env, ...startOpts } = opts;
      harness.running = await startMarketplaceWithSimulation({
        config: loadConfig({ ...process.env, MARKETPLACE_URL: 'http://127.0.0.1:8090', ...defaultEnv, ...env }),
        logger: createLogger('silent'),
        connection: db.connection,
        port: 0,
        host: '127.0.0.1',
        loopIntervalMs: 60_000, // tests drive the loops with tick()
        delivery: { retryBaseMs: 50, retryCapMs: 200, timeoutMs: 2000 },
        ...startDefaults,
        ...startOpts,
      });
      return harness.running;
    },
    async stop() {
      await harness.running.close();
    },
  };
  beforeAll(async () => {
    await db.connection.useDb(`${db.connection.name}${MARKETPLACE_DB_SUFFIX}`).dropDatabase();
    await harness.start();
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await harness.running?.close();
  });
  return harness;
}

export function htmlQuestion(
  body = '<form><input type="radio" name="relevance" value="yes"><input type="radio" name="relevance" value="no"></form>',
): string {
  return `<HTMLQuestion xmlns="http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2011-11-11/HTMLQuestion.xsd"><HTMLContent><![CDATA[<!DOCTYPE html><html><body>${body}</body></html>]]></HTMLContent><FrameHeight>0</FrameHeight></HTMLQuestion>`;
}

export const hitParams = (overrides: Record<string, unknown> = {}) => ({
  Title: 'Judge the relevance of a passage',
  Description: 'Read a query and a passage; say whether the passage supports an answer.',
  Reward: '0.50',
  MaxAssignments: 3,
  LifetimeInSeconds: 86_400,
  AssignmentDurationInSeconds: 600,
  AutoApprovalDelayInSeconds: 3600,
  Question: htmlQuestion(),
  ...overrides,
});

let counter = 0;
/** A worker account with a fresh name. */
export async function newWorker(
  h: MarketplaceHarness,
  profile: Parameters<SimulatedMarketplace['workers']['createWorker']>[0]['profile'] = {},
) {
  counter++;
  return h.running.workers.createWorker({ displayName: `worker-${process.pid}-${counter}`, profile });
}

/** Moves the marketplace clock forward and runs its background work once. */
export async function advance(h: MarketplaceHarness, seconds: number) {
  h.running.marketplace.clock.advance(seconds * 1000);
  return h.running.loops.tick();
}
