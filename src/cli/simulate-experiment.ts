import type { ExperimentSummary } from '../experiment/compare.js';
import { batchExperiment } from '../experiment/summary.js';
import { renderExperiment } from '../experiment/render.js';
import type { ExperimentArm } from '../experiment/assign.js';
import { renderForecasts, type Forecast, type SimulateRequest } from '../simulation/index.js';
import type { SimulatedCopy } from './simulate.js';

/**
 * `qrelay simulate BATCH --experiment debate`: the debate experiment's forecast. One
 * simulated copy of the batch, its pages with the debate; each simulated worker is given an
 * arm on their first page by the experiment's rule (src/experiment/assign.ts, as publish
 * --experiment gives it), and the no-debate arm's workers read the pages as if the debate
 * were hidden; one quality control for all. The arms are compared as `status` and `report`
 * compare a published experiment's (batchExperiment, seeded with the copy's seed).
 */

export interface ExperimentForecast {
  batch: string;
  simulated: true;
  /** The population's seed. */
  seed: string;
  /** The experiment's seed (the simulated copy's, which is the batch's): the arms and the intervals' resampling follow from it. */
  experimentSeed: string;
  /** Every simulated worker who opened a page, with their arm, in the order the arms were given. */
  arms: { workerId: string; arm: ExperimentArm; rank: number }[];
  experiment: ExperimentSummary;
  /** The simulated batch as a whole (both arms). */
  forecast: Forecast;
}

export function experimentForecast(source: string, seed: string, copy: SimulatedCopy): ExperimentForecast {
  if (!copy.experiment) throw new Error(`simulate ${source} --experiment: the simulated copy ran without the experiment`);
  const { arms } = copy.experiment;
  return {
    batch: source,
    simulated: true,
    seed,
    experimentSeed: copy.experiment.seed,
    arms,
    // as status and report compare a published experiment's arms (the same seed gives the same intervals)
    experiment: batchExperiment(
      copy.aggregate.scored,
      copy.aggregate.used,
      new Map(arms.map((a) => [a.workerId, a.arm])),
      copy.experiment.seed,
    ),
    forecast: copy.forecast,
  };
}

export function renderExperimentForecast(f: ExperimentForecast): string {
  const count = (arm: ExperimentArm) => f.arms.filter((a) => a.arm === arm).length;
  return [
    renderForecasts([{ title: `${f.forecast.batch} (both arms)`, forecast: f.forecast }]),
    `arms: ${count('debate')} workers given the debate, ${count('no-debate')} not (permuted blocks of two over their first pages)`,
    renderExperiment(f.experiment),
  ].join('\n');
}

/** `--experiment debate` in the CLI: the one experimental copy simulated with `run`, printed as JSON or text. */
export async function printExperimentForecast(
  base: Omit<SimulateRequest, 'name' | 'hideDebate' | 'experiment'>,
  args: { name: string; json: boolean },
  run: (req: SimulateRequest) => Promise<SimulatedCopy>,
): Promise<void> {
  const copy = await run({ ...base, name: args.name, hideDebate: false, experiment: 'debate' });
  const f = experimentForecast(base.source, base.population.seed, copy);
  process.stdout.write(args.json ? `${JSON.stringify(f)}\n` : renderExperimentForecast(f));
}
