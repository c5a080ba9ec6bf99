import { ListWorkersWithQualificationTypeCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { loadBatchData, requireBatch } from '../../src/batches/index.js';
import type { AssignmentDoc, HitDoc } from '../../src/db/models/index.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { EXPERIENCE_QUALIFICATION } from '../../src/pipeline/experience-qualification.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { useMarketplace } from '../marketplace/support.js';
import { workInSteps } from '../support/simulation.js';
import { sampleOracle, simulationAdmin } from './simulated-crowd.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

/**
 * Adaptive attention checks (issue 16, item 2) end to end on the bundled marketplace with a
 * simulated crowd: starter HITs (3 checks of both polarities) on a HIT type that requires
 * qrelay-experience not to exist, regular HITs (1 check) on one that requires it; qrelay
 * grants it in the round after a worker's second submitted HIT. So every worker's first
 * HITs carry more checks, later ones the configured share, and no worker meets a check twice.
 */

const h = useMarketplace({ clockSpeed: 8000 });
const dir = tempDir();
const CASES = 90;
const STARTER_HITS = 2;

const population = {
  seed: 'qrelay-adaptive-checks',
  size: 12,
  arrivalsPerHour: 30,
  hitsPerVisit: 8,
  shares: {},
  accuracy: { relevant: { alpha: 48, beta: 2 }, notRelevant: { alpha: 46, beta: 4 } },
  workTime: { medianSeconds: 45 },
};

const time = (d: Date | string | null | undefined) => (d ? new Date(d).getTime() : Number.POSITIVE_INFINITY);

describe('adaptive attention checks', () => {
  it(
    "gives a worker's first HITs more checks, later ones the configured share, never the same check twice",
    { timeout: 900_000 },
    async () => {
      const ctx = testContext(h.db);
      await importSampleBatch(ctx, dir, 'ac', CASES);
      await publishBatch(
        ctx,
        'ac',
        { preset: 'lab', target: h.running.url, concurrency: 1, adaptiveChecks: true, expectedWorkers: 6 },
        'local',
      );
      const published = await loadBatchData(ctx, 'ac');
      // 6 workers x 2 starter HITs / 3 assignments: 4 starter HITs of 7 items + 3 checks, then 9 + 1
      expect(published.hits.map((x) => [x.audience, x.realItems, x.checks])).toEqual([
        ...Array(4).fill(['starter', 7, 3]),
        ...Array(6).fill(['regular', 9, 1]),
        ['regular', 8, 1],
      ]);
      const batch = await requireBatch(ctx, 'ac');
      expect(batch.starterHitTypeId).toEqual(expect.any(String));
      expect(batch.starterHitTypeId).not.toBe(batch.hitTypeId);

      await simulationAdmin(h, 'PUT', '/admin/simulation/oracle', sampleOracle(CASES));
      await simulationAdmin(h, 'PUT', '/admin/simulation/population', population);
      const { complete } = await workInSteps(h.running, async () => (await collectBatch(ctx, 'ac')).followUp.complete, {
        spellSeconds: 600,
      });
      expect(complete).toBe(true);

      const data = await loadBatchData(ctx, 'ac');
      const hitOf = new Map<string, HitDoc>(data.hits.map((x) => [x._id, x]));
      const byWorker = new Map<string, AssignmentDoc[]>();
      for (const a of data.assignments) byWorker.set(a.workerId, [...(byWorker.get(a.workerId) ?? []), a]);
      expect(byWorker.size).toBeGreaterThan(3);

      let regularTaken = 0;
      for (const [worker, list] of byWorker) {
        const ordered = [...list].sort((a, b) => time(a.acceptedAt) - time(b.acceptedAt));
        // a worker's first HIT is a starter; a regular HIT only after two submitted ones
        expect(hitOf.get(ordered[0]!.hit)?.audience, worker).toBe('starter');
        for (const a of ordered) {
          if (hitOf.get(a.hit)?.audience !== 'regular') continue;
          regularTaken++;
          const before = ordered.filter((b) => time(b.submittedAt) <= time(a.acceptedAt)).length;
          expect(before, `${worker} took regular HIT ${hitOf.get(a.hit)?.index} after ${before} HITs`).toBeGreaterThanOrEqual(STARTER_HITS);
        }
        // never the same check twice
        const checks = ordered.flatMap((a) =>
          hitOf
            .get(a.hit)!
            .items.filter((i) => i.kind === 'check')
            .map((i) => i.key),
        );
        expect(new Set(checks).size, worker).toBe(checks.length);
      }
      expect(regularTaken).toBeGreaterThan(0);

      // every starter HIT (those moved over in rounds too) holds both polarities; regular ones the configured share
      for (const x of data.hits) {
        const polarities = new Set(x.items.flatMap((i) => (i.kind === 'check' ? [i.expected] : [])));
        if (x.audience === 'starter' && x.checks >= 2) expect(polarities, `HIT ${x.index}`).toEqual(new Set(['yes', 'no']));
        if (x.audience === 'regular') expect(x.checks).toBe(x.realItems === 9 ? 1 : Math.max(1, Math.round(x.realItems / 9)));
      }

      // the experienced workers hold qrelay-experience with their HIT count; the others do not
      const typeId = (await ctx.models.targetQualifications.findById(`${batch.settings!.target}|${EXPERIENCE_QUALIFICATION}`).lean())
        ?.qualificationTypeId;
      expect(typeId).toEqual(expect.any(String));
      const listed = await h.client().send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: typeId, MaxResults: 100 }));
      const held = new Map((listed.Qualifications ?? []).map((q) => [q.WorkerId as string, q.IntegerValue as number]));
      for (const [worker, list] of byWorker) {
        if (list.length >= STARTER_HITS) expect(held.get(worker), worker).toBe(list.length);
        else expect(held.has(worker), worker).toBe(false);
      }
      // and the labels are all there
      const labels = await ctx.models.labels.find({ batch: 'ac' }).lean();
      expect(labels).toHaveLength(CASES);
    },
  );
});
