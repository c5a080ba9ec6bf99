import {
  exportRequesterRecords,
  mapRecordTimes,
  marketplaceDb,
  recordTimeSpan,
  splitRecords,
  type ImportSummary,
} from '@qrelay/marketplace';
import type { Config } from '../../config.js';
import { callMarketplaceAdmin } from '../../crowd/marketplace-admin.js';
import { requireBatch } from '../../batches/index.js';
import { privateConnection } from '../../simulation/run.js';
import { checkAborted, type DemoEnv } from '../env.js';
import { HAND_OVER_WINDOW, handOverTime } from '../hand-over-times.js';
import { demoRunModel, type DemoRunDoc } from '../runs.js';
import { moveTargetReputation } from '../../pipeline/reputation.js';

/**
 * The last stage of the demo: the simulated marketplace's records (the demo's workers and
 * their profiles, HITs, assignments with answers and statuses, qualification types and
 * scores, blocks, messages, payments) handed to the bundled marketplace at MARKETPLACE_URL
 * through its /admin/records route, whether it runs in this process or in another one; then
 * the batch is retargeted there, so that every action on the demo's workers (block, bonus,
 * message, qualify, review override) works through the real MTurk API afterwards.
 *
 * Times are moved onto the bundled marketplace's clock (hand-over-times.ts), which is never
 * moved itself; qrelay's database keeps the simulated times its reports are computed from,
 * and this stage runs after the report, so the demo's figures do not depend on it.
 *
 * Safe to repeat and to cut short: the import adds only what is missing, the anchor time is
 * kept in the demo run, and the private database is dropped only once the batch points at
 * the bundled marketplace.
 */

interface HandOverResult {
  hits: number;
  workers: number;
  assignments: number;
}

export async function handOverStage(env: DemoEnv, run: DemoRunDoc, config: Config, marketplaceUrl: string): Promise<HandOverResult | null> {
  checkAborted(env.signal);
  const batch = run._id;
  const runs = demoRunModel(env.ctx.models.batches.db);
  const current = await runs.findById(batch).lean<DemoRunDoc>();
  if (current?.handOver?.doneAt) {
    env.progress.line(`hand-over  already done (batch ${batch} is on ${current.handOver.target})`);
    return null;
  }
  const doc = await requireBatch(env.ctx, batch);
  const priv = privateConnection(env.ctx.models.batches.db, batch);
  const records = await exportRequesterRecords(priv);
  if (!doc.settings || records.hits.length === 0) {
    env.progress.line(`hand-over  nothing to hand over: the simulated marketplace of batch ${batch} holds no HITs`);
    return null;
  }
  const bar = env.progress.stage('hand-over', { total: 0, unit: 'parts' });
  const anchor =
    current?.handOver?.anchor ?? new Date((await callMarketplaceAdmin<{ now: string }>(config, marketplaceUrl, 'GET', '/clock')).now);
  await runs.updateOne({ _id: batch }, { $set: { handOver: { anchor, target: marketplaceUrl, doneAt: null } } });

  const span = recordTimeSpan(records)!;
  const moved = mapRecordTimes(
    records,
    handOverTime(
      {
        earliestMs: span.earliest.getTime(),
        endMs: Math.max(span.earliest.getTime(), records.exportedAt.getTime()),
        latestMs: span.latest.getTime(),
      },
      { anchorMs: anchor.getTime(), ...HAND_OVER_WINDOW },
    ),
  );
  const parts = splitRecords(moved);
  const typeIds: Record<string, string> = {};
  const hitTypeIds: Record<string, string> = {};
  let present = 0;
  for (const [i, part] of parts.entries()) {
    checkAborted(env.signal);
    const summary = await callMarketplaceAdmin<ImportSummary>(config, marketplaceUrl, 'POST', '/records', part, 600_000);
    Object.assign(typeIds, summary.qualificationTypeIds);
    Object.assign(hitTypeIds, summary.hitTypeIds);
    // every part carries the types again: only the records of the part's own kinds count
    present += (summary.present.hits ?? 0) + (summary.present.ledger ?? 0) + (i === 0 ? (summary.present.workers ?? 0) : 0);
    bar.update(i + 1, parts.length);
  }
  await retarget(env, batch, doc.settings.target, marketplaceUrl, typeIds, hitTypeIds);
  await runs.updateOne({ _id: batch }, { $set: { 'handOver.doneAt': new Date() } });
  await marketplaceDb(priv).dropDatabase();

  const result = {
    hits: records.hits.length,
    workers: new Set(records.hits.flatMap((h) => h.assignments.map((a) => a.workerId))).size,
    assignments: records.hits.reduce((n, h) => n + h.assignments.length, 0),
  };
  bar.finish(
    `${result.hits} HITs, ${result.assignments} assignments, ${result.workers} workers now on the bundled marketplace at ${marketplaceUrl} (its clock)${present > 0 ? `; ${present} HITs, payments or workers were there already` : ''}`,
  );
  return result;
}

/** The batch's target, HIT type and qualification ids are now the bundled marketplace's. */
async function retarget(
  env: DemoEnv,
  batch: string,
  from: string,
  to: string,
  typeIds: Record<string, string>,
  hitTypeIds: Record<string, string>,
): Promise<void> {
  const m = env.ctx.models;
  const doc = await requireBatch(env.ctx, batch);
  const qualificationIds = Object.fromEntries(Object.entries(doc.qualificationIds ?? {}).map(([name, id]) => [name, typeIds[id] ?? id]));
  for (const [old, now] of Object.entries(hitTypeIds)) await m.hits.updateMany({ batch, hitTypeId: old }, { $set: { hitTypeId: now } });
  // the private marketplace's entries go (a hand-over completed again after a crash finds the batch moved already)
  if (from !== to) {
    const escaped = from.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    await m.targetQualifications.deleteMany({ _id: { $regex: `^${escaped}\\|` } });
    // and the workers' reputation records go with the batch (src/pipeline/reputation.ts)
    await moveTargetReputation(env.ctx, from, to);
  }
  for (const [name, id] of Object.entries(qualificationIds))
    await m.targetQualifications.updateOne(
      { _id: `${to}|${name}` },
      { $set: { target: to, name, qualificationTypeId: id, recordedAt: env.ctx.now() } },
      { upsert: true },
    );
  await m.batches.updateOne(
    { _id: batch },
    {
      $set: {
        'settings.target': to,
        qualificationIds,
        ...(doc.hitTypeId && { hitTypeId: hitTypeIds[doc.hitTypeId] ?? doc.hitTypeId }),
        ...(doc.starterHitTypeId && { starterHitTypeId: hitTypeIds[doc.starterHitTypeId] ?? doc.starterHitTypeId }),
      },
      // the API's snapshots of the batch are keyed by its revision (src/pipeline/revision.ts)
      $inc: { revision: 1 },
    },
  );
}
