import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { requireCapability, type CrowdPlatform } from '../../src/crowd/platform.js';
import { createCrowdPlatform } from '../../src/crowd/registry.js';
import { UserError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { createPipelineContext } from '../../src/pipeline/context.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, tempDir, TEST_RETRY } from '../pipeline/support.js';

/**
 * The crowd contract (src/crowd/platform.ts) on the bundled marketplace: a target becomes a
 * platform through the registry, which says what it can do, and what a platform lacks
 * stops the pipeline with the capability's name before anything is posted.
 */
const h = useMarketplace();
const dir = tempDir();
const config = () => loadConfig({ ...process.env, MARKETPLACE_URL: h.running.url });

/** The real MTurk platform of the marketplace, seen as a platform without qualification types. */
function withoutQualifications(platform: CrowdPlatform): CrowdPlatform {
  return Object.create(platform, { qualifications: { value: undefined } }) as CrowdPlatform;
}

async function countHits(platform: CrowdPlatform): Promise<number> {
  let n = 0;
  for await (const _ of platform.listHits()) n++;
  return n;
}

describe('the crowd contract', () => {
  it('resolves a target to the MTurk platform, with the capabilities it has and not those it lacks', async () => {
    const platform = createCrowdPlatform(h.running.url, config(), { retry: TEST_RETRY });
    try {
      expect(platform.platform).toBe('mturk');
      expect(platform.target).toMatchObject({ name: h.running.url, kind: 'url', endpoint: h.running.url, realMoney: false });
      const qualifications = requireCapability(platform, 'qualifications', 'a test');
      const { id } = await qualifications.ensureQualificationType({ name: 'platform-contract', description: 'held by nobody' });
      expect(await qualifications.findQualificationTypeId('platform-contract')).toBe(id);
      expect(platform.eventNotifications).toBeDefined();
      const lacking = () => requireCapability(platform, 'participantGroups', 'a participant group allowlist');
      expect(lacking).toThrow(UserError);
      expect(lacking).toThrow(
        `a participant group allowlist needs participant groups, which mturk (target ${h.running.url}) does not have`,
      );
    } finally {
      platform.close();
    }
  });

  it('stops a publish that needs qualification types on a platform without them, before posting anything', async () => {
    const ctx = createPipelineContext({
      connection: h.db.connection,
      config: config(),
      logger: createLogger('silent'),
      progress: () => undefined,
      backend: (target) => withoutQualifications(createCrowdPlatform(target, config(), { retry: TEST_RETRY })),
    });
    await importSampleBatch(ctx, dir, 'noqual', 8);
    const platform = ctx.backend(h.running.url);
    const before = await countHits(platform);
    await expect(publishBatch(ctx, 'noqual', { preset: 'quick', target: h.running.url, workerDecisions: false }, 'local')).rejects.toThrow(
      `the soft block (qrelay-blocked) needs qualification types, which mturk (target ${h.running.url}) does not have`,
    );
    expect(await countHits(platform)).toBe(before);
    expect(await ctx.models.hits.countDocuments({ batch: 'noqual', hitId: { $type: 'string' } })).toBe(0);
  });
});
