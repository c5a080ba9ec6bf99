import { ListHITsCommand } from '@aws-sdk/client-mturk';
import { describe, expect, it } from 'vitest';
import { collectBatch } from '../../src/pipeline/collect.js';
import { publishBatch } from '../../src/pipeline/publish.js';
import { batchStatus } from '../../src/pipeline/status.js';
import { useMarketplace } from '../marketplace/support.js';
import { sampleOracle, simulationAdmin } from './simulated-crowd.js';
import { workInSpells } from '../support/simulation.js';
import { predict, sampledIntervals, type Kind, type ModelWorker } from './e2e-model.js';
import { importSampleBatch, tempDir, testContext } from './support.js';
import { requireBatch, buildLabels, loadBatchData } from '../../src/batches/index.js';

/**
 * Issue 4's acceptance run: 200 escalated cases from import to labels on the bundled
 * marketplace, worked by a simulated population with 10% spammers and 10% always-yes
 * workers, under the `dream` preset (system qualifications and the qualification exam,
 * created on the marketplace by publish, then taken by the simulated workers).
 */

const h = useMarketplace({ clockSpeed: 8000 });
const dir = tempDir();
const CASES = 200;

interface SimWorkerView {
  workerId: string;
  kind: Kind;
  accuracy: { relevant: number; notRelevant: number };
}

const admin = (method: string, path: string, body?: unknown) => simulationAdmin(h, method, path, body);
const oracle = () => sampleOracle(CASES);

const population = {
  seed: 'qrelay-e2e',
  size: 40,
  arrivalsPerHour: 40,
  hitsPerVisit: 8,
  shares: { spammer: 0.1, alwaysYes: 0.1 },
  accuracy: { relevant: { alpha: 18, beta: 2 }, notRelevant: { alpha: 17, beta: 3 } },
  // every kind works at the same pace, so the work is shared as the workers are (the
  // simulator's default makes careless workers 3x faster, and they then take ~45% of it)
  workTime: { medianSeconds: 45, fastFactor: 1 },
  // workers who judge each item alone, with no hard items: the answers are then
  // independent given the truth, as the prediction (e2e-model.ts) assumes; the debate's
  // effect on agreement is measured by the simulate issue's calibration test
  debate: { gain: 0, sway: 0 },
  items: { hardShare: 0 },
  abandonRate: 0.03,
  returnRate: 0.04,
};

