import { describe, expect, it } from 'vitest';
import { claimCopyName } from '../../src/simulation/copy.js';
import { useTestDatabase } from '../support/db.js';
import { testContext } from '../pipeline/support.js';

const t = useTestDatabase();

describe('replacing a simulated copy', () => {
  it('forgets the workers its last run stopped, with its HITs and assignments', async () => {
    const ctx = testContext(t);
    const now = new Date();
    await ctx.models.batches.create({ _id: 'src-sim', state: 'complete', createdAt: now, updatedAt: now, simulated: true });
    const decision = (batch: string, workerId: string) => ({
      _id: `${batch}|${workerId}`,
      batch,
      workerId,
      target: 'http://127.0.0.1:1',
      action: 'soft-block' as const,
      state: 'sent' as const,
      reason: 'stopped: in the last run',
      probabilityNotWorking: 0.999,
      evidence: {},
      decidedAt: now,
      sentAt: now,
    });
    await ctx.models.workerDecisions.create([decision('src-sim', 'W-OLD'), decision('other', 'W-KEPT')]);
    await expect(claimCopyName(ctx, 'src', 'src-sim', false)).rejects.toThrow(/give --replace/);

    await claimCopyName(ctx, 'src', 'src-sim', true);
    // that run's private marketplace is gone with its workers: the next run must not act on them
    expect(await ctx.models.workerDecisions.find({ batch: 'src-sim' }).lean()).toEqual([]);
    expect((await ctx.models.workerDecisions.find({}).lean()).map((d) => d._id)).toEqual(['other|W-KEPT']);
    expect(await ctx.models.batches.findById('src-sim').lean()).toBeNull();
  });
});
