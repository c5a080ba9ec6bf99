import type { Config } from '../../config.js';
import { requireBatch } from '../../batches/index.js';
import { simulateBatch } from '../../simulation/run.js';
import { checkAborted, type DemoEnv } from '../env.js';
import { formatDuration, type StageProgress } from '../progress.js';
import { samplePopulation } from '../sample.js';

/**
 * Stages 2 to 4 of the demo: the batch published on a private simulated marketplace (the
 * real marketplace code with its own database, port and clock, as `qrelay simulate` runs
 * it), the sample population working its HITs through the worker site's pages, and
 * collection rounds (review, extra assignments, aggregation) until every item has its
 * votes. The marketplace that serves real clients is never touched: its clock stays on
 * real time and its HIT list stays the operator's. A discrete-event simulation, so two
 * fresh runs give the same figures; a run cut short starts the simulation over (the same
 * seed gives the same result).
 */
export async function simulatedCrowdStage(env: DemoEnv, config: Config, batch: string): Promise<{ wallSeconds: number }> {
  checkAborted(env.signal);
  const doc = await requireBatch(env.ctx, batch);
  if (doc.state === 'complete' || doc.state === 'closed') {
    env.progress.line(`work       already done (batch ${batch} is ${doc.state})`);
    return { wallSeconds: 0 };
  }
  const population = samplePopulation();
  const publish = env.progress.stage('publish', { total: 0, unit: 'HITs created' });
  let work: StageProgress | undefined;
  let review: StageProgress | undefined;
  const run = await simulateBatch(
    {
      connection: env.ctx.models.batches.db,
      config,
      logger: env.ctx.logger,
      onPublished: (hits, quoteCents) => {
        publish.update(hits, hits);
        publish.finish(`preset dream, on a private simulated marketplace with its own clock; quote $${(quoteCents / 100).toFixed(2)}`);
        work = env.progress.stage('work', { total: 0, unit: 'items with their votes' });
      },
      onRound: (complete, items, seconds) => {
        if (!review) work?.update(complete, items, `${formatDuration(seconds)} simulated`);
        if (!review && complete >= items) {
          work?.finish(`${population.size} simulated workers (samples/population.json), ${formatDuration(seconds)} simulated`);
          review = env.progress.stage('review', { total: 0, unit: 'collection rounds' });
        }
      },
      checkpoint: () => checkAborted(env.signal),
    },
    // its records are handed to the bundled marketplace at the end of the demo (hand-over.ts)
    { source: batch, name: batch, inPlace: true, replace: false, population, keepMarketplace: true },
  );
  const state = (await requireBatch(env.ctx, batch)).state;
  if (!review) work?.finish(`${population.size} simulated workers (samples/population.json)`);
  (review ?? env.progress.stage('review', { total: 0, unit: 'collection rounds' })).finish(
    `batch ${state} after ${run.rounds} collection rounds, ${formatDuration(run.simulatedSeconds)} simulated`,
  );
  return { wallSeconds: run.wallSeconds };
}
