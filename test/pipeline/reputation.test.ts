import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AssociateQualificationWithWorkerCommand,
  DisassociateQualificationFromWorkerCommand,
  GetQualificationTypeCommand,
  ListWorkersWithQualificationTypeCommand,
} from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { loadBatchData, requireBatch } from '../../src/batches/index.js';
import { createActionContext } from '../../src/actions/context.js';
import { loadWorkerTable } from '../../src/actions/views.js';
import { paths } from '../../src/paths.js';
import { BLOCKED_QUALIFICATION } from '../../src/pipeline/blocked-qualification.js';
import { collectBatch } from '../../src/pipeline/collect.js';
import { dryRunPublish, publishBatch } from '../../src/pipeline/publish.js';
import { REPUTATION_QUALIFICATION, reputationModel, syncTargetReputation } from '../../src/pipeline/reputation.js';
import { newWorker, useMarketplace } from '../marketplace/support.js';
import { runCli } from '../support/cli.js';
import { workInSteps, hostilePopulation } from '../support/simulation.js';
import { sampleOracle, simulationAdmin } from './simulated-crowd.js';
import { importSampleBatch, tempDir, testContext } from './support.js';

/**
 * Cross-batch reputation (issue 16, item 4) on one bundled marketplace through the real SDK:
 * two batches worked by the same simulated population (a quarter spammers, always-yes and
 * always-no workers), under a preset requiring a minimum reputation. Every worker starts at
 * the neutral 50 the AutoGranted qualification gives on request; qrelay sets each worker's
 * score as their record grows; a worker stopped in the first batch has a low score, which
 * keeps them out of the second even once their soft block is lifted by hand.
 */

const h = useMarketplace({ clockSpeed: 8000 });
const dir = tempDir('qrelay-reputation-');
const CASES = 45;
const MIN = 30;

type Kind = 'diligent' | 'spammer' | 'alwaysYes' | 'alwaysNo';

const admin = (method: string, path: string, body?: unknown) => simulationAdmin(h, method, path, body);

const population = hostilePopulation('qrelay-reputation');

/** The lab preset with a minimum reputation, as a preset file. */
function presetFile(): string {
  const lab = JSON.parse(readFileSync(join(paths.presets, 'lab.json'), 'utf8')) as Record<string, unknown>;
  const file = join(dir, 'lab-reputation.json');
  writeFileSync(file, JSON.stringify({ ...lab, minReputation: MIN }));
  return file;
}

