import type { Command } from 'commander';
import { auditLog } from '../actions/audit.js';
import { deleteDraftBatch, listBatches, type BatchOverview } from '../actions/batches.js';
import { payBonus } from '../actions/bonus.js';
import { cliActor, createActionContext, type ActionContext } from '../actions/context.js';
import { setManualLabel } from '../actions/manual-labels.js';
import { overrideReview } from '../actions/override.js';
import { workerScope } from '../actions/scope.js';
import { blockWorker, messageWorkers, qualifyWorker, requireAssignment, unblockWorker } from '../actions/worker-actions.js';
import { loadWorkerTable } from '../actions/views.js';
import type { WorkerRow } from '../actions/worker-table.js';
import type { Config } from '../config.js';
import { formatUsd } from '@qrelay/marketplace/fees';
import { UserError } from '../errors.js';
import { requireBatch } from '../batches/index.js';
import { parseChoice } from './options.js';
import { checkReachable, withPipeline } from './pipeline.js';
import { action } from './run.js';

/**
 * The requester's actions on the command line: `workers`, `worker block|unblock|bonus|
 * message|qualify`, `review override`, `label`, `batches`, `delete`. The same operations
 * (src/actions/) serve the REST routes and the console page; each is recorded in the
 * batch's audit log as `cli:<login>`.
 */

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const usd = (cents: number) => `$${formatUsd(cents)}`;
const pct = (v: number | null) => (v === null ? '-' : `${Math.round(v * 100)}%`);

async function withActions(fn: (ctx: ActionContext, config: Config) => Promise<void>): Promise<void> {
  await withPipeline(
    async (pipeline, config) => {
      await fn(
        createActionContext({ pipeline, connection: pipeline.models.batches.db, who: cliActor(), defaultTarget: config.env.MTURK_TARGET }),
        config,
      );
    },
    { quiet: true },
  );
}

/** Fails fast (one line) when an action would call a local marketplace that does not answer. */
async function reachable(ctx: ActionContext, config: Config, targets: readonly string[]): Promise<void> {
  for (const t of targets) await checkReachable(config, t);
}

function workerLine(r: WorkerRow): string {
  const q = Object.entries(r.qualifications ?? {}).map(([k, v]) => `${k}=${v}`);
  return [
    r.workerId.padEnd(16),
    `${r.assignments.submitted} assignments (${r.assignments.counted} counted, ${r.assignments.discarded} discarded, ${r.assignments.rejected} rejected, ${r.assignments.pendingReview} pending)`,
    `checks ${r.checks.passed}/${r.checks.total}`,
    `agreement ${pct(r.agreement.rate)} of ${r.agreement.compared}`,
    `${r.medianSecondsPerItem === null ? '-' : `${r.medianSecondsPerItem}s`}/item`,
    r.flags.length ? `flags ${r.flags.join(',')}` : 'no flags',
    r.blocked === null ? 'blocked unknown' : r.blocked ? `BLOCKED (${r.blockReason})` : 'not blocked',
    ...stopsPart(r),
    r.qualifications === null ? 'qualification scores unknown' : q.length ? `qualifications ${q.join(',')}` : 'no qualification scores',
    `bonuses ${r.bonuses.count} ${usd(r.bonuses.cents)}`,
    `reputation ${r.reputation?.score ?? '-'}`,
  ].join('  ');
}

/** Stops of quality control that were lifted: `blocked` no longer shows them. */
function stopsPart(r: WorkerRow): string[] {
  const lifted = r.stops.filter((s) => s.liftedAt !== null);
  return lifted.length ? [`stopped and lifted ${lifted.length}x (${[...new Set(lifted.map((s) => s.cause))].join(',')})`] : [];
}

function batchLine(b: BatchOverview): string {
  return [
    b.batch.padEnd(16),
    b.state.padEnd(10),
    `${b.itemsComplete}/${b.items} items decided (${pct(b.progress)})`,
    `κ ${b.fleissKappa === null ? '-' : b.fleissKappa.toFixed(3)}`,
    `spend ${usd(b.spendCents)}${b.budgetCents === null ? '' : ` of ${usd(b.budgetCents)}`}`,
    b.target ? `on ${b.target}` : 'not published',
  ].join('  ');
}

const out = (json: boolean | undefined, value: unknown, text: string) => say(json ? JSON.stringify(value) : text);

