import { describe, expect, it } from 'vitest';
import { moveTargetReputation, reputationModel, type ReputationDoc } from '../../src/pipeline/reputation.js';
import { EMPTY_RECORD, reputationScore, type ReputationRecord } from '../../src/quality/reputation.js';
import { useTestDatabase } from '../support/db.js';
import { testContext } from './support.js';

/**
 * The demo hands its batch over from its private marketplace to the bundled one: the workers'
 * reputation records move with it (src/pipeline/reputation.ts `moveTargetReputation`), on the
 * dev database.
 */

const db = useTestDatabase();

const checks = (right: number, answered: number): ReputationRecord => ({
  ...EMPTY_RECORD,
  checks: { yes: { answered, right }, no: { answered, right } },
});

const doc = (target: string, workerId: string, batches: ReputationDoc['batches'], pushed: number | null): ReputationDoc => ({
  _id: `${target}|${workerId}`,
  target,
  workerId,
  batches,
  score: 0,
  reason: '',
  pushed,
  pushedAt: null,
  updatedAt: new Date(),
});

describe('moveTargetReputation', () => {
  it('moves the records to the new target, merged with what it holds, to be set there; repeat-safe', async () => {
    const ctx = testContext(db);
    const store = reputationModel(ctx);
    await store.create([
      doc('http://private', 'W1', [{ batch: 'demo', record: checks(5, 5) }], 80),
      doc('http://private', 'W2', [{ batch: 'demo', record: checks(0, 5) }], 5),
      doc('local', 'W1', [{ batch: 'old', record: checks(2, 4) }], 50),
      doc('local', 'W3', [{ batch: 'old', record: checks(1, 1) }], 55),
    ]);
    await moveTargetReputation(ctx, 'http://private', 'local');
    await moveTargetReputation(ctx, 'http://private', 'local');
    expect(await store.countDocuments({ target: 'http://private' })).toBe(0);
    const local = new Map((await store.find({ target: 'local' }).lean()).map((d) => [d.workerId, d]));
    expect([...local.keys()].sort()).toEqual(['W1', 'W2', 'W3']);
    const w1 = local.get('W1')!;
    expect(w1.batches.map((b) => b.batch)).toEqual(['old', 'demo']);
    const merged = { ...EMPTY_RECORD, checks: { yes: { answered: 9, right: 7 }, no: { answered: 9, right: 7 } } };
    expect(w1).toMatchObject({ score: reputationScore(merged).score, pushed: 50 });
    expect(local.get('W2')).toMatchObject({ score: reputationScore(checks(0, 5)).score, pushed: null });
    expect(local.get('W3')).toMatchObject({ pushed: 55, batches: [{ batch: 'old' }] });
  });
});
