import { InvalidArgumentError, type Command } from 'commander';
import { AGGREGATOR_IDS, DEFAULT_AGGREGATOR, type AggregatorId } from '../aggregate/index.js';
import { loadConfig, type Config, type MturkTarget } from '../config.js';
import { PROLIFIC_TARGET, resolveTarget } from '../crowd/targets.js';
import { openDatabase } from '../db/connection.js';
import { endpointAnswers } from '../crowd/reachable.js';
import { UserError } from '../errors.js';
import { formatIssue, ignoredFieldsWarning, INGEST_KINDS, type IngestKind } from '../ingest/index.js';
import { createLogger } from '../log.js';
import type { CollectResult } from '../pipeline/collect.js';
import { createPipelineContext, parseTargetName, type PipelineContext } from '../pipeline/context.js';
import { importAny, ImportRejected } from '../pipeline/import.js';
import { importLine } from './import-line.js';
import { parseBudgetUsd, type PublishRequest } from '../pipeline/settings.js';
import { formatUsd } from '@qrelay/marketplace/fees';
import { migrateDatabase } from '../db/migrate-database.js';
import { parseChoice } from './options.js';
import { action } from './run.js';
import { requireBatch } from '../batches/index.js';

/**
 * The pipeline's commands: `import`, `publish`, `status`, `review`, `expire`, `cleanup`.
 * Each runs its stage in-process on the database (the dev database or MONGODB_URI), with
 * a progress line per step on stdout; a failure is one line on stderr and exit 1. The
 * stages past `import` are loaded by the command that runs them (the crowd's SDK, the jobs,
 * the reports), and cli.ts loads this module alone for these commands but `review` (which
 * the console's `review override` extends): `qrelay import` starts in about half the time.
 */

export function parseWhole(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    return n;
  };
}

function parseKind(value: string): IngestKind {
  const kind = INGEST_KINDS.find((k) => k === value);
  if (!kind) throw new InvalidArgumentError(`expected one of ${INGEST_KINDS.join(', ')}`);
  return kind;
}

function parseBudget(value: string): number {
  try {
    return parseBudgetUsd(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--budget: /, ''));
  }
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Opens the database (migrated), runs `fn` with a pipeline context, closes the database. */
export async function withPipeline(
  fn: (ctx: PipelineContext, config: Config) => Promise<void>,
  opts: { quiet?: boolean } = {},
): Promise<void> {
  const config = loadConfig();
  // logs go to stderr: a command's stdout is its output (`--json`: exactly the JSON, bench/simulate.ts parses it)
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, { stderr: true });
  const database = await openDatabase(config);
  try {
    await migrateDatabase(database, logger);
    const ctx = createPipelineContext({ connection: database.connection, config, logger, progress: opts.quiet ? () => {} : say });
    await fn(ctx, config);
  } finally {
    await database.close();
  }
}

/** Fails fast when the bundled marketplace does not answer (instead of a minute of retries). */
export async function checkReachable(config: Config, target: string): Promise<void> {
  const name = parseTargetName(target);
  if (name === PROLIFIC_TARGET) return; // Prolific's API answers for itself (its calls retry and then say what failed)
  const resolved = resolveTarget(name as MturkTarget, config);
  if (resolved.kind !== 'local') return;
  if (!(await endpointAnswers(resolved.endpoint, 1000))) {
    throw new UserError(
      `the local marketplace at ${resolved.endpoint} does not answer: start it (qrelay marketplace, or qrelay serve), or set MARKETPLACE_URL`,
    );
  }
}

interface PublishOptions {
  target?: string;
  preset: string;
  dryRun?: boolean;
  budget?: number;
  yes?: boolean;
  seed?: string;
  itemsPerHit?: number;
  checksPerHit?: number;
  assignments?: number;
  hideDebate?: boolean;
  experiment?: 'debate';
  adaptiveChecks?: 'on' | 'off';
  expectedWorkers?: number;
  onFailure?: 'approve-and-discard' | 'reject';
  workerDecisions?: 'on' | 'off';
  workerStop?: 'discard' | 'reject';
  aggregator?: AggregatorId;
  redundancy?: 'fixed' | 'adaptive';
  recollect?: 'when-undecided' | 'always';
  tie?: 'unresolved' | 'yes' | 'no';
  concurrency?: number;
  json?: boolean;
}