/** The requester's actions: workers, worker block|unblock|bonus|message|qualify, review override, label, batches, delete, audit. */
export function registerConsoleActions(program: Command): void {
  registerWorkersCommand(program);
  registerWorkerCommands(program);
  registerReviewOverride(program);
  registerBatchCommands(program);
}

function registerWorkersCommand(program: Command): void {
  program
    .command('workers')
    .description(
      "a batch's workers: assignments, check results, agreement, time per item, flags, blocked or not, qualification scores, bonuses paid",
    )
    .argument('<batch>', 'batch name')
    .option('--json', 'print one JSON object: {batch, workers: [...]}')
    .action(
      action(async (batch: string, opts: { json?: boolean }) => {
        await withActions(async (ctx) => {
          // what qrelay's database holds is listed even when the platform does not answer (its fields then unknown)
          const { workers, platform } = await loadWorkerTable(ctx, batch);
          if (platform?.note) process.stderr.write(`qrelay: ${platform.note} (null in --json)\n`);
          if (opts.json) return say(JSON.stringify({ batch, workers, platform }));
          if (workers.length === 0) return say(`batch ${batch}: no worker has submitted anything yet`);
          for (const w of workers) say(workerLine(w));
        });
      }),
    );
}

/** `qrelay worker <action>`: what the platform does to one worker. */
function registerWorkerCommands(program: Command): void {
  const worker = program
    .command('worker')
    .description('act on a worker through the crowd platform: block, unblock, bonus, message, qualify (each in the audit log)');
  const batchOption = [
    '--batch <name>',
    'the batch whose audit log and target apply (default: every batch the worker worked in; none: MTURK_TARGET)',
  ] as const;

  worker
    .command('block')
    .description("block a worker from the requester's HITs (CreateWorkerBlock)")
    .argument('<worker>', 'worker id')
    .requiredOption('--reason <text>', 'why (recorded; MTurk shows it to the worker)')
    .option(...batchOption)
    .option('--json', 'print one JSON object')
    .action(
      action(async (workerId: string, opts: { reason: string; batch?: string; json?: boolean }) => {
        await withActions(async (ctx, config) => {
          await reachable(ctx, config, (await workerScope(ctx, [workerId], opts.batch)).targets);
          const r = await blockWorker(ctx, { workerId, reason: opts.reason, ...(opts.batch && { batch: opts.batch }) });
          out(
            opts.json,
            r,
            `worker ${r.workerId}: blocked on ${r.targets.join(', ')}${r.wasBlocked ? ' (was blocked already; reason updated)' : ''}`,
          );
        });
      }),
    );

  worker
    .command('unblock')
    .description('lift a block (DeleteWorkerBlock; a worker not blocked stays so)')
    .argument('<worker>', 'worker id')
    .option('--reason <text>', 'why (recorded)')
    .option(...batchOption)
    .option('--json', 'print one JSON object')
    .action(
      action(async (workerId: string, opts: { reason?: string; batch?: string; json?: boolean }) => {
        await withActions(async (ctx, config) => {
          await reachable(ctx, config, (await workerScope(ctx, [workerId], opts.batch)).targets);
          const r = await unblockWorker(ctx, {
            workerId,
            ...(opts.reason && { reason: opts.reason }),
            ...(opts.batch && { batch: opts.batch }),
          });
          out(opts.json, r, `worker ${r.workerId}: not blocked on ${r.targets.join(', ')}${r.wasBlocked ? '' : ' (was not blocked)'}`);
        });
      }),
    );

  worker
    .command('bonus')
    .description("pay a bonus for one of the worker's assignments (SendBonus; a repeated command pays once; held to the batch's budget)")
    .argument('<worker>', 'worker id')
    .requiredOption('--assignment <id>', 'the AssignmentId the bonus is for')
    .requiredOption('--amount <usd>', 'bonus in USD, e.g. 0.50 (MTurk adds a 20% fee)')
    .requiredOption('--reason <text>', 'why (the worker sees it)')
    .option('--token <token>', 'idempotency token (default: derived from worker, assignment, amount and reason)')
    .option(...batchOption)
    .option('--json', 'print one JSON object')
    .action(
      action(
        async (
          workerId: string,
          opts: { assignment: string; amount: string; reason: string; token?: string; batch?: string; json?: boolean },
        ) => {
          await withActions(async (ctx, config) => {
            const a = await requireAssignment(ctx, opts.assignment, '--assignment');
            const target = (await requireBatch(ctx.pipeline, a.batch)).settings?.target;
            if (target) await checkReachable(config, target);
            const r = await payBonus(ctx, {
              workerId,
              assignmentId: opts.assignment,
              amount: opts.amount,
              reason: opts.reason,
              ...(opts.token !== undefined && { token: opts.token }),
              ...(opts.batch && { batch: opts.batch }),
            });
            out(
              opts.json,
              r,
              r.alreadyPaid
                ? `worker ${r.workerId}: this bonus of ${usd(r.amountCents)} for ${r.assignmentId} was paid already; nothing sent`
                : `worker ${r.workerId}: paid a bonus of ${usd(r.amountCents)} (+${usd(r.feeCents)} fee) for ${r.assignmentId} in batch ${r.batch}`,
            );
          });
        },
      ),
    );

  worker
    .command('message')
    .description('send workers a message (NotifyWorkers; MTurk reaches only workers whose work you approved or rejected)')
    .argument('<workers...>', 'worker ids')
    .requiredOption('--subject <text>', 'subject (at most 200 characters)')
    .requiredOption('--text <text>', 'message (at most 4,096 characters)')
    .option(...batchOption)
    .option('--json', 'print one JSON object')
    .action(
      action(async (workerIds: string[], opts: { subject: string; text: string; batch?: string; json?: boolean }) => {
        await withActions(async (ctx, config) => {
          await reachable(ctx, config, (await workerScope(ctx, workerIds, opts.batch)).targets);
          const r = await messageWorkers(ctx, {
            workerIds,
            subject: opts.subject,
            text: opts.text,
            ...(opts.batch && { batch: opts.batch }),
          });
          if (opts.json) return say(JSON.stringify(r));
          say(`message sent to ${r.sent.length} worker${r.sent.length === 1 ? '' : 's'}${r.sent.length ? `: ${r.sent.join(', ')}` : ''}`);
          for (const f of r.failed) say(`not sent to ${f.workerId}: ${f.message}`);
          if (r.sent.length === 0) throw new UserError('the message reached no worker (see above)');
        });
      }),
    );

  worker
    .command('qualify')
    .description("set a worker's score on a qualification type (AssociateQualificationWithWorker), or take it away with --revoke")
    .argument('<worker>', 'worker id')
    .requiredOption('--qualification <name>', "the preset's test name (dream-exam), the type's exact name, or its QualificationTypeId")
    .option('--value <n>', 'the score (a whole number)', (v: string) => {
      if (!/^\d+$/.test(v)) throw new UserError(`--value: expected a whole number from 0, got ${JSON.stringify(v)}`);
      return Number(v);
    })
    .option('--revoke', 'take the qualification away (DisassociateQualificationFromWorker)')
    .option('--reason <text>', 'why (recorded; sent with a revocation)')
    .option(...batchOption)
    .option('--json', 'print one JSON object')
    .action(
      action(
        async (
          workerId: string,
          opts: { qualification: string; value?: number; revoke?: boolean; reason?: string; batch?: string; json?: boolean },
        ) => {
          await withActions(async (ctx, config) => {
            await reachable(ctx, config, (await workerScope(ctx, [workerId], opts.batch)).targets);
            const r = await qualifyWorker(ctx, {
              workerId,
              qualification: opts.qualification,
              ...(opts.value !== undefined && { value: opts.value }),
              ...(opts.revoke && { revoke: true }),
              ...(opts.reason && { reason: opts.reason }),
              ...(opts.batch && { batch: opts.batch }),
            });
            out(
              opts.json,
              r,
              r.revoked ? `worker ${r.workerId}: ${r.qualification} revoked` : `worker ${r.workerId}: ${r.qualification} = ${r.value}`,
            );
          });
        },
      ),
    );
}

