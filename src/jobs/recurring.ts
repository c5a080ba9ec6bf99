import type { Agenda } from 'agenda';

/**
 * Declares a recurring job once for every process that shares the database. Agenda's
 * `every()` upserts the job with `$set` of all its fields, its lock included, so a second
 * process declaring the same job while the first runs it releases that lock and the job
 * runs twice (seen with two `qrelay serve` processes starting together). Here the
 * declaration is insert-only: the first process creates the job, later ones change nothing.
 * A changed interval therefore takes effect only once the stored job is removed.
 */
export async function declareRecurring(agenda: Agenda, interval: string | number, name: string): Promise<void> {
  await agenda.create(name, undefined).repeatEvery(interval).unique({ name }, { insertOnly: true }).save();
}
