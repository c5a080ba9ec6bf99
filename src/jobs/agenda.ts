import { Agenda, backoffStrategies } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import type { Db } from 'mongodb';
import { collections } from '../db/collections.js';
import type { Logger } from '../log.js';
import { defineHousekeeping, scheduleHousekeeping } from './housekeeping.js';
import { definePipelineJobs, type PipelineJobsOptions } from './pipeline.js';
import { defineLlmJobs } from '../debate/jobs.js';
import type { Config } from '../config.js';

export interface JobsOptions {
  db: Db;
  logger: Logger;
  /** Distinguishes instances in logs and in locks. */
  name?: string;
  processEvery?: number | string;
  housekeepingEvery?: string | number;
  /** The escalation pipeline's jobs (publish, collect, reconcile, finalize). */
  pipeline?: Omit<PipelineJobsOptions, 'logger' | 'backoff'>;
  /** With `pipeline`: the LLM debate and adjudicator jobs (src/debate/jobs.ts) read OPENAI_* and the data directory from here. */
  config?: Config;
}

/**
 * One agenda per process, on the application database. Every job qrelay runs is defined
 * here so a `serve` process and a CLI command see the same set.
 */
export function createAgenda(opts: JobsOptions): Agenda {
  const agenda = new Agenda({
    backend: new MongoBackend({ mongo: opts.db, collection: collections.agendaJobs }),
    name: opts.name ?? `qrelay-${process.pid}`,
    processEvery: opts.processEvery ?? '5 seconds',
    defaultLockLifetime: 10 * 60_000,
  });
  agenda.on('error', (err: Error) => opts.logger.error({ err }, 'job scheduler error'));
  agenda.on('fail', (err: Error, job) => opts.logger.warn({ err: err.message, job: job.attrs.name }, 'job failed'));
  defineHousekeeping(agenda, opts.db, opts.logger, {
    backoff: backoffStrategies.exponential({ delay: 1000, maxRetries: 3 }),
  });
  if (opts.pipeline) {
    definePipelineJobs(agenda, {
      ...opts.pipeline,
      logger: opts.logger,
      backoff: backoffStrategies.exponential({ delay: 5000, maxRetries: 5 }),
    });
    if (opts.config) defineLlmJobs(agenda, { ctx: opts.pipeline.ctx, config: opts.config, logger: opts.logger });
  }
  return agenda;
}

export async function startJobs(agenda: Agenda, opts: Pick<JobsOptions, 'housekeepingEvery'> = {}): Promise<void> {
  await agenda.start();
  await scheduleHousekeeping(agenda, opts.housekeepingEvery ?? '10 minutes');
}

/** Lets running jobs finish (up to `timeoutMs`), then stops polling. */
export async function stopJobs(agenda: Agenda, timeoutMs = 30_000): Promise<void> {
  await agenda.drain(timeoutMs);
  await agenda.stop();
}