describe('escalation pipeline, end to end', () => {
  // the timeout is only a safety net against a hang: the run is bounded in simulated time
  it('takes 200 cases from import to labels with a simulated population', { timeout: 900_000 }, async () => {
    const ctx = testContext(h.db);
    await importSampleBatch(ctx, dir, 'e2e', CASES);
    // the DREAM protocol's per-assignment review and 3 votes for every item, which the prediction
    // (e2e-model.ts) models; worker-level decisions and re-collection only where a vote can change
    // a label have their own tests (worker-decisions.test.ts, collect.test.ts)
    const published = await publishBatch(
      ctx,
      'e2e',
      { preset: 'dream', target: h.running.url, concurrency: 8, workerDecisions: false, recollect: 'always' },
      'local',
    );
    expect(published).toMatchObject({ hits: 23, created: 23 });

    await admin('PUT', '/admin/simulation/oracle', oracle());
    const { workers } = (await admin('PUT', '/admin/simulation/population', population)) as { workers: SimWorkerView[] };
    const kindOf = new Map(workers.map((w) => [w.workerId, w.kind]));
    expect(workers.filter((w) => w.kind === 'spammer')).toHaveLength(4);
    expect(workers.filter((w) => w.kind === 'alwaysYes')).toHaveLength(4);

    // spells of simulated work, each followed by a collection round (test/support/simulation.ts)
    const { complete, rounds } = await workInSpells(h.running, async () => (await collectBatch(ctx, 'e2e')).followUp.complete);
    const status = await batchStatus(ctx, 'e2e');
    expect(complete, JSON.stringify(status)).toBe(true);

    // every case ends with 3 valid votes and a label
    const batch = await requireBatch(ctx, 'e2e');
    expect(batch.state).toBe('complete');
    expect(batch.summary).toMatchObject({ items: CASES, itemsComplete: CASES, labels: CASES, unresolved: 0 });
    const labels = await ctx.models.labels.find({ batch: 'e2e' }).lean();
    expect(labels).toHaveLength(CASES);
    expect(labels.every((l) => l.votes.yes + l.votes.no === 3 && l.validVotes >= 3)).toBe(true);
    // one HIT per planned HIT (plus any posted again), none twice
    const onPlatform = ((await h.client().send(new ListHITsCommand({ MaxResults: 100 }))).HITs ?? []).filter((x) =>
      x.RequesterAnnotation?.startsWith('qrelay:e2e|'),
    );
    expect(onPlatform).toHaveLength(status.hits.total);

    // the checks catch spammers and always-yes workers
    const data = await loadBatchData(ctx, 'e2e');
    const checkOf = new Map(data.hits.map((x) => [x._id, x.items.find((i) => i.kind === 'check')]));
    const byKind = (kind: Kind) => data.assignments.filter((a) => kindOf.get(a.workerId) === kind && a.reviewState === 'done');
    const discarded = (list: typeof data.assignments) => list.filter((a) => a.review?.countsVotes === false).length;
    const alwaysYes = byKind('alwaysYes');
    const behindNo = alwaysYes.filter((a) => {
      const c = checkOf.get(a.hit);
      return c?.kind === 'check' && c.expected === 'no';
    });
    expect(behindNo.length).toBeGreaterThan(0);
    expect(discarded(behindNo)).toBe(behindNo.length); // every one behind a "no" check is caught
    // a spammer's assignment counts exactly when it happened to answer its check right
    const spam = byKind('spammer');
    const rightOnCheck = (a: (typeof data.assignments)[number]) => {
      const check = checkOf.get(a.hit);
      return check?.kind === 'check' && a.answers.find((x) => x.position === check.position)?.answer === check.expected;
    };
    expect(spam.length).toBeGreaterThan(0);
    expect(spam.filter((a) => a.review?.countsVotes !== rightOnCheck(a))).toEqual([]);
    expect(discarded(spam)).toBeGreaterThan(0);
    // diligent workers (accuracy 0.85-0.9 per item) fail a check far less often
    const diligent = byKind('diligent');
    expect(discarded(diligent) / diligent.length).toBeLessThan(0.3);
    const stats = buildLabels(batch, data, new Date()).aggregate.workers;
    const alwaysYesStats = stats.filter((s) => kindOf.get(s.worker) === 'alwaysYes');
    expect(alwaysYesStats.some((w) => w.checks.byPolarity.no.total > 0)).toBe(true);
    for (const w of alwaysYesStats) {
      // the polarity split shows them: every "no" check failed, every "yes" check passed
      expect(w.checks.byPolarity.no.passed).toBe(0);
      expect(w.checks.byPolarity.yes.passed).toBe(w.checks.byPolarity.yes.total);
    }

    // accuracy and κ where the population's accuracies predict (e2e-model.ts derives both)
    const submitted = data.assignments.length;
    const model: ModelWorker[] = workers.map((w) => ({
      kind: w.kind,
      accuracy: w.accuracy,
      share: data.assignments.filter((a) => a.workerId === w.workerId).length / submitted,
    }));
    const truth = new Map((await ctx.models.items.find({ batch: 'e2e' }).lean()).map((r) => [r._id, r.label!]));
    // the planned HITs: each item with its truth and its HIT's check (an item posted again counts once)
    const planned = data.hits.flatMap((x) => {
      const check = x.items.find((i) => i.kind === 'check');
      return x.origin === 'plan' && check?.kind === 'check' ? [{ check: check.expected, items: hitItems(x, truth) }] : [];
    });
    expect(planned.reduce((n, x) => n + x.items.length, 0)).toBe(CASES);
    const predicted = predict(
      model,
      planned.flatMap((x) => x.items.map((t) => ({ truth: t, check: x.check }))),
    );
    const interval = sampledIntervals(model, planned);
    const accuracy = status.accuracy!.value!;
    const kappa = status.fleissKappa.value!;
    const report =
      `e2e: ${rounds} rounds, ${status.hits.total} HITs, ${submitted} assignments (${status.assignments.discarded} discarded), ${status.hits.extraAssignments} extra assignments; ` +
      `accuracy ${accuracy.toFixed(3)} (predicted ${predicted.accuracy.toFixed(3)}, 99.8% interval ${interval.accuracy.low.toFixed(3)}-${interval.accuracy.high.toFixed(3)}), ` +
      `κ ${kappa.toFixed(3)} (predicted ${predicted.kappa.toFixed(3)}, ${interval.kappa.low.toFixed(3)}-${interval.kappa.high.toFixed(3)}), α ${status.krippendorffAlpha.value?.toFixed(3)}`;
    console.log(report);
    expect(accuracy, report).toBeGreaterThanOrEqual(interval.accuracy.low);
    expect(accuracy, report).toBeLessThanOrEqual(interval.accuracy.high);
    expect(kappa, report).toBeGreaterThanOrEqual(interval.kappa.low);
    expect(kappa, report).toBeLessThanOrEqual(interval.kappa.high);
  });
});

function hitItems(
  hit: { batch: string; items: ReadonlyArray<{ kind: string; queryId: string; chunkId: string }> },
  truth: ReadonlyMap<string, 'yes' | 'no'>,
): Array<'yes' | 'no'> {
  return hit.items.flatMap((i) => {
    if (i.kind !== 'real') return [];
    const t = [...truth].find(([id]) => id.endsWith(`|${encode(i.queryId)}:${encode(i.chunkId)}`))?.[1];
    return t ? [t] : [];
  });
}

const encode = (id: string) => id.replace(/%/g, '%25').replace(/:/g, '%3A');
