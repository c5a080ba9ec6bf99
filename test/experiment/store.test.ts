import { describe, expect, it } from 'vitest';
import { armOf } from '../../src/experiment/assign.js';
import { armsByWorker, arriveInExperiment, experimentArms, experimentModels } from '../../src/experiment/store.js';
import { useTestDatabase } from '../support/db.js';

// The debate experiment's record of arms in the dev database: ranked by arrival, each
// worker's arm the seeded rule's for that rank, written once per worker and batch.

const db = useTestDatabase();
const at = new Date('2026-01-01T00:00:00Z');

describe('arrivals in the debate experiment', () => {
  it('ranks workers by arrival and gives each the arm of that rank, once', async () => {
    const models = experimentModels(db.connection);
    const arrive = (workerId: string, hit: number) => arriveInExperiment(models, { batch: 'st-a', seed: 'seed-a', workerId, hit, now: at });
    const first = [];
    for (const [i, w] of ['W1', 'W2', 'W3', 'W4', 'W5'].entries()) first.push(await arrive(w, i % 2));
    expect(first.map((d) => [d.workerId, d.rank, d.arm, d.firstHit])).toEqual(
      ['W1', 'W2', 'W3', 'W4', 'W5'].map((w, i) => [w, i, armOf('seed-a', i), i % 2]),
    );
    // a later page keeps the first record: same arm, same rank, the HIT first opened
    expect(await arrive('W2', 7)).toEqual(first[1]);
    expect((await experimentArms(models, 'st-a')).map((d) => d.workerId)).toEqual(['W1', 'W2', 'W3', 'W4', 'W5']);
    expect(await armsByWorker(db.connection, 'st-a')).toEqual(new Map(first.map((d) => [d.workerId, d.arm])));
    // another batch counts its own arrivals
    expect(await arriveInExperiment(models, { batch: 'st-b', seed: 'seed-a', workerId: 'W1', hit: 0, now: at })).toMatchObject({ rank: 0 });
  });

  it('keeps one record when a worker arrives twice at once', async () => {
    const models = experimentModels(db.connection);
    const arrive = () => arriveInExperiment(models, { batch: 'st-c', seed: 'seed-c', workerId: 'W9', hit: 0, now: at });
    const [a, b] = await Promise.all([arrive(), arrive()]);
    expect(a).toEqual(b);
    expect(await models.arms.countDocuments({ batch: 'st-c' })).toBe(1);
  });
});
