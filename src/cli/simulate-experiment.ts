import { batchExperiment } from '../experiment/summary.js';
import { renderExperiment } from '../experiment/render.js';
import type { ExperimentSummary } from '../experiment/compare.js';
import type { ExperimentArm } from '../experiment/assign.js';
import { poolExperiments, renderPower, type Directions, type Power } from '../experiment/replicates.js';
import type { BatchAggregate } from '../batches/votes.js';
import { renderForecasts, type Forecast, type SimulateRequest, type SimulationRun } from '../simulation/index.js';

/** What one simulated copy of a batch gives back: its forecast, its aggregate and, in an experiment, its arms. */
export interface SimulatedCopy {
  forecast: Forecast;
  aggregate: BatchAggregate;
  experiment?: SimulationRun['experiment'];
}

/**
 * `qrelay simulate BATCH --experiment debate [--replicates N]`: the debate experiment's
 * forecast. N simulated crowds of the batch, one after another, each with its own seed
 * (replicateSeed) and the same design: each simulated copy's pages carry the debate; each
 * simulated worker is given an arm on their first page by the experiment's rule
 * (src/experiment/assign.ts, as publish --experiment gives it, seeded with the copy's seed,
 * which is the batch's), and the no-debate arm's workers read the pages as if the debate
 * were hidden; one quality control for all. Each replicate's arms are compared as `status`
 * and `report` compare a published experiment's (batchExperiment); the forecast pools them
 * (src/experiment/replicates.ts). Every replicate runs on its own private marketplace.
 */

/** The default number of simulated batches of `--experiment debate`. */
export const DEFAULT_REPLICATES = 5;

export interface ExperimentReplicate {
  /** The population's seed of this simulated batch. */
  seed: string;
  /** Every simulated worker who opened a page, with their arm, in the order the arms were given. */
  arms: { workerId: string; arm: ExperimentArm; rank: number }[];
  experiment: ExperimentSummary;
  /** The simulated batch as a whole (both arms). */
  forecast: Forecast;
}

export interface ExperimentForecast {
  batch: string;
  simulated: true;
  /** The run's seed; the replicates' seeds follow from it (replicateSeed). */
  seed: string;
  /** The experiment's seed (the simulated copy's, which is the batch's): the arms and the intervals' resampling follow from it. */
  experimentSeed: string;
  /** The forecast over the replicates: per arm and for the difference, the mean and a 95% interval for one batch. */
  experiment: ExperimentSummary;
  /** Per statistic, the share of replicates whose test gave p < 0.05. */
  power: Power;
  /** Per statistic, in how many replicates the debate arm was higher or lower. */
  directions: Directions;
  replicates: ExperimentReplicate[];
}

/** The population seed of replicate i (0-based): the run's own seed first, so one replicate is the single draw. */
export const replicateSeed = (seed: string, i: number): string => (i === 0 ? seed : `${seed}#replicate-${i + 1}`);

export function experimentReplicate(source: string, seed: string, copy: SimulatedCopy): ExperimentReplicate {
  if (!copy.experiment) throw new Error(`simulate ${source} --experiment: the simulated copy ran without the experiment`);
  const { arms } = copy.experiment;
  return {
    seed,
    arms,
    // as status and report compare a published experiment's arms (the same seed gives the same intervals)
    experiment: batchExperiment(copy.aggregate.scored, new Map(arms.map((a) => [a.workerId, a.arm])), copy.experiment.seed),
    forecast: copy.forecast,
  };
}

export function experimentForecast(
  source: string,
  seed: string,
  experimentSeed: string,
  replicates: ExperimentReplicate[],
): ExperimentForecast {
  const pooled = poolExperiments(replicates.map((r) => r.experiment));
  return {
    batch: source,
    simulated: true,
    seed,
    experimentSeed,
    experiment: pooled.experiment,
    power: pooled.power,
    directions: pooled.directions,
    replicates,
  };
}

export function renderExperimentForecast(f: ExperimentForecast): string {
  const n = f.replicates.length;
  const arms = f.replicates.map((r) => {
    const count = (arm: ExperimentArm) => r.arms.filter((a) => a.arm === arm).length;
    return `${count('debate')}/${count('no-debate')}`;
  });
  return [
    renderForecasts(
      f.replicates.slice(0, 1).map((r) => ({ title: `${r.forecast.batch} (both arms, seed ${r.seed})`, forecast: r.forecast })),
    ),
    `replicates: ${n} simulated ${n === 1 ? 'batch' : 'batches'} (seeds ${f.replicates.map((r) => r.seed).join(', ')}); workers given the debate/not: ${arms.join(', ')} (permuted blocks of two over their first pages)`,
    renderExperiment(f.experiment),
    renderPower({ experiment: f.experiment, power: f.power, directions: f.directions, replicates: n }),
  ].join('\n');
}

/** `--experiment debate` in the CLI: `replicates` simulated copies run one after another with `run`, pooled, printed as JSON or text. */
export async function printExperimentForecast(
  base: Omit<SimulateRequest, 'name' | 'hideDebate' | 'experiment'>,
  args: { name: string; json: boolean; replicates: number; progress: (line: string) => void },
  run: (req: SimulateRequest) => Promise<SimulatedCopy>,
): Promise<void> {
  const replicates: ExperimentReplicate[] = [];
  let experimentSeed: string | undefined;
  for (let i = 0; i < args.replicates; i++) {
    const seed = replicateSeed(base.population.seed, i);
    args.progress(`replicate  ${i + 1} of ${args.replicates} (seed ${seed})`);
    // one copy name for all: each replicate replaces the one before (its private marketplace is dropped with it)
    const copy = await run({
      ...base,
      population: { ...base.population, seed },
      replace: i === 0 ? base.replace : true,
      name: args.name,
      hideDebate: false,
      experiment: 'debate',
    });
    replicates.push(experimentReplicate(base.source, seed, copy));
    experimentSeed ??= copy.experiment?.seed;
  }
  const f = experimentForecast(base.source, base.population.seed, experimentSeed!, replicates);
  process.stdout.write(args.json ? `${JSON.stringify(f)}\n` : renderExperimentForecast(f));
}