describe('cross-batch reputation', () => {
  it(
    'starts every worker at the neutral score, lowers a stopped worker, and keeps them out of the next batch',
    { timeout: 1_500_000 },
    async () => {
      const ctx = testContext(h.db);
      const client = h.client();
      const preset = presetFile();
      const scoresOn = async (typeId: string) =>
        new Map(
          (
            (await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: typeId, MaxResults: 100 })))
              .Qualifications ?? []
          ).map((q) => [q.WorkerId!, q.IntegerValue!]),
        );

      // batch 1
      await importSampleBatch(ctx, dir, 'rep1', CASES);
      await publishBatch(ctx, 'rep1', { preset, target: h.running.url, concurrency: 1 }, 'local');
      const first = await requireBatch(ctx, 'rep1');
      const typeId = first.qualificationIds[REPUTATION_QUALIFICATION]!;
      expect(typeId).toEqual(expect.any(String));
      // the type is AutoGranted with the neutral value, and the HIT type requires at least the minimum
      const type = (await client.send(new GetQualificationTypeCommand({ QualificationTypeId: typeId }))).QualificationType!;
      expect(type).toMatchObject({ Name: REPUTATION_QUALIFICATION, AutoGranted: true, AutoGrantedValue: 50 });

      await admin('PUT', '/admin/simulation/oracle', sampleOracle(2 * CASES));
      const { workers } = (await admin('PUT', '/admin/simulation/population', population)) as {
        workers: { workerId: string; kind: Kind }[];
      };
      const kindOf = new Map(workers.map((w) => [w.workerId, w.kind]));
      const round = (batch: string) => async () => (await collectBatch(ctx, batch)).followUp.complete;
      expect((await workInSteps(h.running, round('rep1'), { spellSeconds: 600 })).complete).toBe(true);

      const data1 = await loadBatchData(ctx, 'rep1');
      const workedIn1 = new Set(data1.assignments.map((a) => a.workerId));
      const stopped = new Set((await ctx.models.workerDecisions.find({ batch: 'rep1' }).lean()).map((d) => d.workerId));
      expect(stopped.size).toBeGreaterThan(0);
      // every worker who worked holds the qualification (granted at 50 when they asked), now at qrelay's score
      const stored = new Map((await reputationModel(ctx).find({ target: h.running.url }).lean()).map((d) => [d.workerId, d]));
      const onPlatform = await scoresOn(typeId);
      for (const w of workedIn1) {
        const d = stored.get(w)!;
        expect(d, w).toBeDefined();
        expect(onPlatform.get(w), w).toBe(d.score);
        expect(d.pushed, w).toBe(d.score);
        expect(d.batches.map((b) => b.batch)).toEqual(['rep1']);
      }
      // stopped workers: at most 10, with the reason; careful workers who worked: above the minimum, mostly above neutral
      for (const w of stopped) {
        expect(onPlatform.get(w), w).toBeLessThanOrEqual(10);
        expect(stored.get(w)!.reason).toMatch(/^stopped in batch rep1 \(stopped: P\(not doing the task\)/);
      }
      const diligent = [...workedIn1].filter((w) => kindOf.get(w) === 'diligent');
      for (const w of diligent) expect(onPlatform.get(w), `${w}: ${stored.get(w)!.reason}`).toBeGreaterThanOrEqual(MIN);
      expect(diligent.filter((w) => onPlatform.get(w)! > 50).length).toBeGreaterThan(diligent.length / 2);

      // the workers table shows each worker's reputation
      const actions = createActionContext({ pipeline: ctx, connection: h.db.connection, who: 'test', defaultTarget: h.running.url });
      for (const r of (await loadWorkerTable(actions, 'rep1')).workers)
        expect(r.reputation?.score, r.workerId).toBe(onPlatform.get(r.workerId));

      // a sync changes nothing more: every record and value is up to date
      expect(await syncTargetReputation(ctx, h.running.url)).toMatchObject({ batches: ['rep1'], pushed: 0 });

      // a person lifts the soft blocks: the reputation alone keeps the stopped workers out
      const blockedType = first.qualificationIds[BLOCKED_QUALIFICATION]!;
      for (const w of stopped)
        await client.send(
          new DisassociateQualificationFromWorkerCommand({ QualificationTypeId: blockedType, WorkerId: w, Reason: 'lifted by the test' }),
        );

      // batch 2, other cases, the same crowd
      await importSampleBatch(ctx, dir, 'rep2', CASES, CASES);
      const dry = await dryRunPublish(ctx, 'rep2', { preset, target: h.running.url }, 'local');
      expect(dry.text).toContain(
        `  qrelay-reputation GreaterThanOrEqualTo ${MIN} (cross-batch reputation 0-100; a worker without one is granted 50 on asking)`,
      );
      await publishBatch(ctx, 'rep2', { preset, target: h.running.url, concurrency: 1 }, 'local');
      expect((await requireBatch(ctx, 'rep2')).qualificationIds[REPUTATION_QUALIFICATION]).toBe(typeId);
      const hit2 = (await loadBatchData(ctx, 'rep2')).hits[0]!.hitId!;
      const someone = [...stopped][0]!;
      await expect(h.running.workers.acceptHit(someone, hit2)).rejects.toMatchObject({ code: 'QualificationRequirementsNotMet' });
      // asking again does not restore the neutral score
      await expect(h.running.workers.requestQualification(someone, typeId)).resolves.toMatchObject({ status: 'granted', value: 10 });
      // a worker qrelay has never seen asks for it and gets the neutral score: the minimum is not what stops them
      const fresh = await newWorker(h);
      await expect(h.running.workers.requestQualification(fresh.workerId, typeId)).resolves.toEqual({ status: 'granted', value: 50 });
      const seen = (await h.running.workers.listAvailableHits(fresh.workerId, { limit: 100 })).find((x) => x.hitId === hit2)!;
      expect(seen.unmetRequirements.map((u) => u.qualificationTypeId)).not.toContain(typeId);

      expect((await workInSteps(h.running, round('rep2'), { spellSeconds: 600 })).complete).toBe(true);
      const data2 = await loadBatchData(ctx, 'rep2');
      const workedIn2 = new Set(data2.assignments.map((a) => a.workerId));
      expect([...workedIn2].filter((w) => stopped.has(w))).toEqual([]);
      expect([...workedIn2].filter((w) => kindOf.get(w) === 'diligent').length).toBeGreaterThan(0);
      // records of both batches sum up, and the platform has every score
      const after = new Map((await reputationModel(ctx).find({ target: h.running.url }).lean()).map((d) => [d.workerId, d]));
      const both = [...workedIn2].filter((w) => workedIn1.has(w));
      expect(both.length).toBeGreaterThan(0);
      for (const w of both)
        expect(
          after
            .get(w)!
            .batches.map((b) => b.batch)
            .sort(),
        ).toEqual(['rep1', 'rep2']);
      const platform2 = await scoresOn(typeId);
      for (const [w, d] of after) expect(platform2.get(w), w).toBe(d.score);
    },
  );

  it('qrelay reputation sync sets again a value a crash left unset, and show lists the scores', { timeout: 600_000 }, async () => {
    const ctx = testContext(h.db);
    const client = h.client();
    const typeId = (await requireBatch(ctx, 'rep1')).qualificationIds[REPUTATION_QUALIFICATION]!;
    const store = reputationModel(ctx);
    const d = (await store.find({ target: h.running.url }).lean()).find((x) => x.batches.length === 2)!;
    // what a round killed between writing a score and setting it leaves behind (and a value set by hand meanwhile)
    await store.updateOne({ _id: d._id }, { $set: { pushed: null } });
    await client.send(
      new AssociateQualificationWithWorkerCommand({
        QualificationTypeId: typeId,
        WorkerId: d.workerId,
        IntegerValue: 99,
        SendNotification: false,
      }),
    );

    const sync = await runCli(['reputation', 'sync', '--target', h.running.url, '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    const synced = JSON.parse(sync.stdout) as {
      target: string;
      batches: string[];
      changed: number;
      pushed: number;
      workers: { workerId: string; score: number; pushed: number }[];
    };
    expect(synced).toMatchObject({ target: h.running.url, batches: ['rep1', 'rep2'], changed: 0, pushed: 1 });
    expect(synced.workers.find((w) => w.workerId === d.workerId)).toMatchObject({ score: d.score, pushed: d.score });
    const held = await client.send(new ListWorkersWithQualificationTypeCommand({ QualificationTypeId: typeId, MaxResults: 100 }));
    expect(held.Qualifications?.find((q) => q.WorkerId === d.workerId)?.IntegerValue).toBe(d.score);
    // repeat-safe: nothing more to set
    const again = await runCli(['reputation', 'sync', '--target', h.running.url]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(
      new RegExp(
        `^reputation on ${h.running.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: 2 batches, \\d+ workers, 0 records changed, 0 scores set$`,
        'm',
      ),
    );

    const show = await runCli(['reputation', 'show', d.workerId, 'nobody-here', '--target', h.running.url, '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(JSON.parse(show.stdout)).toEqual({
      target: h.running.url,
      workers: [{ workerId: d.workerId, score: d.score, pushed: d.score, batches: ['rep1', 'rep2'], reason: d.reason }],
      unseen: ['nobody-here'],
      neutral: 50,
    });
    const text = await runCli(['reputation', 'show', d.workerId, 'nobody-here', '--target', h.running.url]);
    expect(text.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(new RegExp(`^${d.workerId} +${d.score} {2}set +2 batches {2}`)),
      expect.stringMatching(/^nobody-here +50 {2}no record on .*: the neutral score$/),
    ]);
  });
});
