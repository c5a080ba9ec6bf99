import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { EscalatedCase } from '../domain/cases.js';
import { samplePopulation, sampleFiles } from '../demo/sample.js';
import { batchReport, recordAggregateChoice } from '../export/index.js';
import { loadBatchData, requireBatch, type BatchData } from '../batches/index.js';
import { aggregateStored } from '../batches/votes.js';
import { lastRoundData } from '../pipeline/collect.js';
import type { PipelineContext } from '../pipeline/context.js';
import { buildForecast, readTruth, renderForecasts, simulateBatch, type ForecastVote, type SimulateRequest } from '../simulation/index.js';
import { UserError } from '../errors.js';
import { parseChoice } from './options.js';
import { DEFAULT_REPLICATES, printExperimentForecast, type SimulatedCopy } from './simulate-experiment.js';
import { parseWhole, withPipeline } from './pipeline.js';
import { action } from './run.js';

/**
 * `qrelay simulate BATCH --population FILE [--truth FILE] [--seed S] [--as NAME] [--replace]
 * [--hide-debate] [--compare-debate] [--experiment debate [--replicates N]] [--json]`: a forecast of the batch's cost, latency and
 * quality by a simulated crowd (src/simulation/, docs/population.md).
 */

interface SimulateCliOptions {
  population: string;
  truth?: string;
  seed?: string;
  as?: string;
  replace?: boolean;
  hideDebate?: boolean;
  redundancy?: 'fixed' | 'adaptive';
  recollect?: 'when-undecided' | 'always';
  compareDebate?: boolean;
  experiment?: 'debate';
  replicates?: number;
  workerDecisions?: 'on' | 'off';
  adaptiveChecks?: 'on' | 'off';
  json?: boolean;
}

const say = (line: string) => process.stderr.write(`${line}\n`);

/** Every answer to a real item of the copy, counted or not (`cases`: the copy's, by item id). */
function collectedVotes(cases: ReadonlyMap<string, EscalatedCase>, data: BatchData): ForecastVote[] {
  return data.assignments.flatMap((a) =>
    (a.answers ?? []).flatMap((x) => {
      const item = x.kind === 'real' ? cases.get(x.item) : undefined;
      return item && x.answer ? [{ query_id: item.query_id, chunk_id: item.chunk_id, workerId: a.workerId, answer: x.answer }] : [];
    }),
  );
}

