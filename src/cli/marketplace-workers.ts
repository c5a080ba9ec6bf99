import { InvalidArgumentError, type Command } from 'commander';
import { UserError } from '../errors.js';
import { askNewPassword, readPasswordFile } from './password-input.js';
import { action } from './run.js';

/**
 * A worker's profile on the command line, shared by `qrelay marketplace add-worker` and
 * `update-worker` (the /admin routes POST /workers and PATCH /workers/:worker): locale,
 * Adult, Masters, and their earlier work either as approved HITs and an approval rate
 * (--approved-hits, --approval-rate: what HITs' qualification requirements read) or as
 * counts (--submitted, --approved); the password from a file or the terminal, never an argument.
 */

export function parseCount(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number >= 0');
  return Number(value);
}

function parsePercent(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 100) throw new InvalidArgumentError('expected a whole percent from 0 to 100');
  return Number(value);
}

export interface ProfileOptions {
  country?: string;
  subdivision?: string;
  adult?: boolean;
  masters?: boolean;
  submitted?: number;
  approved?: number;
  approvedHits?: number;
  approvalRate?: number;
  passwordFile?: string;
  askPassword?: boolean;
}

export function withProfileOptions(cmd: Command): Command {
  return cmd
    .option('--password-file <file>', "the worker site password: the file's first line (- reads standard input)")
    .option('--ask-password', 'type the worker site password on the terminal (not shown)')
    .option('--country <code>', 'ISO 3166 country (default US)')
    .option('--subdivision <code>', 'ISO 3166-2 subdivision, e.g. WA')
    .option('--approved-hits <n>', 'approved HITs before this marketplace (NumberHITsApproved)', parseCount)
    .option(
      '--approval-rate <percent>',
      'approval rate of that earlier work (PercentAssignmentsApproved); below 100 it needs at least that many approved HITs',
      parsePercent,
    )
    .option('--submitted <n>', 'assignments submitted before this marketplace (instead of --approval-rate)', parseCount)
    .option('--approved <n>', 'of those, approved', parseCount);
}

export async function passwordOf(opts: ProfileOptions): Promise<string | undefined> {
  if (opts.passwordFile !== undefined && opts.askPassword)
    throw new UserError('give the password one way: --password-file or --ask-password');
  const password =
    opts.passwordFile !== undefined ? await readPasswordFile(opts.passwordFile) : opts.askPassword ? await askNewPassword() : undefined;
  if (password !== undefined && password.length < 8) throw new UserError('the password must have at least 8 characters');
  return password;
}

/** The profile fields the options set (only those given: an update changes nothing else). */
export function profileOf(opts: ProfileOptions): Record<string, unknown> {
  const byRate = opts.approvedHits !== undefined || opts.approvalRate !== undefined;
  const byCounts = opts.submitted !== undefined || opts.approved !== undefined;
  if (byRate && byCounts) throw new UserError('give the earlier work one way: --approved-hits/--approval-rate or --submitted/--approved');
  if (opts.subdivision !== undefined && opts.country === undefined) throw new UserError('--subdivision needs --country');
  return {
    ...(opts.country !== undefined
      ? { locale: { Country: opts.country.toUpperCase(), ...(opts.subdivision ? { Subdivision: opts.subdivision.toUpperCase() } : {}) } }
      : {}),
    ...(opts.adult !== undefined ? { adult: opts.adult } : {}),
    ...(opts.masters !== undefined ? { masters: opts.masters } : {}),
    ...(opts.approvedHits !== undefined ? { approvedHits: opts.approvedHits } : {}),
    ...(opts.approvalRate !== undefined ? { approvalRate: opts.approvalRate } : {}),
    ...(byCounts ? { baseline: { submitted: opts.submitted ?? opts.approved ?? 0, approved: opts.approved ?? 0 } } : {}),
  };
}

type CallAdmin = (opts: { url?: string }, method: string, path: string, body?: unknown) => Promise<unknown>;

/** `qrelay marketplace update-worker WORKER`: change a worker's profile or password (PATCH /admin/workers/:worker). */
export function registerUpdateWorker(
  marketplace: Command,
  withUrl: (cmd: Command) => Command,
  callAdmin: CallAdmin,
  print: (value: unknown) => void,
): void {
  withUrl(
    withProfileOptions(
      marketplace
        .command('update-worker')
        .description(
          "change a worker's profile (locale, Adult, Masters, approved HITs, approval rate) or password; what is not given stays",
        )
        .argument('<worker>', 'worker id or display name'),
    )
      .option('--adult', 'the worker confirmed being 18 or older')
      .option('--no-adult', 'the worker did not')
      .option('--masters', 'the worker holds the Masters qualification')
      .option('--no-masters', 'the worker does not'),
  ).action(
    action(async (worker: string, opts: ProfileOptions & { url?: string }) => {
      const password = await passwordOf(opts);
      const body = { ...profileOf(opts), ...(password !== undefined ? { password } : {}) };
      if (Object.keys(body).length === 0)
        throw new UserError('nothing to change: give --country, --adult, --masters, --approved-hits, --approval-rate, ... (see --help)');
      print(await callAdmin(opts, 'PATCH', `/workers/${encodeURIComponent(worker)}`, body));
    }),
  );
}

/** `qrelay marketplace retake-policy QUALIFICATION_TYPE_ID [--retakes n] [--delay seconds]`: show or set a test's retake policy. */
export function registerRetakePolicy(
  marketplace: Command,
  withUrl: (cmd: Command) => Command,
  callAdmin: CallAdmin,
  print: (value: unknown) => void,
): void {
  withUrl(
    marketplace
      .command('retake-policy')
      .description(
        "show or set how often a worker may retake a qualification test (default: one retake after 600 s), besides the type's RetryDelayInSeconds",
      )
      .argument('<qualificationTypeId>', 'a qualification type with a test')
      .option('--retakes <n>', 'retakes allowed under the policy', parseCount)
      .option('--delay <seconds>', 'seconds after the last request before a retake', parseCount),
  ).action(
    action(async (typeId: string, opts: { retakes?: number; delay?: number; url?: string }) => {
      const path = `/qualification-types/${encodeURIComponent(typeId)}/retake-policy`;
      if (opts.retakes === undefined && opts.delay === undefined) return print(await callAdmin(opts, 'GET', path));
      const current = (await callAdmin(opts, 'GET', path)) as { retakePolicy: { retakes: number; delaySeconds: number } };
      print(
        await callAdmin(opts, 'PUT', path, {
          retakes: opts.retakes ?? current.retakePolicy.retakes,
          delaySeconds: opts.delay ?? current.retakePolicy.delaySeconds,
        }),
      );
    }),
  );
}
