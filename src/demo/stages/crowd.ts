import { UserError } from '../../errors.js';
import { collectBatch, RoundBusy, type CollectResult } from '../../pipeline/collect.js';
import { checkAborted, pause, type DemoEnv } from '../env.js';
import { formatDuration, type StageProgress } from '../progress.js';
import { sampleOracle, samplePopulation } from '../sample.js';
import { requireBatch } from '../../batches/index.js';

/**
 * Stages 3 and 4: the simulated population works the HITs, and collection rounds review
 * what comes in (attention checks, approve or discard) and ask for extra assignments where
 * votes are missing, as `qrelay review` does.
 *
 * The workers work in short spells of real time on a sped-up marketplace clock; between
 * spells the simulation is paused (its clock stands still) while a round runs, so rounds
 * neither compete with the workers for the CPU nor let simulated hours pass idle. "work"
 * lasts until every item has its valid votes; "review" until nothing is outstanding (the
 * assignments still held come in, HITs no longer needed are stopped).
 */

export interface CrowdSettings {
  /** Marketplace time per real time while the workers work. */
  clockSpeed: number;
  /** Real milliseconds the workers work between two rounds. */
  spellMs: number;
  /** Cases of the sample in the batch (the oracle covers them). */
  cases: number;
  /** The marketplace clock speed to leave behind. */
  restoreSpeed: number;
  /** Give up when no assignment came in for this much simulated time while votes are missing. */
  stallSeconds: number;
}

export interface CrowdResult {
  wallSeconds: number;
  rounds: number;
}

interface Counts {
  stored: number;
  reviewed: number;
}

async function assignmentCounts(env: DemoEnv, batch: string): Promise<Counts> {
  const rows = await env.ctx.models.assignments.find({ batch }, { reviewState: 1 }).lean();
  return { stored: rows.length, reviewed: rows.filter((r) => r.reviewState === 'done').length };
}

/** One spell of work, then one collection round (null when another process holds the batch's round). */
async function spellAndRound(env: DemoEnv, batch: string, spellMs: number): Promise<CollectResult | null> {
  await env.driver.start();
  await pause(spellMs, env.signal);
  await env.driver.pause();
  checkAborted(env.signal);
  await env.driver.sync();
  try {
    return await collectBatch(env.ctx, batch);
  } catch (err) {
    if (err instanceof RoundBusy) return null;
    throw err;
  }
}

function simulatedSince(env: DemoEnv, since: Date | null): string {
  return since ? `${formatDuration(Math.max(0, env.driver.now().getTime() - since.getTime()) / 1000)} simulated` : '';
}

export async function crowdStages(env: DemoEnv, batch: string, settings: CrowdSettings): Promise<CrowdResult> {
  const doc = await requireBatch(env.ctx, batch);
  const published = doc.publishStartedAt ? new Date(doc.publishStartedAt) : null;
  if (doc.state !== 'collecting') {
    env.progress.line(`work       already done (batch ${batch} is ${doc.state})`);
    return { wallSeconds: 0, rounds: 0 };
  }
  const started = performance.now();
  let rounds = 0;
  const workers = await env.driver.loadPopulation(samplePopulation());
  await env.driver.addToOracle(sampleOracle(settings.cases));
  await env.driver.setSpeed(settings.clockSpeed);
  let lastStored = -1;
  let lastChangeAt = env.driver.now().getTime();
  /** Runs spells and rounds until `done` says so; updates `bar` after each round. */
  const loop = async (bar: StageProgress, done: (r: CollectResult, c: Counts) => boolean, show: (r: CollectResult, c: Counts) => [number, number, string]) => {
    for (;;) {
      checkAborted(env.signal);
      const round = await spellAndRound(env, batch, settings.spellMs);
      checkAborted(env.signal);
      if (!round) continue;
      rounds++;
      const counts = await assignmentCounts(env, batch);
      const [n, total, note] = show(round, counts);
      bar.update(n, total, note);
      if (done(round, counts)) return;
      const now = env.driver.now().getTime();
      if (counts.stored !== lastStored) [lastStored, lastChangeAt] = [counts.stored, now];
      else if (now - lastChangeAt > settings.stallSeconds * 1000) {
        throw new UserError(
          `no simulated worker submitted anything for ${formatDuration(settings.stallSeconds)} of marketplace time while batch ${batch} still needs votes; see the simulation at /admin/simulation of the marketplace (${workers} workers loaded)`,
        );
      }
    }
  };
  try {
    const work = env.progress.stage('work', { total: doc.plan?.realItems ?? 0, unit: `items with ${doc.settings?.voteTarget ?? 3} valid votes` });
    let last: CollectResult | undefined;
    await loop(
      work,
      (r) => {
        last = r;
        return r.followUp.complete || r.aggregation.summary.itemsComplete >= r.aggregation.summary.items;
      },
      (r, c) => [r.aggregation.summary.itemsComplete, r.aggregation.summary.items, `${c.stored} assignments · ${simulatedSince(env, published)}`],
    );
    const sim = await env.driver.progress();
    work.finish(`${workers} simulated workers, ${sim.assignments.submitted} assignments submitted this run, ${sim.qualificationTests.taken} qualification exams taken`);
    const review = env.progress.stage('review', { total: 0, unit: 'assignments reviewed' });
    if (!last?.followUp.complete) {
      await loop(
        review,
        (r) => r.followUp.complete,
        (r, c) => [c.reviewed, c.stored, `${r.followUp.stopped} HITs stopped this round · ${simulatedSince(env, published)}`],
      );
    }
    const final = await assignmentCounts(env, batch);
    review.update(final.reviewed, final.stored);
    review.finish(`batch ${(await requireBatch(env.ctx, batch)).state} · ${rounds} collection rounds`);
  } finally {
    await env.driver.stop().catch(() => undefined);
    await env.driver.setSpeed(settings.restoreSpeed).catch(() => undefined);
  }
  return { wallSeconds: (performance.now() - started) / 1000, rounds };
}
