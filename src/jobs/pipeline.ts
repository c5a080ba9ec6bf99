import type { Agenda, BackoffStrategy } from 'agenda';
import type { Logger } from '../log.js';
import { aggregateBatch } from '../pipeline/aggregate.js';
import { collectBatch, RoundBusy } from '../pipeline/collect.js';
import { BatchNotFound, BatchStateError } from '../pipeline/errors.js';
import type { PipelineContext } from '../pipeline/context.js';
import { publishBatch } from '../pipeline/publish.js';
import { requireBatch } from '../batches/index.js';

/**
 * The pipeline's jobs in `qrelay serve`. Each wraps a stage; stages are idempotent, so a
 * job that dies half-way (or runs twice) is simply run again.
 *
 * - `pipeline.publish {batch}`: creates the batch's HITs (the plan is stored by the request
 *   that queued it), then schedules the batch's collection.
 * - `pipeline.collect {batch}`: one collection round (reconcile, review, extra
 *   assignments, aggregate), repeated every `collectEvery` while the batch is collecting.
 * - `pipeline.reconcile {batch, hitIds}`: a round right away for the HITs a notification
 *   named.
 * - `pipeline.finalize {batch}`: once a round finds nothing outstanding (every HIT done:
 *   the batch complete, or expired and drained), the last aggregation and the end of its
 *   repeated collection. A closed or deleted batch ends it too.
 */

export const PIPELINE_JOBS = {
  publish: 'pipeline.publish',
  collect: 'pipeline.collect',
  reconcile: 'pipeline.reconcile',
  finalize: 'pipeline.finalize',
} as const;

export interface BatchJobData {
  batch: string;
}

export interface ReconcileJobData extends BatchJobData {
  hitIds: string[];
}

export interface PipelineJobsOptions {
  ctx: PipelineContext;
  logger: Logger;
  defaultTarget: string;
  /** Between collection rounds of a collecting batch (agenda interval, default '1 minute'). */
  collectEvery?: string | number;
  backoff: BackoffStrategy;
}

/** The repeated collection of one batch (one job per batch, kept unique by its data). */
export async function scheduleCollection(agenda: Agenda, batch: string, every: string | number): Promise<void> {
  await agenda
    .create<BatchJobData>(PIPELINE_JOBS.collect, { batch })
    .repeatEvery(every, { skipImmediate: false })
    .unique({ name: PIPELINE_JOBS.collect, 'data.batch': batch })
    .save();
}

export function definePipelineJobs(agenda: Agenda, opts: PipelineJobsOptions): void {
  const { ctx, logger } = opts;
  const every = opts.collectEvery ?? '1 minute';
  const common = { concurrency: 2, lockLifetime: 10 * 60_000, backoff: opts.backoff };

  agenda.define<BatchJobData>(
    PIPELINE_JOBS.publish,
    async (job) => {
      const { batch } = job.attrs.data;
      const result = await publishBatch(ctx, batch, undefined, opts.defaultTarget);
      logger.info(result, 'batch published');
      await scheduleCollection(agenda, batch, every);
    },
    common,
  );

  const stopCollecting = (batch: string) => agenda.cancel({ name: PIPELINE_JOBS.collect, data: { batch } });

  const collect = async (batch: string, hitIds?: string[]) => {
    let round;
    try {
      round = await collectBatch(ctx, batch, hitIds ? { hitIds } : {});
    } catch (err) {
      // a round of this batch is running already: it, or the next repeated one, covers this
      if (err instanceof RoundBusy) return logger.debug({ batch }, 'collection round skipped: another one is running');
      // the batch was deleted or closed meanwhile: nothing left to collect
      if (err instanceof BatchNotFound || (err instanceof BatchStateError && (await gone(batch))))
        return void (await stopCollecting(batch));
      throw err;
    }
    logger.debug(
      { batch, state: round.state, newAssignments: round.reconcile.newAssignments, reviewed: round.review.decided },
      'collection round',
    );
    if (round.followUp.complete) await agenda.now<BatchJobData>(PIPELINE_JOBS.finalize, { batch });
  };

  const gone = async (batch: string) => (await ctx.models.batches.findById(batch, { state: 1 }).lean())?.state === 'closed';

  agenda.define<BatchJobData>(PIPELINE_JOBS.collect, async (job) => collect(job.attrs.data.batch), { ...common, concurrency: 1 });
  agenda.define<ReconcileJobData>(PIPELINE_JOBS.reconcile, async (job) => collect(job.attrs.data.batch, job.attrs.data.hitIds), {
    ...common,
    concurrency: 1,
  });

  agenda.define<BatchJobData>(
    PIPELINE_JOBS.finalize,
    async (job) => {
      const { batch } = job.attrs.data;
      // a round found nothing outstanding: the last labels, and the repeated job ends
      const doc = await requireBatch(ctx, batch);
      const aggregation = doc.settings ? await aggregateBatch(ctx, doc) : undefined;
      await stopCollecting(batch);
      logger.info({ batch, state: doc.state, ...aggregation?.summary }, 'batch finalized');
    },
    common,
  );
}