function publishRequest(opts: PublishOptions): PublishRequest {
  return {
    preset: opts.preset,
    ...(opts.target !== undefined && { target: opts.target }),
    ...(opts.seed !== undefined && { seed: opts.seed }),
    ...(opts.itemsPerHit !== undefined && { itemsPerHit: opts.itemsPerHit }),
    ...(opts.checksPerHit !== undefined && { checksPerHit: opts.checksPerHit }),
    ...(opts.assignments !== undefined && { assignments: opts.assignments }),
    ...(opts.hideDebate && { hideDebate: true }),
    ...(opts.experiment !== undefined && { experiment: opts.experiment }),
    ...(opts.adaptiveChecks !== undefined && { adaptiveChecks: opts.adaptiveChecks === 'on' }),
    ...(opts.expectedWorkers !== undefined && { expectedWorkers: opts.expectedWorkers }),
    ...(opts.onFailure !== undefined && { onFailure: opts.onFailure }),
    ...(opts.workerDecisions !== undefined && { workerDecisions: opts.workerDecisions === 'on' }),
    ...(opts.workerStop !== undefined && { workerStop: opts.workerStop }),
    ...(opts.aggregator !== undefined && { aggregator: opts.aggregator }),
    ...(opts.redundancy !== undefined && { redundancy: opts.redundancy }),
    ...(opts.recollect !== undefined && { recollect: opts.recollect }),
    ...(opts.tie !== undefined && { tie: opts.tie }),
    ...(opts.budget !== undefined && { budgetUsd: opts.budget }),
    ...(opts.concurrency !== undefined && { concurrency: opts.concurrency }),
    yes: opts.yes === true,
  };
}

function roundLine(r: CollectResult): string {
  const s = r.aggregation.summary;
  return `batch ${r.batch}: ${r.state}; ${s.itemsComplete}/${s.items} items decided, ${r.reconcile.newAssignments} new assignments, ${r.review.decided} reviewed, ${r.followUp.extraAssignments} extra assignments, ${r.followUp.reposted} new HITs`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The batch commands: import, publish, status, review, expire, cleanup. */
export function registerPipeline(program: Command): void {
  registerImportCommand(program);
  registerPublishCommand(program);
  registerStatusCommand(program);
  registerReviewCommand(program);
  registerExpireCommand(program);
  registerCleanupCommand(program);
}

function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description('import escalated cases, a gold pool or consensus labels into a batch (nothing is written if any line is bad)')
    .argument('<file>', 'JSONL file (canonical or BRIDGE-style)')
    .requiredOption('--batch <name>', 'batch to import into (created if new)')
    .option(
      '--kind <kind>',
      `${INGEST_KINDS.join('|')} (default: from the first record; a BRIDGE debate file is split per row by its consensus field)`,
      parseKind,
    )
    .option('--max-errors <n>', 'errors to list when the file is refused (default 50)', parseWhole(1, 10_000))
    .action(
      action(async (file: string, opts: { batch: string; kind?: IngestKind; maxErrors?: number }) => {
        await withPipeline(async (ctx) => {
          try {
            const outcome = await importAny(ctx, file, {
              batch: opts.batch,
              ...(opts.kind && { kind: opts.kind }),
              ...(opts.maxErrors && { maxErrors: opts.maxErrors }),
            });
            const warning = ignoredFieldsWarning(file, outcome.ignoredFields);
            if (warning) process.stderr.write(`qrelay: ${warning}\n`);
            say(importLine(file, outcome));
          } catch (err) {
            if (err instanceof ImportRejected) {
              for (const issue of err.errors) say(formatIssue(err.file, issue));
              if (err.moreErrors > 0) say(`... and ${err.moreErrors} more errors`);
              throw new UserError(`${err.message.replace(/; the first: .*$/, '')} (the errors are listed above)`);
            }
            throw err;
          }
        });
      }),
    );
}