function registerReviewOverride(program: Command): void {
  const review = program.commands.find((c) => c.name() === 'review');
  if (!review) throw new Error('registerConsoleActions must come after registerPipeline (it adds review override)');
  review
    .command('override')
    .description(
      'overturn the review of one assignment: --approve (paid, its votes count) or --reject (its votes never count); labels and κ are recomputed',
    )
    .argument('<assignment>', 'AssignmentId')
    .option('--approve', 'approve it (over a rejection too); its votes count whatever the checks said')
    .option('--reject', 'its votes stop counting; rejected on the platform if not yet approved')
    .requiredOption('--reason <text>', 'why (recorded; the worker sees it)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (assignmentId: string, opts: { approve?: boolean; reject?: boolean; reason: string; json?: boolean }) => {
        if (opts.approve === opts.reject) throw new UserError('give exactly one of --approve or --reject');
        await withActions(async (ctx, config) => {
          const a = await requireAssignment(ctx, assignmentId);
          const target = (await requireBatch(ctx.pipeline, a.batch)).settings?.target;
          if (target) await checkReachable(config, target);
          const r = await overrideReview(ctx, { assignmentId, decision: opts.approve ? 'approve' : 'reject', reason: opts.reason });
          const k = r.summary.fleissKappa;
          out(
            opts.json,
            r,
            `assignment ${r.assignmentId} (${r.workerId}, batch ${r.batch}): ${r.decision === 'approve' ? 'votes count' : 'votes excluded'}; platform: ${r.platform}; ${r.summary.labels}/${r.summary.items} labelled, Fleiss κ ${k === null ? 'undefined' : k.toFixed(3)}`,
          );
        });
      }),
    );
}

