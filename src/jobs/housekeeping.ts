import type { Agenda, BackoffStrategy } from 'agenda';
import type { Db } from 'mongodb';
import type { Logger } from '../log.js';
import { collections } from '../db/collections.js';
import { declareRecurring } from './recurring.js';

export const HOUSEKEEPING_JOB = 'housekeeping';

/** FerretDB has no TTL indexes, so expiry of old records is this job's work. */
export const RETENTION_DAYS = 30;

export interface HousekeepingRun {
  startedAt: Date;
  finishedAt: Date;
  scheduledFor: Date | null;
  instance: string;
  removedJobs: number;
  removedRuns: number;
}

export async function runHousekeeping(db: Db, instance: string, scheduledFor: Date | null, now = new Date()): Promise<HousekeepingRun> {
  const cutoff = new Date(now.getTime() - RETENTION_DAYS * 86_400_000);
  const jobs = await db.collection(collections.agendaJobs).deleteMany({
    repeatInterval: null,
    nextRunAt: null,
    lastFinishedAt: { $lt: cutoff },
  });
  const runs = await db.collection(collections.housekeepingRuns).deleteMany({ startedAt: { $lt: cutoff } });
  const record: HousekeepingRun = {
    startedAt: now,
    finishedAt: new Date(),
    scheduledFor,
    instance,
    removedJobs: jobs.deletedCount,
    removedRuns: runs.deletedCount,
  };
  await db.collection<HousekeepingRun>(collections.housekeepingRuns).insertOne(record);
  return record;
}

export function defineHousekeeping(agenda: Agenda, db: Db, logger: Logger, opts: { backoff: BackoffStrategy }): void {
  agenda.define(
    HOUSEKEEPING_JOB,
    async (job) => {
      const run = await runHousekeeping(db, agenda.attrs.name ?? 'qrelay', job.attrs.lastRunAt ?? null);
      logger.debug({ removedJobs: run.removedJobs, removedRuns: run.removedRuns }, 'housekeeping done');
    },
    { concurrency: 1, lockLifetime: 5 * 60_000, backoff: opts.backoff },
  );
}

export async function scheduleHousekeeping(agenda: Agenda, every: string | number): Promise<void> {
  await declareRecurring(agenda, every, HOUSEKEEPING_JOB);
}