function registerPublishCommand(program: Command): void {
  program
    .command('publish')
    .description('plan a batch into HITs with attention checks and create them on the target (resumable; never creates a HIT twice)')
    .argument('<batch>', 'batch name')
    .option('--target <target>', 'local, sandbox, production, an MTurk-compatible URL, or prolific (default: MTURK_TARGET)')
    .option('--preset <name>', 'HIT preset in hits/ (or a JSON file)', 'dream')
    .option('--dry-run', 'print the plan and the exact cost quote; change nothing')
    .option('--budget <usd>', 'stop before the quote or the committed spend would exceed this (required for production)', parseBudget)
    .option('--yes', 'confirm publishing with real money (production)')
    .option('--seed <seed>', 'planning seed (default: the batch name)')
    .option('--items-per-hit <n>', 'real items per HIT (default: the preset)', parseWhole(1, 100))
    .option('--checks-per-hit <n>', 'attention checks per full HIT (default: the preset)', parseWhole(0, 50))
    .option('--assignments <n>', 'workers per HIT and valid votes per item (default: the preset, 3)', parseWhole(1, 9))
    .option('--hide-debate', "hide the agents' debate (the paper's without-history arm)")
    .option(
      '--experiment <factor>',
      'debate: assign each worker at random to pages with or without the debate and compare the arms (docs/experiment.md)',
      parseChoice(['debate'] as const),
    )
    .option(
      '--adaptive-checks <on|off>',
      "starter HITs with more attention checks (both polarities) for workers' first HITs, the check share after (default: the preset, off; docs/adaptive-checks.md)",
      parseChoice(['on', 'off'] as const),
    )
    .option(
      '--expected-workers <n>',
      'workers the batch is expected to draw: sizes the starter HITs (default: the preset, 50)',
      parseWhole(1, 100_000),
    )
    .option(
      '--on-failure <policy>',
      'an assignment that fails a check: approve-and-discard (default) or reject',
      parseChoice(['approve-and-discard', 'reject'] as const),
    )
    .option(
      '--worker-decisions <on|off>',
      'stop workers whose record across the batch shows they do not do the task (soft block, their unreviewed work discarded or rejected as --worker-stop says, and collected again): on (default) or off (the checks alone decide, per assignment)',
      parseChoice(['on', 'off'] as const),
    )
    .option(
      '--worker-stop <policy>',
      "a stopped worker's work not yet reviewed: discard (paid, votes not counted) or reject (default: the preset's workerStop, discard; reject with --on-failure reject)",
      parseChoice(['discard', 'reject'] as const),
    )
    .option(
      '--aggregator <name>',
      AGGREGATOR_IDS.map((id) => (id === DEFAULT_AGGREGATOR ? `${id} (default)` : id)).join(' or '),
      parseChoice(AGGREGATOR_IDS),
    )
    .option(
      '--redundancy <mode>',
      'fixed (default: the preset): every worker at once; adaptive: two workers first, the third only where their votes disagree',
      parseChoice(['fixed', 'adaptive'] as const),
    )
    .option(
      '--recollect <policy>',
      'discarded work: when-undecided (default: the preset) collects it again only for items whose remaining votes do not decide the majority; always: every lost vote',
      parseChoice(['when-undecided', 'always'] as const),
    )
    .option('--tie <policy>', 'a tied item: unresolved (default), yes or no', parseChoice(['unresolved', 'yes', 'no'] as const))
    .option('--concurrency <n>', 'HITs created at once (default 4)', parseWhole(1, 32))
    .option('--json', 'print one JSON object')
    .action(
      action(async (batch: string, opts: PublishOptions) => {
        await withPipeline(
          async (ctx, config) => {
            const { dryRunPublish, publishBatch } = await import('../pipeline/publish.js');
            const request = publishRequest(opts);
            if (opts.dryRun) {
              const dry = await dryRunPublish(ctx, batch, request, config.env.MTURK_TARGET);
              process.stdout.write(
                opts.json
                  ? `${JSON.stringify({ batch, dryRun: true, settings: dry.settings, plan: { hits: dry.plan.hits.length, checks: dry.plan.checks, splits: dry.plan.splits }, quote: dry.plan.quote })}\n`
                  : dry.text,
              );
              return;
            }
            const stored = await requireBatch(ctx, batch);
            await checkReachable(config, stored.settings?.target ?? opts.target ?? config.env.MTURK_TARGET);
            const result = await publishBatch(
              ctx,
              batch,
              stored.settings ? (opts.target ? { ...request } : undefined) : request,
              config.env.MTURK_TARGET,
            );
            const target = (await requireBatch(ctx, batch)).settings?.target;
            if (opts.json) say(JSON.stringify({ ...result, target }));
            else
              say(
                `batch ${batch}: ${result.hits} HITs on ${target} (${result.created} created now, ${result.reused + result.alreadyPublished} already there); quote $${formatUsd(result.quoteCents)}`,
              );
          },
          { quiet: opts.json === true },
        );
      }),
    );
}