/** A simulated copy's forecast, with its aggregate and, in an experiment, the workers' arms (`--experiment` compares the arms from them). */
export async function runSimulation(
  ctx: PipelineContext,
  config: Config,
  req: SimulateRequest,
  progress: (line: string) => void,
): Promise<SimulatedCopy> {
  const run = await simulateBatch({ connection: ctx.models.batches.db, config, logger: ctx.logger, progress }, req);
  const endStarted = performance.now();
  // the batch as the last round left it (no other writer touched the copy since): not read again
  const data = (await lastRoundData(run.ctx, req.name)) ?? (await loadBatchData(run.ctx, req.name));
  const { report } = await batchReport(run.ctx, req.name, { cases: run.cases, ...(data && { data }) });
  const votes = collectedVotes(run.cases, data);
  const forecast = buildForecast({
    source: req.source,
    seed: req.population.seed,
    hideDebate: req.hideDebate === true,
    withTruth: req.truth !== undefined,
    report,
    votes,
    kinds: new Map(run.workers.map((w) => [w.workerId, w])),
    blocked: run.blocked,
    wallSeconds: run.wallSeconds,
    wall: {
      copySeconds: run.copyWallSeconds,
      publishSeconds: run.publishWallSeconds,
      crowdSeconds: run.crowdWallSeconds,
      roundsSeconds: run.roundsWallSeconds,
      rounds: run.rounds,
      endSeconds: (performance.now() - endStarted) / 1000,
    },
  });
  // with a truth, the forecast decides which labels export-qrels writes by default for the batch and its copy
  if (forecast.accuracy) {
    const { majority, ds, better } = forecast.aggregation;
    const figures = (a: typeof majority) => ({ accuracy: a.accuracy, balancedAccuracy: a.balancedAccuracy });
    await recordAggregateChoice(ctx.models.batches.db, req.source, {
      better,
      majority: figures(majority),
      ds: figures(ds),
      simulatedAs: req.name,
      seed: req.population.seed,
      at: ctx.now(),
    });
  }
  const settings = (await requireBatch(run.ctx, req.name)).settings;
  if (!settings) throw new Error(`simulated copy ${req.name} has no settings after publishing`);
  return {
    forecast,
    aggregate: aggregateStored(data.hits, data.assignments, settings),
    ...(run.experiment && { experiment: run.experiment }),
  };
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(
      "forecast a batch's cost, latency and label quality with a simulated crowd, on a private simulated marketplace (the batch is never changed)",
    )
    .argument('<batch>', 'the batch to simulate (a draft or a published batch)')
    .option('--population <file>', 'the simulated population (docs/population.md)', sampleFiles.population)
    .option('--truth <file>', 'true labels: TREC qrels or JSONL {query_id, chunk_id, label}; without it, no accuracy')
    .option('--seed <seed>', "the simulation's seed (default: the population's)")
    .option('--as <name>', 'the simulated copy (default <batch>-sim)')
    .option('--replace', 'replace an earlier simulated copy of that name')
    .option('--hide-debate', "the HIT pages without the agents' debate (the paper's no-history arm)")
    .option(
      '--redundancy <mode>',
      "fixed or adaptive (two votes first, the third only where they disagree); default: the batch's, else fixed",
      parseChoice(['fixed', 'adaptive'] as const),
    )
    .option(
      '--recollect <policy>',
      "discarded work collected again: when-undecided (only where the remaining votes do not decide the majority) or always; default: the source batch's, the preset's for a draft",
      parseChoice(['when-undecided', 'always'] as const),
    )
    .option('--compare-debate', 'simulate twice, with and without the debate on the page, and compare (<name> and <name>-no-debate)')
    .option(
      '--experiment <factor>',
      "forecast the experiment publish --experiment runs (debate: pages with or without the debate): --replicates simulated copies <name>, each simulated worker given an arm on their first page by the experiment's rule, the arms compared with 95% intervals and a test, averaged over the copies with the test's power",
      parseChoice(['debate'] as const),
    )
    .option(
      '--replicates <n>',
      `with --experiment: how many simulated batches the forecast averages over, one after another (default ${DEFAULT_REPLICATES}); the power is the share of them whose test finds the difference`,
      parseWhole(1, 100),
    )
    .option(
      '--worker-decisions <on|off>',
      "stop workers whose record shows they do not do the task (default: the source batch's setting, on for a draft); off: the checks alone decide, as in the DREAM study",
      parseChoice(['on', 'off'] as const),
    )
    .option(
      '--adaptive-checks <on|off>',
      "starter HITs with more attention checks for workers' first HITs, sized for the population (default: the source batch's setting, the preset's for a draft)",
      parseChoice(['on', 'off'] as const),
    )
    .option('--json', 'the forecast as one JSON object on stdout')
    .action(
      action(async (batch: string, opts: SimulateCliOptions) => {
        const profile = samplePopulation(opts.population);
        const population = opts.seed !== undefined ? { ...profile, seed: opts.seed } : profile;
        const truth = opts.truth !== undefined ? readTruth(opts.truth) : undefined;
        const name = opts.as ?? `${batch}-sim`;
        const progress = opts.json ? () => {} : say;
        await withPipeline(
          async (ctx, config) => {
            const base = {
              source: batch,
              replace: opts.replace === true,
              population,
              ...(truth && { truth }),
              ...(opts.redundancy && { redundancy: opts.redundancy }),
              ...(opts.recollect && { recollect: opts.recollect }),
              ...(opts.workerDecisions && { workerDecisions: opts.workerDecisions === 'on' }),
              ...(opts.adaptiveChecks && { adaptiveChecks: opts.adaptiveChecks === 'on' }),
            };
            if (opts.replicates !== undefined && !opts.experiment)
              throw new UserError(
                `simulate ${batch}: --replicates ${opts.replicates} applies to --experiment debate only; add --experiment debate or leave it out`,
              );
            if (opts.experiment) {
              if (opts.compareDebate || opts.hideDebate)
                throw new UserError(
                  `simulate ${batch}: --experiment ${opts.experiment} sets the debate per arm; leave out --compare-debate and --hide-debate`,
                );
              await printExperimentForecast(
                base,
                { name, json: opts.json === true, replicates: opts.replicates ?? DEFAULT_REPLICATES, progress },
                (req) => runSimulation(ctx, config, req, progress),
              );
              return;
            }
            if (opts.compareDebate) {
              const { forecast: shown } = await runSimulation(ctx, config, { ...base, name, hideDebate: false }, progress);
              const { forecast: hidden } = await runSimulation(
                ctx,
                config,
                { ...base, name: `${name}-no-debate`, hideDebate: true },
                progress,
              );
              process.stdout.write(
                opts.json
                  ? `${JSON.stringify({ batch, simulated: true, seed: population.seed, withDebate: shown, withoutDebate: hidden })}\n`
                  : renderForecasts([
                      { title: 'with the debate', forecast: shown },
                      { title: 'without the debate', forecast: hidden },
                    ]),
              );
              return;
            }
            const { forecast } = await runSimulation(ctx, config, { ...base, name, hideDebate: opts.hideDebate === true }, progress);
            process.stdout.write(opts.json ? `${JSON.stringify(forecast)}\n` : renderForecasts([{ title: name, forecast }]));
          },
          { quiet: true },
        );
      }),
    );
}
