import { describe, expect, it } from 'vitest';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { importSampleBatch, tempDir, testContext } from './support.js';
import { requireBatch } from '../../src/batches/index.js';

// a marketplace account holding $5.00
const h = useMarketplace({ env: { MARKETPLACE_INITIAL_BALANCE: '5.00' } });
const dir = tempDir();

describe('the account balance', () => {
  it('is checked before publishing: HITs the account cannot pay are not sent', async () => {
    const ctx = testContext(h.db);
    // quick preset: 8 cases -> 2 HITs x 3 assignments x ($0.55 + $0.11) = $3.96
    await importSampleBatch(ctx, dir, 'bal-a', 8);
    expect(await publishBatch(ctx, 'bal-a', { preset: 'quick', target: h.running.url }, 'local')).toMatchObject({ created: 2 });
    // the bundled marketplace holds no funds for created HITs (MTurk does): the balance is untouched,
    // and the open HITs of batch bal-a are counted against it
    expect(await ctx.backend(h.running.url).accountBalance()).toEqual({ availableCents: 500, onHoldCents: 0 });

    await importSampleBatch(ctx, dir, 'bal-b', 8, 8);
    await expect(publishBatch(ctx, 'bal-b', { preset: 'quick', target: h.running.url }, 'local')).rejects.toThrow(
      `the account on ${h.running.url} holds $5.00, $3.96 of it owed to open HITs of other batches, less than the $3.96 the 2 remaining HITs of batch bal-b may cost: add funds, then run publish again`,
    );
    expect(await ctx.models.hits.countDocuments({ batch: 'bal-b', state: 'planned' })).toBe(2);
    expect((await requireBatch(ctx, 'bal-b')).state).toBe('publishing');

    // batch bal-a stopped with nothing accepted: its HITs can bring no more work, and owe nothing
    const { expireBatch } = await import('../../src/pipeline/expire.js');
    await expireBatch(ctx, 'bal-a');
    expect((await ctx.models.hits.find({ batch: 'bal-a' }).lean()).map((x) => x.state)).toEqual(['done', 'done']);
    expect(await publishBatch(ctx, 'bal-b', undefined, 'local')).toMatchObject({ created: 2 });
  });
});