function registerBatchCommands(program: Command): void {
  program
    .command('label')
    .description("decide an item by hand (provenance manual): export-qrels uses it over the crowd's label; the report lists it")
    .argument('<batch>', 'batch name')
    .requiredOption('--query <qid>', 'query id')
    .requiredOption('--chunk <cid>', 'chunk (document) id')
    .requiredOption('--label <label>', 'yes or no', parseChoice(['yes', 'no'] as const))
    .requiredOption('--note <text>', 'why (recorded with the decision)')
    .option('--json', 'print one JSON object')
    .action(
      action(async (batch: string, opts: { query: string; chunk: string; label: 'yes' | 'no'; note: string; json?: boolean }) => {
        await withActions(async (ctx) => {
          const r = await setManualLabel(ctx, { batch, queryId: opts.query, chunkId: opts.chunk, label: opts.label, note: opts.note });
          out(
            opts.json,
            r,
            `batch ${r.batch}: query ${r.queryId} chunk ${r.chunkId} labelled ${r.label} by hand${r.previous && r.previous !== r.label ? ` (was ${r.previous})` : r.changed ? '' : ' (unchanged)'}`,
          );
        });
      }),
    );

  program
    .command('batches')
    .description('every batch: state, items, progress, spend')
    .option('--json', 'print one JSON array')
    .action(
      action(async (opts: { json?: boolean }) => {
        await withActions(async (ctx) => {
          const rows = await listBatches(ctx);
          if (opts.json) return say(JSON.stringify(rows));
          if (rows.length === 0) return say('no batches yet: qrelay import <file> --batch <name>');
          for (const b of rows) say(batchLine(b));
        });
      }),
    );

  program
    .command('delete')
    .description('delete a draft batch (imported, never published) and what was imported into it')
    .argument('<batch>', 'batch name')
    .option('--json', 'print one JSON object')
    .action(
      action(async (batch: string, opts: { json?: boolean }) => {
        await withActions(async (ctx) => {
          const r = await deleteDraftBatch(ctx, batch);
          out(
            opts.json,
            r,
            `batch ${batch} deleted (${r.deleted.items} items, ${r.deleted.gold} gold, ${r.deleted.consensus} consensus records)`,
          );
        });
      }),
    );

  program
    .command('audit')
    .description("a batch's audit log: every action on it, who, when, why")
    .argument('<batch>', 'batch name')
    .option('--json', 'print one JSON array')
    .action(
      action(async (batch: string, opts: { json?: boolean }) => {
        await withActions(async (ctx) => {
          await requireBatch(ctx.pipeline, batch);
          const rows = await auditLog(ctx, batch);
          if (opts.json) return say(JSON.stringify(rows.map(({ _id: _unused, ...r }) => r)));
          for (const r of rows)
            say(`${new Date(r.at).toISOString()}  ${r.who}  ${r.action} ${r.subject}  ${r.outcome}${r.reason ? `  (${r.reason})` : ''}`);
        });
      }),
    );
}