function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description("a batch's progress: items with their votes, HITs, assignments, agreement (κ, α), spend")
    .argument('<batch>', 'batch name')
    .option('--json', 'print one JSON object')
    .action(
      action(async (batch: string, opts: { json?: boolean }) => {
        await withPipeline(
          async (ctx) => {
            const { batchStatus, renderStatus } = await import('../pipeline/status.js');
            const status = await batchStatus(ctx, batch);
            process.stdout.write(opts.json ? `${JSON.stringify(status)}\n` : renderStatus(status));
          },
          { quiet: true },
        );
      }),
    );
}

function registerReviewCommand(program: Command): void {
  program
    .command('review')
    .description('collect submitted work, review it by the attention checks (approve/reject), ask for extra votes where needed, aggregate')
    .argument('<batch>', 'batch name')
    .option('--until-complete', 'repeat rounds until every item has its votes and nothing is outstanding')
    .option('--interval <seconds>', 'seconds between rounds with --until-complete (default 30)', parseWhole(1, 86_400))
    .option('--json', 'print the last round as one JSON object')
    .action(
      action(async (batch: string, opts: { untilComplete?: boolean; interval?: number; json?: boolean }) => {
        await withPipeline(
          async (ctx, config) => {
            const { collectBatch, RoundBusy } = await import('../pipeline/collect.js');
            const stored = await requireBatch(ctx, batch);
            if (stored.settings) await checkReachable(config, stored.settings.target);
            for (;;) {
              let round: CollectResult;
              try {
                round = await collectBatch(ctx, batch);
              } catch (err) {
                if (!(err instanceof RoundBusy) || !opts.untilComplete) throw err;
                say(`batch ${batch}: another collection round is running; waiting`);
                await sleep((opts.interval ?? 30) * 1000);
                continue;
              }
              const done = round.followUp.complete || round.state !== 'collecting';
              if (!opts.json) say(roundLine(round));
              if (!opts.untilComplete || done) {
                if (opts.json)
                  say(
                    JSON.stringify({
                      batch,
                      state: round.state,
                      reconcile: round.reconcile,
                      review: round.review,
                      followUp: round.followUp,
                      summary: round.aggregation.summary,
                    }),
                  );
                return;
              }
              await sleep((opts.interval ?? 30) * 1000);
            }
          },
          { quiet: opts.json === true },
        );
      }),
    );
}

function registerExpireCommand(program: Command): void {
  program
    .command('expire')
    .description('stop a batch: expire its HITs on the platform, collect and review what was already accepted')
    .argument('<batch>', 'batch name')
    .action(
      action(async (batch: string) => {
        await withPipeline(async (ctx) => {
          const { expireBatch } = await import('../pipeline/expire.js');
          const r = await expireBatch(ctx, batch);
          say(
            `batch ${batch}: expired ${r.expired} HITs; ${r.collect.aggregation.summary.itemsComplete}/${r.collect.aggregation.summary.items} items decided`,
          );
        });
      }),
    );
}

function registerCleanupCommand(program: Command): void {
  program
    .command('cleanup')
    .description("delete a finished batch's HITs on the platform (votes and labels stay)")
    .argument('<batch>', 'batch name')
    .action(
      action(async (batch: string) => {
        await withPipeline(async (ctx) => {
          const { cleanupBatch } = await import('../pipeline/expire.js');
          const r = await cleanupBatch(ctx, batch);
          say(
            `batch ${batch}: ${r.deleted} HITs deleted${r.closed ? ', batch closed' : `; ${r.remaining.length} still have work outstanding: run cleanup again later`}`,
          );
        });
      }),
    );
}
