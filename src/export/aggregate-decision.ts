import { AGGREGATOR_SHORT_NAMES, type AggregatorShortName } from '../aggregate/index.js';

/**
 * Which labels `export-qrels` writes by default (pure): `majority` (the DREAM protocol's
 * majority of 3) or `ds` (Dawid–Skene with the checks as gold and worker priors from the
 * evidence).
 *
 * `qrelay simulate BATCH --truth FILE` forecasts both against the truth and records the one
 * with the higher balanced accuracy (majority when they tie: the protocol's label needs no
 * model) under the source batch and under the simulated copy, with both figures
 * (aggregate-choice.ts stores it). Without such a forecast the default is the protocol's
 * majority. The export says which it used and why. The names are the aggregator
 * registry's short ones (aggregate/registry.ts).
 */

export const AGGREGATES = AGGREGATOR_SHORT_NAMES;
export type Aggregate = AggregatorShortName;

/** One aggregation's figures against the truth in a forecast. */
export interface ForecastFigures {
  accuracy: number | null;
  balancedAccuracy: number | null;
}

export interface AggregateChoiceDoc {
  /** The batch the choice is for: the simulated source, or the simulated copy itself. */
  _id: string;
  better: Aggregate;
  majority: ForecastFigures;
  ds: ForecastFigures;
  /** The simulated copy and seed that measured them. */
  simulatedAs: string;
  seed: string;
  at: Date;
}

/** The better of the two by balanced accuracy (then accuracy); majority on a tie or when either is unknown. */
export function betterAggregate(majority: ForecastFigures, ds: ForecastFigures): Aggregate {
  if (majority.balancedAccuracy === null || ds.balancedAccuracy === null) return 'majority';
  if (ds.balancedAccuracy !== majority.balancedAccuracy) return ds.balancedAccuracy > majority.balancedAccuracy ? 'ds' : 'majority';
  return ds.accuracy !== null && majority.accuracy !== null && ds.accuracy > majority.accuracy ? 'ds' : 'majority';
}

export interface AggregateDecision {
  aggregate: Aggregate;
  /** `option`: given on the command line; `forecast`: the recorded forecast; `protocol`: no forecast, the protocol's majority. */
  from: 'option' | 'forecast' | 'protocol';
  /** One sentence for people. */
  reason: string;
  forecast: Omit<AggregateChoiceDoc, '_id'> | null;
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);

/** What export-qrels uses (pure): the option, else the recorded forecast's better one, else majority. */
export function decideAggregate(option: Aggregate | undefined, recorded: Omit<AggregateChoiceDoc, '_id'> | null): AggregateDecision {
  if (option !== undefined) return { aggregate: option, from: 'option', reason: `--aggregate ${option} was given`, forecast: recorded };
  if (recorded) {
    const figures = `balanced accuracy ${pct(recorded.ds.balancedAccuracy)} (Dawid–Skene) vs ${pct(recorded.majority.balancedAccuracy)} (majority)`;
    return {
      aggregate: recorded.better,
      from: 'forecast',
      reason: `the simulated forecast ${recorded.simulatedAs} (seed ${recorded.seed}) showed ${recorded.better === 'ds' ? 'Dawid–Skene' : 'the majority of 3'} better: ${figures}`,
      forecast: recorded,
    };
  }
  return {
    aggregate: 'majority',
    from: 'protocol',
    reason: 'no simulated forecast with a truth for this batch (qrelay simulate --truth): the protocol’s majority of 3',
    forecast: null,
  };
}
